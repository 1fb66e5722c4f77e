"""The value text: the one textual form in which values are compared and hashed, and `shown`, the same value as
Python writes it, for display only.

The same bytes come out of CPython and Pyodide, and the judge compares them as strings, so the text must not depend
on dict or set order, on float spelling or on the type of an equal number. It is canonical JSON, keys sorted, no
spaces, ASCII, with two tags for what JSON cannot hold: {"$set": [items]} for a set or frozenset, {"$dict": [[key,
value], ...]} for a dict with a key that is not a str (or whose one key reads as a tag). Equal values by the
comparison rules (docs/authoring.md, "How values are compared") have equal text: 3 and 3.0, (1, 2) and [1, 2].

One walk makes both, bounded (depth, items, int digits, characters); it calls no method a learner's class could
have overridden, so a subclass of a built-in type is read as that type's plain value.
"""

from __future__ import annotations

import hashlib
import json
import math

# Bound once at import: learner code in the same interpreter may replace json.dumps afterwards.
_dumps = json.dumps
_sha256 = hashlib.sha256
_int, _float, _str = int.__int__, float.__float__, str.__str__
_int_repr, _float_repr, _str_repr = int.__repr__, float.__repr__, str.__repr__

SET_TAG = "$set"
DICT_TAG = "$dict"

# Results are small values; these limits keep a runaway one from costing the grader (or a host decoding it) more
# than a learner's mistake should: each becomes a learner-facing NotJSONError.
MAX_DEPTH = 100
MAX_ITEMS = 100_000
MAX_INT_DIGITS = 1_000
MAX_CHARS = 1_000_000
SHOWN_CHARS = 2_000
_INT_BOUND = 10**MAX_INT_DIGITS


class NotJSONError(TypeError):
    """A value that has no value text, or too big a one; the message speaks to the learner."""


def looks_tagged(mapping: dict) -> bool:
    """Whether a str-keyed dict would read as a tag: exactly one key, starting with "$"; it is written as a $dict."""
    return len(mapping) == 1 and all(isinstance(key, str) and key.startswith("$") for key in mapping)


class _Walk:
    def __init__(self, ordered: bool = False):
        self.ordered = ordered  # dicts in their own order, not sorted
        self.seen: set[int] = set()
        self.count = 0

    def __call__(self, value, path: str) -> tuple[str, str]:
        """(value text, shown) of one value."""
        self.count += 1
        if self.count > MAX_ITEMS:
            raise NotJSONError(f"the return value holds more than {MAX_ITEMS:,} items, more than a result may")
        if value is None:
            return "null", "None"
        if value is True or value is False:
            return ("true", "True") if value else ("false", "False")
        if isinstance(value, str):
            value = _str(value)
            return _dumps(value), _str_repr(value)
        if isinstance(value, int):
            value = _int(value)
            if not -_INT_BOUND < value < _INT_BOUND:
                raise NotJSONError(
                    f"{path} is an int of more than {MAX_INT_DIGITS:,} digits, more than a result may hold"
                )
            text = _int_repr(value)
            return text, text
        if isinstance(value, float):
            value = _float(value)
            if not math.isfinite(value):
                raise NotJSONError(f"{path} is {_float_repr(value)}, which cannot be compared as a value")
            # 3.0 and 3 are the same answer: an integral float is written as the int, at any size (-0.0 as 0).
            text = _int_repr(int(value)) if value.is_integer() else _float_repr(value)
            return text, _float_repr(value)
        kind = _CONTAINERS.get(type(value)) or next((k for t, k in _CONTAINERS.items() if isinstance(value, t)), None)
        if kind is None:
            raise NotJSONError(
                f"{path} is a {type(value).__name__}, which is not a plain value "
                "(use dict, list, tuple, set, str, int, float, bool or None)"
            )
        if id(value) in self.seen:
            raise NotJSONError(f"{path} contains itself (a circular reference)")
        if len(self.seen) >= MAX_DEPTH:
            raise NotJSONError(
                f"the return value is nested more than {MAX_DEPTH} levels deep, more than a result may be"
            )
        self.seen.add(id(value))
        try:
            return getattr(self, kind)(value, path)
        finally:
            self.seen.discard(id(value))

    def sequence(self, value, path: str) -> tuple[str, str]:
        items = list.copy(value) if isinstance(value, list) else [*tuple.__iter__(value)]
        parts = [self(item, f"{path}[{i}]") for i, item in enumerate(items)]
        shown = ", ".join(s for _, s in parts)
        if isinstance(value, list):
            shown = f"[{shown}]"
        else:
            shown = f"({shown},)" if len(parts) == 1 else f"({shown})"
        return "[" + ",".join(t for t, _ in parts) + "]", shown

    def collection(self, value, path: str) -> tuple[str, str]:
        frozen = isinstance(value, frozenset)
        items = [*(frozenset.__iter__ if frozen else set.__iter__)(value)]
        # Sorted by value text in `shown` too: a set's own order changes with str hashing, from one process to the next.
        parts = sorted(self(item, f"an item of {path}") for item in items)
        shown = ", ".join(s for _, s in parts)
        if frozen:
            shown = f"frozenset({{{shown}}})" if parts else "frozenset()"
        else:
            shown = f"{{{shown}}}" if parts else "set()"
        return '{"' + SET_TAG + '":[' + ",".join(t for t, _ in parts) + "]}", shown

    def mapping(self, value, path: str) -> tuple[str, str]:
        pairs = [*dict.items(value)]
        plain = all(isinstance(key, str) for key, _ in pairs) and not (len(pairs) == 1 and pairs[0][0].startswith("$"))
        parts = []
        for key, item in pairs:
            key_text, key_shown = self(key, f"a key of {path}")
            text, shown = self(item, f"{path}[{key_shown}]")
            # Sorted as json.dumps(sort_keys=True) sorts str keys; other keys by their value text.
            parts.append((_str(key) if plain else key_text, key_text, text, f"{key_shown}: {shown}"))
        shown = "{" + ", ".join(part[3] for part in parts) + "}"
        if not self.ordered:
            parts.sort(key=lambda part: part[0])
        if plain:
            text = "{" + ",".join(f"{k}:{t}" for _, k, t, _ in parts) + "}"
        else:
            text = '{"' + DICT_TAG + '":[' + ",".join(f"[{k},{t}]" for _, k, t, _ in parts) + "]}"
        return text, shown


_CONTAINERS = {list: "sequence", tuple: "sequence", set: "collection", frozenset: "collection", dict: "mapping"}


def encode(value) -> tuple[str, str]:
    """(value text, shown) of a value; NotJSONError if it has none or too big a one. `shown` is capped at
    SHOWN_CHARS with "..."."""
    text, shown = _Walk()(value, "the return value")
    if len(text) > MAX_CHARS:
        raise NotJSONError(
            f"the return value is {len(text):,} characters long as a value, more than the {MAX_CHARS:,} a result may be"
        )
    return text, shown if len(shown) <= SHOWN_CHARS else shown[: SHOWN_CHARS - 3] + "..."


def ordered_text(value) -> str:
    """The value text with every dict in its own order, not sorted: a case's arguments (its run spec's `args`), whose
    order is data to the code they are passed to (a dict's keys in the order the YAML wrote them)."""
    return _Walk(ordered=True)(value, "the arguments")[0]


def canonical_json(value) -> str:
    """The value text alone."""
    return encode(value)[0]


def from_tagged(data):
    """The Python value of tagged data: a value text read by json.loads (the args of a run spec), or a case's YAML
    value as loopcraft/course/yamldoc.py keeps it. A $set's items and a $dict's keys become hashable (lists as tuples)."""
    if isinstance(data, list):
        return [from_tagged(item) for item in data]
    if isinstance(data, dict):
        if len(data) == 1 and SET_TAG in data:
            return {_hashable(from_tagged(item)) for item in data[SET_TAG]}
        if len(data) == 1 and DICT_TAG in data:
            return {_hashable(from_tagged(key)): from_tagged(item) for key, item in data[DICT_TAG]}
        return {key: from_tagged(item) for key, item in data.items()}
    return data


def _hashable(value):
    if isinstance(value, list):
        return tuple(_hashable(item) for item in value)
    if isinstance(value, set):
        return frozenset(value)
    return value


def digest(salt: str, canonical: str) -> str:
    return _sha256((salt + canonical).encode("utf-8")).hexdigest()
