"""grader/results.py: what each reader may see of a verdict, and the bounds of a written one, on generated results."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.results import (
    CASE_CHARS,
    PRIVATE_NOTE,
    SUBMISSION_CHARS,
    CaseResult,
    RunResult,
    Status,
    failed_submission,
    format_seconds,
    learner_view,
    size,
    timeout_message,
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=10), inner, max_size=8),
    max_leaves=40,
)
# Texts and values as large as the interpreter lets through (output 20,000 characters, a value up to 1,000,000).
big_texts = st.one_of(st.text(max_size=200), st.integers(0, 1_200_000).map(lambda n: "x\u00e9\n"[n % 3] * n))
big_values = st.one_of(json_values, st.integers(0, 300_000).map(lambda n: ["abc"] * n))
events = st.fixed_dictionaries({"kind": st.sampled_from(["model", "tool", "parse"]), "text": big_texts})

cases = st.builds(
    CaseResult,
    name=st.text(min_size=1, max_size=40),
    status=st.sampled_from(list(Status)),
    message=big_texts,
    output=big_texts,
    hidden=st.booleans(),
    private=st.booleans(),
    trace=st.lists(events, max_size=30),
    expected=big_values,
    actual=big_values,
    actual_json=st.none() | big_values.map(json.dumps),
)


def written_size(doc: dict) -> int:
    return size(doc)


@settings(max_examples=30, deadline=None)
@given(tests=st.lists(cases, min_size=1, max_size=20), details=st.booleans(), hidden_actual=st.booleans())
def test_a_written_result_stays_within_its_bounds_and_says_what_it_cut(tests, details, hidden_actual):
    doc = RunResult("fail", None, tests).to_dict(private_details=details, hidden_actual=hidden_actual)
    assert written_size(doc) <= SUBMISSION_CHARS + 1_000 * len(tests)
    room = min(CASE_CHARS, SUBMISSION_CHARS // len(tests))
    for case, written in zip(tests, doc["tests"], strict=True):
        assert size(written) <= room + 1_000
        whole = case.to_dict(private_details=details, hidden_actual=hidden_actual, room=10**9)
        cut = set(written.get("truncated", []))
        for part in ("message", "output", "trace", "expected", "actual"):
            if part in whole and part not in cut:
                assert written[part] == whole[part], part


@settings(max_examples=30, deadline=None)
@given(case=cases, details=st.booleans(), hidden_actual=st.booleans())
def test_a_private_case_shows_its_name_and_status_only_unless_the_instructor_asks(case, details, hidden_actual):
    written = case.to_dict(private_details=details, hidden_actual=hidden_actual)
    shown = learner_view(written)
    if case.private:
        assert shown == {
            "name": case.name,
            "status": case.status.value,
            "message": PRIVATE_NOTE,
            "output": "",
            "hidden": True,
            "private": True,
            "trace": [],
        }
        if not details:
            assert written == shown
    elif case.hidden:
        assert "expected" not in written and "expected" not in shown and "actual" not in shown
        assert ("actual" in written) == (hidden_actual and case.actual_json is not None)
    else:
        assert shown == written and "expected" in written and "actual" in written


def test_a_submission_that_could_not_be_run_is_an_error_in_every_case():
    cases = [
        SimpleNamespace(name=n, hidden=h, private=p)
        for n, h, p in [("a", False, False), ("h", True, False), ("b", True, True)]
    ]
    result = failed_submission(cases, "a.py: a link; only regular files are read")
    doc = result.to_dict()
    assert doc["status"] == "error" and doc["message"] == "a.py: a link; only regular files are read"
    assert [(t["name"], t["status"], t["message"], t["hidden"]) for t in doc["tests"]] == [
        ("a", "error", "a.py: a link; only regular files are read", False),
        ("h", "error", "a.py: a link; only regular files are read", True),  # written as the hidden case it is
        ("b", "error", PRIVATE_NOTE, True),
    ]
    assert "expected" not in doc["tests"][1]


def test_time_limits_read_the_same_everywhere():
    assert [format_seconds(s) for s in (3, 3.0, 0.5, 1.25, 10, 120, 0.001)] == [
        "3",
        "3",
        "0.5",
        "1.25",
        "10",
        "120",
        "0.001",
    ]
    assert timeout_message(1.0) == "Stopped after 1 s, the time limit for one case. Look for a loop that never ends."


@settings(max_examples=40, deadline=None)
@given(
    tests=st.lists(cases, min_size=1, max_size=12),
    status=st.sampled_from([Status.PASS, Status.FAIL, Status.ERROR]),
    message=st.none() | big_texts,
    details=st.booleans(),
    hidden_actual=st.booleans(),
)
def test_a_written_result_reads_back_as_the_result_it_was(tests, status, message, details, hidden_actual):
    # from_dict is to_dict's one inverse: every reader (the class's store, merge, the report) reads verdicts so.
    doc = RunResult(status, message, tests).to_dict(private_details=details, hidden_actual=hidden_actual)
    back = RunResult.from_dict(json.loads(json.dumps(doc)))
    assert back.to_dict(private_details=details, hidden_actual=hidden_actual) == doc
    assert back.passed_count == sum(t["status"] == "pass" for t in doc["tests"]) and back.total == len(tests)
    assert back.status is status and back.timed_out == any(t["status"] == "timeout" for t in doc["tests"])


def test_a_result_of_another_version_is_not_read():
    doc = RunResult(Status.PASS, None, []).to_dict()
    with pytest.raises(ValueError, match="version 2, not 3"):
        RunResult.from_dict({**doc, "version": 2})
