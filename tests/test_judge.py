"""Verdict rules, shared with the page's judge.js through tests/golden/judge_vectors.json."""

from __future__ import annotations

import json

import pytest

from grader.canonical import canonical_json, digest
from grader.judge import judge_case, judge_run
from grader.results import PRIVATE_NOTE, error_outcome, timeout_outcome, value_outcome
from tests.helpers import ROOT, check_golden

VECTORS = ROOT / "tests" / "golden" / "judge_vectors.json"
SALT = "5a1t"


def visible(name, expected):
    return {"name": name, "hidden": False, "expected": expected, "expected_json": canonical_json(expected)}


def hidden(name, expected):
    return {"name": name, "hidden": True, "salt": SALT, "digest": digest(SALT, canonical_json(expected))}


def value(v, output=""):
    return value_outcome(canonical_json(v), output)


def twice(case):
    return {**case, "call_twice": True}


def called_twice(first, second, output=""):
    """What a case that calls the entry twice hands back: both calls' values."""
    return value_outcome(canonical_json(first), output, again=canonical_json(second))


AGENT = {"answer": "done", "steps": 6, "tools_called": ["add"], "errors": 4, "stop_reason": "final_answer"}

INPUTS = [
    ("equal dicts pass", visible("a", AGENT), value(dict(AGENT), "printed\n")),
    ("integral float equals int", visible("a", {"x": 3}), value({"x": 3.0})),
    ("a wrong key value is named", visible("a", AGENT), value({**AGENT, "errors": 3})),
    (
        "missing and unexpected keys",
        visible("a", AGENT),
        value({k: v for k, v in AGENT.items() if k != "errors"} | {"error": 4}),
    ),
    (
        "nested list item",
        visible("a", {"tools_called": ["add", "search_web"]}),
        value({"tools_called": ["add", "add"]}),
    ),
    ("list length differs", visible("a", {"tools_called": ["add"]}), value({"tools_called": []})),
    ("odd keys are quoted", visible("a", {"a b": 1, "ok": {"x-y": 2}}), value({"a b": 2, "ok": {"x-y": 3}})),
    ("root type differs", visible("a", AGENT), value(["answer"])),
    ("None against dict", visible("a", AGENT), value(None)),
    ("bool is not int", visible("a", {"n": 1}), value({"n": True})),
    ("int against float", visible("a", {"n": 1}), value({"n": 1.5})),
    ("scalar root differs", visible("a", "yes"), value("no")),
    ("root list length", visible("a", [1, 2, 3]), value([1, 2])),
    ("non-ascii strings", visible("a", {"é": "ü"}), value({"é": "ü"})),
    ("hidden pass", hidden("h", AGENT), value(dict(AGENT))),
    ("hidden fail says nothing of the value", hidden("h", AGENT), value({**AGENT, "steps": 5})),
    (
        "error keeps its message and output",
        visible("a", AGENT),
        {"kind": "error", "phase": "call", "error": "ValueError: boom", "output": "x"},
    ),
    ("timeout", visible("a", AGENT), timeout_outcome()),
    ("hidden timeout", hidden("h", AGENT), timeout_outcome("printed before the loop")),
    # Outcomes made outside the interpreter, by the driver and the runners, through grader/results.py's constructors.
    (
        "the interpreter crashed",
        visible("a", AGENT),
        error_outcome("Python crashed while running your code: x", "grader"),
    ),
    (
        "a result the grader could not read",
        hidden("h", AGENT),
        error_outcome("This case could not be graded.", "grader"),
    ),
    ("a value outcome with a trace", visible("a", 1), value_outcome("1", "", [{"kind": "note", "text": "hi"}])),
    # Cases that call the entry twice (`call_twice`): the second call must return what the first did.
    ("called twice, the same both times", twice(visible("a", AGENT)), called_twice(AGENT, dict(AGENT))),
    (
        "called twice, the second call differs: shown as the result, with where",
        twice(visible("a", AGENT)),
        called_twice(AGENT, {**AGENT, "tools_called": ["add", "add"]}),
    ),
    (
        "called twice, the second call returns another type",
        twice(visible("a", {"tools_called": ["add"]})),
        called_twice({"tools_called": ["add"]}, None),
    ),
    (
        "called twice, a first call already wrong is told as one",
        twice(visible("a", AGENT)),
        called_twice({**AGENT, "errors": 3}, {**AGENT, "errors": 5}),
    ),
    ("hidden, called twice, the same both times", twice(hidden("h", AGENT)), called_twice(AGENT, dict(AGENT))),
    (
        "hidden, called twice, the second call differs: no value, no path",
        twice(hidden("h", AGENT)),
        called_twice(AGENT, {**AGENT, "steps": 7}),
    ),
    (
        "hidden, called twice, a first call already wrong says only that",
        twice(hidden("h", AGENT)),
        called_twice({**AGENT, "steps": 5}, {**AGENT, "steps": 7}),
    ),
    (
        "a case that calls twice, judged on an outcome of one call: an error, never a pass",
        twice(visible("a", AGENT)),
        value(dict(AGENT)),
    ),
    (
        "the second call raised: an error as any other",
        twice(hidden("h", AGENT)),
        error_outcome(
            "Called a second time with the same arguments (this case calls f() twice), it failed:\nboom", "call"
        ),
    ),
]
# Time limits as authors write them: whole seconds, halves, milliseconds, minutes (the timeout message names it).
LIMITS = [2.5, 1, 0.5, 10, 0.001, 1.25, 120, 3.0]

# Whole runs: the cases judged, then summarised as a run (its status and message). `ended`: why a run ended before
# its last case (the page's Stop, or its first case out of time); its outcomes are then those of the cases that ran.
RUNS = [
    ("every case passes", [visible("a", 1), hidden("h", 2)], [value(1), value(2)], None),
    ("one case fails", [visible("a", 1), visible("b", 2)], [value(1), value(3)], None),
    (
        "the code cannot load: the run is an error with its message",
        [visible("a", 1), hidden("h", 2)],
        [error_outcome("SyntaxError: x", "load"), error_outcome("SyntaxError: x", "load")],
        None,
    ),
    (
        "an error when called fails the run",
        [visible("a", 1), visible("b", 2)],
        [error_outcome("ValueError: boom", "call"), value(2)],
        None,
    ),
    ("a timeout fails the run", [visible("a", 1), hidden("h", 2)], [value(1), timeout_outcome()], None),
    (
        "a crash fails the run",
        [visible("a", 1)],
        [error_outcome("Python crashed while running your code: x", "grader")],
        None,
    ),
    (
        "code that cannot load ends the run at its first case: an error",
        [visible("a", 1), visible("b", 2), hidden("h", 3)],
        [error_outcome("SyntaxError: x", "load")],
        None,
    ),
    (
        "stopped mid-run: a fail however the cases that ran went, saying how many did not run",
        [visible("a", 1), visible("b", 2), hidden("h", 3)],
        [value(1)],
        "stopped",
    ),
    ("stopped before any case ran", [visible("a", 1), hidden("h", 2)], [], "stopped"),
    (
        "the first case out of time ends the run",
        [visible("a", 1), visible("b", 2), hidden("h", 3), visible("c", 4)],
        [value(1), timeout_outcome("printed before the loop")],
        "timeout",
    ),
    (
        "stopped once every case had run: judged as a whole run",
        [visible("a", 1), visible("b", 2)],
        [value(1), value(2)],
        "stopped",
    ),
    (
        "out of time at the last case: nothing left unrun, a plain fail",
        [visible("a", 1), visible("b", 2)],
        [value(1), timeout_outcome()],
        "timeout",
    ),
    (
        "a case whose second call differs fails the run",
        [visible("a", 1), twice(hidden("h", [2]))],
        [value(1), called_twice([2], [2, 2])],
        None,
    ),
    (
        "code that cannot load is the run's verdict, a stop or not",
        [visible("a", 1), visible("b", 2)],
        [error_outcome("SyntaxError: x", "load")],
        "stopped",
    ),
]


def build_vectors() -> dict:
    judged = [(title, case, outcome, 2.5) for title, case, outcome in INPUTS]
    judged += [(f"a timeout at {limit} s", visible("a", 1), timeout_outcome(), limit) for limit in LIMITS]
    cases = [
        {
            "title": title,
            "case": case,
            "outcome": outcome,
            "time_limit": limit,
            "result": judge_case(case, outcome, limit).to_dict(),
        }
        for title, case, outcome, limit in judged
    ]
    runs = [
        {
            "title": title,
            "cases": run_cases,
            "outcomes": outcomes,
            "time_limit": 1.5,
            "ended": ended,
            "result": judge_run(run_cases, outcomes, 1.5, ended=ended).to_dict(),
        }
        for title, run_cases, outcomes, ended in RUNS
    ]
    return {"cases": cases, "runs": runs}


def test_judge_vectors_match_golden_file():
    check_golden(VECTORS, json.dumps(build_vectors(), indent=1, ensure_ascii=False) + "\n")


@pytest.mark.parametrize("title,case,outcome", INPUTS, ids=[t for t, _, _ in INPUTS])
def test_visible_result_carries_expected_and_actual_hidden_does_not(title, case, outcome):
    result = judge_case(case, outcome, 2.5).to_dict()
    assert ("expected" in result) == (not case["hidden"])
    if case["hidden"]:
        assert "actual" not in result and case.get("expected") is None


def test_a_wrong_value_names_the_key_that_differs():
    result = judge_case(visible("a", AGENT), value({**AGENT, "errors": 3}), 2)
    assert result.status.value == "fail"
    assert result.message == "Differs from expected at: errors."


def test_run_status_is_error_when_the_code_cannot_load():
    outcome = {"kind": "error", "phase": "load", "error": "SyntaxError: x", "output": ""}
    run = judge_run([{"name": "a", "hidden": False, "expected_json": "1"}], [outcome], 2)
    assert (run.status, run.message) == ("error", "SyntaxError: x")


def test_run_passes_only_when_every_case_passes():
    cases = [{"name": n, "hidden": False, "expected_json": "1"} for n in "ab"]
    assert judge_run(cases, [value(1), value(1)], 2).status == "pass"
    assert judge_run(cases, [value(1), value(2)], 2).status == "fail"


def test_a_load_error_in_a_private_case_only_is_not_the_runs_message():
    # Code can raise at load in the private cases only, with their arguments in its message: the run's message is
    # shown wherever the run is, so it never comes from a private case (which shows its name and status only).
    cases = [visible("a", 1), {"name": "p", "hidden": True, "private": True, "expected_json": "2"}]
    leak = error_outcome("RuntimeError: the private arguments", "load")
    run = judge_run(cases, [value(1), leak], 2)
    assert (run.status, run.message) == ("fail", None)
    assert run.to_dict()["tests"][1]["message"] == PRIVATE_NOTE
    both = judge_run(cases, [error_outcome("SyntaxError: x", "load"), leak], 2)
    assert (both.status, both.message) == ("error", "SyntaxError: x")


@pytest.mark.parametrize("ended", [None, "finished", "toString"])
def test_a_run_short_of_cases_must_say_why_it_ended(ended):
    # Cases left unrun for no known reason are a runner's bug, never a verdict.
    with pytest.raises(ValueError, match="1 of 2 cases not run"):
        judge_run([visible("a", 1), visible("b", 2)], [value(1)], 2, ended=ended)
