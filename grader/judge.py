"""Turn outcomes into verdicts. Runs outside the learner's interpreter (the CLI's own CPython).

frontend/src/judge.js applies the same rules in the page; tests/golden/judge_vectors.json holds the
cases both must agree on.
"""

from __future__ import annotations

import json
import re

from .canonical import digest
from .results import HIDDEN_FAIL, CaseResult, RunResult, Status, timeout_message

# A case that calls the entry twice (`call_twice`): the second call returned something else than the first. A hidden
# case says so without a value or a path: the first call returned the expected value, so either would show it.
AGAIN_FAIL = "Called a second time with the same arguments, it returned something else (shown as your result): "
HIDDEN_AGAIN_FAIL = "Hidden case: called a second time with the same arguments, your result differs from the first."
# The case asks for two calls and the outcome holds one: a runner that does not pass `call_twice` on.
NOT_CALLED_TWICE = "This case calls the function twice, but the grader called it once: it has no verdict."

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def type_phrase(value) -> str:
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "a bool"
    if isinstance(value, int):
        return "an int"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "a dict"


def _join(path: str, key) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    if _IDENTIFIER.match(key):
        return f"{path}.{key}" if path else key
    return f"{path}['{key}']"


def differences(expected, actual, path: str = "") -> list[str]:
    """Paths where `actual` differs from `expected`, labelled for the learner."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        found = []
        for key in sorted(set(expected) | set(actual)):
            where = _join(path, key)
            if key not in actual:
                found.append(f"{where} (missing)")
            elif key not in expected:
                found.append(f"{where} (unexpected)")
            else:
                found.extend(differences(expected[key], actual[key], where))
        return found
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        found = []
        for index, (e, a) in enumerate(zip(expected, actual, strict=True)):
            found.extend(differences(e, a, _join(path, index)))
        return found
    same = type_phrase(expected) == type_phrase(actual) and expected == actual
    return [] if same else [path]


def fail_message(expected, actual) -> str:
    if type_phrase(expected) != type_phrase(actual):
        return f"Expected {type_phrase(expected)}, got {type_phrase(actual)}."
    paths = differences(expected, actual)
    if paths == [""] and isinstance(expected, list):
        return f"Expected a list of {len(expected)} items, got {len(actual)}."
    if paths and paths != [""]:
        return "Differs from expected at: " + ", ".join(paths) + "."
    return "Returned a different value."


def judge_case(case: dict, outcome: dict, time_limit: float) -> CaseResult:
    """`case`: name, hidden, private, call_twice, and expected_json (canonical) or digest+salt. A visible case with
    neither (a case whose expected value `build.py record` is about to fill in) passes on any value, which it
    reports. A case that calls twice passes only if the second call (the outcome's `again`) returned the first's."""
    hidden = bool(case.get("hidden"))
    expected_json = case.get("expected_json")
    result = CaseResult(
        name=case["name"],
        status=Status.PASS,
        output=outcome.get("output", ""),
        hidden=hidden,
        private=bool(case.get("private")),
        trace=outcome.get("trace", []),
    )
    if not hidden and expected_json is not None:
        result.expected = json.loads(expected_json)
    if outcome["kind"] == "value":
        result.actual_json = outcome["value"]
    kind = outcome["kind"]
    again = outcome.get("again") if kind == "value" else None
    if kind == "timeout":
        result.status, result.message = Status.TIMEOUT, timeout_message(time_limit)
    elif kind == "error":
        result.status, result.message = Status.ERROR, outcome["error"]
    elif case.get("call_twice") and again is None:
        result.status, result.message = Status.ERROR, NOT_CALLED_TWICE
    elif hidden:
        # The page only has a salted digest of a hidden expected value; the CLI has the value itself.
        if expected_json is not None:
            same = outcome["value"] == expected_json
        else:
            same = digest(case["salt"], outcome["value"]) == case["digest"]
        if not same:
            result.status, result.message = Status.FAIL, HIDDEN_FAIL
    else:
        result.actual = json.loads(outcome["value"])
        if expected_json is not None and outcome["value"] != expected_json:
            result.status, result.message = Status.FAIL, fail_message(result.expected, result.actual)
    if result.passed and again is not None and again != outcome["value"]:
        # Shown as a failed case is, with the second call's value as the actual one (the first's is the expected).
        result.status, result.actual_json = Status.FAIL, again
        if hidden:
            result.message = HIDDEN_AGAIN_FAIL
        else:
            result.actual = json.loads(again)
            result.message = AGAIN_FAIL + fail_message(json.loads(outcome["value"]), result.actual)
    return result


# Why a run ended before its last case, and what its verdict says of it: a run stopped by the learner, or at its
# first case that ran out of time (the page's rule: a loop then costs one time limit, not one a case).
EARLY_END = {
    "stopped": "The run was stopped: {} not run.",
    "timeout": "The run ended at a case that ran out of time: {} not run.",
}


def summarize(
    tests: list[CaseResult], outcomes: list[dict], *, total: int | None = None, ended: str | None = None
) -> RunResult:
    """The verdict of a run: `tests`, the verdicts of the cases that ran, in order, and their `outcomes`; `total`,
    the cases the run had (all of them ran when None); `ended`, why it ended before the rest ran ("stopped" or
    "timeout"). frontend/src/judge.js's summarize, rule for rule."""
    # The run's message is shown wherever the run is (a feedback page, --json, Gradescope's output): never one from a
    # private case, whose error may hold its inputs (code that raises only there, with its arguments, at load).
    load_errors = [
        o["error"]
        for t, o in zip(tests, outcomes, strict=True)
        if o["kind"] == "error" and o.get("phase") == "load" and not t.private
    ]
    if load_errors:
        return RunResult(status=Status.ERROR, message=load_errors[0], tests=tests)
    not_run = (len(tests) if total is None else total) - len(tests)
    if not_run > 0:
        # Not a pass, whatever the cases that ran say: some were never checked.
        if ended not in EARLY_END:
            raise ValueError(f"{not_run} of {total} cases not run, and no reason why (ended: {ended!r})")
        return RunResult(status=Status.FAIL, message=EARLY_END[ended].format(not_run), tests=tests)
    return RunResult(status=Status.PASS if all(t.passed for t in tests) else Status.FAIL, tests=tests)


def judge_run(cases: list[dict], outcomes: list[dict], time_limit: float, *, ended: str | None = None) -> RunResult:
    """`outcomes`: those of the cases that ran, in order; fewer than `cases` only when the run ended early (`ended`
    says why, see summarize) or at code that cannot be loaded."""
    ran = cases[: len(outcomes)]
    tests = [judge_case(case, outcome, time_limit) for case, outcome in zip(ran, outcomes, strict=True)]
    return summarize(tests, outcomes, total=len(cases), ended=ended)
