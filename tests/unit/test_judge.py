"""What Python does with the one judge's verdicts (frontend/src/judge.js, held to its rules by tests/js/judge.test.mjs):
it reads the results document the judge writes (RunResult.from_dict), typed, and writes each reader's view of it
(to_dict, learner_view). The vectors' verdicts (tests/golden/judge_vectors.json) are read here as the host reads a
runner's reply; whole runs go through the judge itself (loopcraft/running/judging.py)."""

from __future__ import annotations

import json

import pytest

from grader.results import PRIVATE_NOTE, SHOWN, CaseResult, RunResult, Status, error_outcome, learner_view
from loopcraft.running.judging import judge
from tests.helpers import ROOT

VECTORS = json.loads((ROOT / "tests" / "golden" / "judge_vectors.json").read_text(encoding="utf-8"))
CASES = VECTORS["cases"]


def case(name, expected, *, private=False):
    text = json.dumps(expected)
    expect = {"expected": text, "expected_shown": repr(expected)}
    return {
        "name": name,
        "hidden": private,
        "private": private,
        "call_twice": False,
        "expect": expect,
        "call_shown": "",
    }


def value(text):
    return {"kind": "value", "value": text, "shown": text, "output": "", "trace": []}


@pytest.mark.parametrize("vector", CASES, ids=[v["title"] for v in CASES])
def test_a_verdict_the_judge_wrote_reads_back_as_it_was_written(vector):
    written = vector["result"]
    assert CaseResult.from_dict(written).to_dict(private_details=True, hidden_actual=True) == written


@pytest.mark.parametrize("vector", CASES, ids=[v["title"] for v in CASES])
def test_a_hidden_case_shows_no_value_and_a_private_one_its_name_and_status_only(vector):
    result = CaseResult.from_dict(vector["result"])
    public = result.to_dict()
    assert not {"expected", "actual"} & set(public) if result.hidden else "expected" in public
    if result.private:
        assert public["message"] == PRIVATE_NOTE and set(public) == {
            "name",
            "status",
            "message",
            "output",
            "hidden",
            "private",
            "trace",
        }
    if result.hidden:
        assert not set(SHOWN) & set(learner_view(result.to_dict(hidden_actual=True)))


def test_a_visible_case_carries_its_call_and_both_values_as_python_writes_them():
    (vector,) = [v for v in CASES if v["title"] == "raises: the message must be the same"]
    shown = CaseResult.from_dict(vector["result"]).to_dict()
    assert shown["call_shown"] == "f()"
    assert shown["expected_shown"] == "ValueError: square must be between 1 and 64"
    assert shown["actual_shown"] == "ValueError: square must be between 1 and 63"


def test_a_load_error_in_a_private_case_only_is_not_the_runs_message():
    # Code can raise at load in the private cases only, with their arguments in its message: the run's message is
    # shown wherever the run is, so it never comes from a private case (which shows its name and status only).
    cases = [case("a", 1), case("p", 2, private=True)]
    leak = error_outcome("RuntimeError: the private arguments", "load")
    run = judge(cases, [value("1"), leak], time_limit=2)
    assert (run.status, run.message) == (Status.FAIL, None)
    assert run.to_dict()["tests"][1]["message"] == PRIVATE_NOTE
    both = judge(cases, [error_outcome("SyntaxError: x", "load"), leak], time_limit=2)
    assert (both.status, both.message) == (Status.ERROR, "SyntaxError: x")


def test_a_run_passes_only_when_every_case_passes():
    cases = [case(n, 1) for n in "ab"]
    assert judge(cases, [value("1"), value("1")], time_limit=2).passed
    assert judge(cases, [value("1"), value("2")], time_limit=2).status is Status.FAIL


def test_a_runs_known_mistakes_are_read_back_and_written_only_where_there_are_some():
    document = RunResult(
        Status.FAIL, None, [CaseResult("a", Status.FAIL, mistake="Adds one.")], ["Adds one."]
    ).to_dict()
    assert (document["mistakes"], document["tests"][0]["mistake"]) == (["Adds one."], "Adds one.")
    assert RunResult.from_dict(document).mistakes == ["Adds one."]
    assert "mistakes" not in RunResult(Status.PASS, None, [CaseResult("a", Status.PASS)]).to_dict()
