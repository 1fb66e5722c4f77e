"""Similar submissions: pairs of learners whose code for a challenge is near-identical once names, comments and
layout are set aside, the starter code left out as base code (every learner starts from it), as MOSS does.

How. A submission is read as Python tokens (a regex of Python's token kinds): names that are not keywords or
builtins become `V`, strings `S`, numbers `N`, comments and layout are dropped. Every run of K tokens is hashed,
and winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003: MOSS's algorithm) keeps the smallest hash of each
window of W hashes: two submissions that share any run of K + W - 1 tokens share a fingerprint. The starter's
k-grams are removed from every submission's fingerprints, and so are the ones in more than `common` distinct
submissions of the challenge (an idiom everyone writes, as MOSS's `-m`). A pair's score is the share of the
smaller submission's fingerprints that the other holds too.

How it scales. Submissions with the same fingerprints are one group (renamed copies, however many learners hand
them in), and pairs of groups are counted through an index from fingerprint to the groups that hold it. A
fingerprint counts for at most `common` groups, so the work is at most (fingerprints x common): with
common = max(10, sqrt(submissions)), O(n sqrt n) for n submissions, never the n^2 / 2 pairs of comparing each
with each. (Why not copydetect, which implements winnowing too: it hashes with Python's `hash()` of text, salted
anew in every process, so two runs over one class would keep other fingerprints and the report would not be
byte-equal; it compares every pair of files; and it imports matplotlib. Winnowing itself is a few lines.)
"""

from __future__ import annotations

import builtins
import itertools
import keyword
import math
import re
import zlib
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

K = 12  # tokens in a k-gram: shorter runs are what any two solutions share
W = 8  # winnowing window: a shared run of K + W - 1 = 19 tokens is always found
MIN_SHARED = 10  # fingerprints two submissions must share beyond the starter and the idioms to be a pair
THRESHOLD = 0.7  # score from which a pair is shown
MAX_PAIRS = 50  # shown per challenge, the most similar first

# A string, closed or not: a quote always starts a string that runs to its closing quote or, unclosed, to the end of
# its line (of the file, for triple quotes). Were an unclosed string no match, the search would scan the rest of the
# line again from every later quote: a 40 KB line of \' pairs took 7 CPU-s, 256 KB about six minutes, per report.
_STRING = (
    r"(?i:[rbuf]{0,2})(?:'''(?:[^\\]|\\.)*?(?:'''|\\?\Z)"
    r'|"""(?:[^\\]|\\.)*?(?:"""|\\?\Z)'
    r"""|'(?:[^'\\\n]|\\.)*'?|"(?:[^"\\\n]|\\.)*"?)"""
)
# One token a match: a comment, a string, a name, a number or an operator (whitespace between them is skipped).
_TOKEN = re.compile(
    rf"#[^\r\n]*|{_STRING}|[^\W\d]\w*|\.?\d(?:[eE][-+]|[\w.])*|\*\*=?|//=?|>>=?|<<=?|->|:=|[-+*/%@&|^=<>!]=|[^\s\w]",
    re.DOTALL,
)
_KEPT = set(keyword.kwlist) | set(keyword.softkwlist) | set(dir(builtins))


class _Ids(dict):
    """A token's text -> the stable number of its normalised form (None for a comment): names that are not
    keywords or builtins are `V`, strings `S`, numbers `N`. Python's hash of a str is salted per process; crc32
    is not, so the fingerprints are the same in every run."""

    def __missing__(self, text: str) -> int | None:
        if text[0] == "#":
            return None
        if text[-1] in "'\"":  # a string, or a lone quote that starts none
            return _S
        if text[0].isdigit() or (text[0] == "." and len(text) > 1):
            form = "N"
        elif text[0].isidentifier() and text not in _KEPT:
            form = "V"
        else:
            form = text
        number = self[text] = zlib.crc32(form.encode("utf-8", "surrogatepass"))
        return number


_S = zlib.crc32(b"S")
_IDS = _Ids()


def _numbers(source: str) -> list[int]:
    """The normalised tokens of `source`, as numbers."""
    return [n for n in map(_IDS.__getitem__, _TOKEN.findall(source)) if n is not None]


def tokens(source: str) -> list[tuple[int, int, int]]:
    """The normalised tokens of `source` with where each is: (number, start, end)."""
    found = ((_IDS[m.group()], m.start(), m.end()) for m in _TOKEN.finditer(source))
    return [t for t in found if t[0] is not None]


def kgram_hashes(numbers: list[int]) -> list[int]:
    """The hash of every run of K tokens (a tuple of ints hashes alike in every process: no salt)."""
    return list(map(hash, zip(*(numbers[j:] for j in range(K)), strict=False)))


def winnow(hashes: list[int]) -> set[int]:
    """The smallest hash of every window of W (of all of them when there are fewer)."""
    if len(hashes) <= W:
        return {min(hashes)} if hashes else set()
    return set(map(min, zip(*(hashes[j:] for j in range(W)), strict=False)))


@dataclass(frozen=True)
class Pair:
    a: str  # learner ids, a < b
    b: str
    score: float  # the share of the smaller one's fingerprints the other holds too
    shared: int  # fingerprints in common (the starter's and idioms aside)


def similar_pairs(sources: dict[str, str], starter: str, limit: int = MAX_PAIRS) -> tuple[list[Pair], int]:
    """The `limit` most similar pairs of learners whose sources ({learner: code}) score THRESHOLD or more (most
    similar first, then by learner), and how many pairs do in all. A group of n identical submissions is
    n(n-1)/2 pairs: they are counted, and only as many made as could be shown."""
    base = set(kgram_hashes(_numbers(starter)))
    groups: dict[frozenset, list[str]] = defaultdict(list)
    for learner in sorted(sources):
        prints = frozenset(winnow(kgram_hashes(_numbers(sources[learner]))) - base)
        if prints:
            groups[prints].append(learner)
    keys, members = list(groups), list(groups.values())
    holders: dict[int, list[int]] = defaultdict(list)
    for g, prints in enumerate(keys):
        for h in prints:
            holders[h].append(g)
    common = max(10, math.isqrt(len(sources)))
    idioms = {h for h, gs in holders.items() if len(gs) > common}
    own = [len(prints - idioms) for prints in keys]
    shared: dict[tuple[int, int], int] = defaultdict(int)
    for gs in holders.values():
        if len(gs) <= common:
            for i, g in enumerate(gs):
                for other in gs[i + 1 :]:
                    shared[g, other] += 1
    # (score, shared, the groups' members): every pair of learners between them, or within one group.
    found = [(1.0, own[g], them, None) for g, them in enumerate(members) if own[g] >= MIN_SHARED and len(them) > 1]
    for (g, other), count in shared.items():
        score = count / min(own[g], own[other])
        if count >= MIN_SHARED and score >= THRESHOLD:
            found.append((score, count, members[g], members[other]))
    total, pairs = 0, []
    for score, count, them, others in found:
        if others is None:
            total += len(them) * (len(them) - 1) // 2
            made = ((a, b) for i, a in enumerate(them) for b in them[i + 1 :])
        else:
            total += len(them) * len(others)
            made = (tuple(sorted((a, b))) for a in them for b in others)
        pairs += [Pair(a, b, score, count) for a, b in itertools.islice(made, limit)]
    pairs.sort(key=lambda p: (-p.score, -p.shared, p.a, p.b))
    return pairs[:limit], total


@lru_cache(maxsize=256)
def _kgrams(source: str) -> frozenset[int]:
    return frozenset(kgram_hashes(_numbers(source)))


def marked(source: str, other: str, starter: str) -> list[tuple[str, bool]]:
    """`source` cut into (text, shared) parts: shared where a run of K tokens is in `other` too and not in the
    starter, for showing a pair side by side."""
    toks = tokens(source)
    mine = kgram_hashes([t[0] for t in toks])
    theirs = _kgrams(other) - _kgrams(starter)
    covered = [False] * len(toks)
    for i, h in enumerate(mine):
        if h in theirs:
            covered[i : i + K] = [True] * K
    spans: list[list[int]] = []
    for i, ((_, start, end), shared) in enumerate(zip(toks, covered, strict=True)):
        if shared and i and covered[i - 1]:
            spans[-1][1] = end
        elif shared:
            spans.append([start, end])
    parts, at = [], 0
    for start, end in spans:
        parts += [(source[at:start], False), (source[start:end], True)]
        at = end
    parts.append((source[at:], False))
    return [(text, shared) for text, shared in parts if text]
