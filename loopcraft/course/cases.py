"""A case as the interpreter and the judge take it (the contract of docs/architecture.md, "Cases"): its run spec
(what to run: host -> Node runner -> worker -> grader.execute.run_case, and the page's worker), its expectation (what
the judge compares: the full form, or a hidden case's salted digest of what it checks) and the call as the learner
would write it. Made here once for the host's requests (loopcraft/running/grading.py) and the page's data
(loopcraft/site/render.py), so that both say the same of every case."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from grader.canonical import digest, encode, ordered_text

from .course import MISSING, Case, Exercise

_dumps = json.dumps  # ASCII, as the value text's strs are


def run_spec(case: Case, entry: str | list[str]) -> dict:
    """What the interpreter needs to run the case: args as the tagged text of a list or a mapping, in the order the
    YAML wrote them (grader/canonical.py ordered_text), or the `call`."""
    return {
        "entry": entry,
        "args": None if case.args is None else ordered_text(case.args),
        "call": case.call,
        "setup": case.setup,
        "stdin": case.stdin,
        "call_twice": case.call_twice,
        # Only a case that compares stdout has it kept whole (up to 1,000,000 characters) in its outcome: a reply
        # holds every case's, and a submission that prints megabytes in each would pass what a reply may take.
        "keep_stdout": case.stdout is not None,
    }


def keyword_run(entry: str, args: dict) -> dict:
    """The run spec of a plain call `entry(**args)`: the build's own harnesses (lesson blocks, scenarios)."""
    return {
        "entry": entry,
        "args": ordered_text(args),
        "call": None,
        "setup": None,
        "stdin": None,
        "call_twice": False,
        "keep_stdout": False,
    }


def expectation(case: Case) -> dict:
    """The full form: every part the judge compares, and `expected_shown`, what it expects as Python writes it: the
    value, or the exception as a traceback's last line says it (`ValueError: square must be between 1 and 64`), or
    nothing for a case that compares printed text alone (the page shows that text beside it)."""
    expect: dict = {"expected_shown": ""}
    if case.expected is not MISSING:
        expect["expected"], expect["expected_shown"] = encode(case.expected)
    if case.raises is not None:
        expect["raises"] = {"type": case.raises.type}
        expect["expected_shown"] = case.raises.type
        if case.raises.message is not None:
            expect["raises"]["message"] = case.raises.message
            expect["expected_shown"] += f": {case.raises.message}"
    if case.stdout is not None:
        expect["stdout"] = case.stdout
    if case.tolerance is not None:
        expect["tolerance"] = case.tolerance
    return expect


def checks(case: Case) -> list[str]:
    """What a case compares, in the names of the hidden form."""
    found = ["value"] if case.expected is not MISSING else []
    if case.raises is not None:
        found += ["raises_type"] + (["raises_message"] if case.raises.message is not None else [])
    return found + (["stdout"] if case.stdout is not None else [])


def _object_text(parts: dict[str, str]) -> str:
    """Canonical JSON of an object whose members are JSON texts already (value texts, JSON strs): keys sorted."""
    return "{" + ",".join(f"{_dumps(key)}:{parts[key]}" for key in sorted(parts)) + "}"


def expectation_text(case: Case) -> str:
    """What a hidden case's digest is of: {"value": VALUE TEXT} or {"raises": {"type", "message" if checked}}, with
    "stdout" where checked (the judge builds the same from an outcome: frontend/src/judge.js, hiddenText). Also
    what the reference solution's unlock key is made of (render.py, solution_key)."""
    parts = {}
    if case.expected is not MISSING:
        parts["value"] = encode(case.expected)[0]
    if case.raises is not None:
        raised = {"type": _dumps(case.raises.type)}
        if case.raises.message is not None:
            raised["message"] = _dumps(case.raises.message)
        parts["raises"] = _object_text(raised)
    if case.stdout is not None:
        parts["stdout"] = _dumps(case.stdout)
    return _object_text(parts)


def hidden_expectation(case: Case, salt: str) -> dict:
    """A hidden case's expectation in page data: its digest, unless it has a tolerance, which a digest cannot
    compare within (it then carries the full form: make such a case private to keep it secret)."""
    if case.tolerance is not None:
        return expectation(case)
    return {"salt": salt, "digest": digest(salt, expectation_text(case)), "checks": checks(case)}


def call_shown(case: Case, entry: str | list[str]) -> str:
    """The case's call as the learner would write it: `word_count('a b')`, `add(a=1, b=2)`, or its `call` with the
    `setup` lines before it."""
    if case.call is not None:
        return f"{case.setup.rstrip()}\n{case.call}" if case.setup else case.call
    if isinstance(case.args, list):
        shown = [encode(value)[1] for value in case.args]
    else:
        shown = [f"{key}={encode(value)[1]}" for key, value in case.args.items()]
    return f"{entry}({', '.join(shown)})"


def expected_text(case: Case) -> str:
    """What a case expects, as the page's examples and `record` say it: the value as Python writes it, the exception
    it must raise, what it must print."""
    parts = []
    if case.expected is not MISSING:
        parts.append(encode(case.expected)[1])
    if case.raises is not None:
        raised = case.raises.type + (f": {case.raises.message}" if case.raises.message is not None else "")
        parts.append(f"raises {raised}")
    if case.stdout is not None:
        parts.append(f"prints {case.stdout!r}")
    return "\n".join(parts)


def case_key(case: Case, entry: str | list[str]) -> dict:
    """Everything of a case a verdict depends on (all but its line), for the keys of verdicts kept in the cache."""
    return {
        "name": case.name,
        "hidden": case.hidden,
        "private": case.private,
        "run": run_spec(case, entry),
        "expect": expectation(case),
    }


def salt(ex: Exercise) -> str:
    """Per-exercise salt for hidden-case digests: stable across builds, and not guessable without the
    unpublished reference solution, so expected values cannot be precomputed by brute force per site."""
    return hashlib.sha256(f"{ex.track}/{ex.slug}\n{ex.solution_source}".encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Catalogue:
    """A challenge's known mistakes: `known` is [{"file": "wrong/x.py", "hint": ..., "cases": {case name:
    fingerprint}}], in exercise.yaml's order; `salt` makes the digests."""

    salt: str
    known: list[dict]
