"""The page's judge says what the CLI's says: on generated values, frontend/src/judge.js gives grader/judge.py's
fail message, and frontend/src/pyvalue.js gives Python's own repr (the build writes the examples with it).

The values lean on where JavaScript and Python part ways: ints beyond 2**53, floats such as 1e300 and 1e16,
keys like "toString", "__proto__" and "10", keys outside the Basic Multilingual Plane, unprintable text.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.canonical import canonical_json
from grader.judge import fail_message
from loopcraft.render import py_repr
from tests.helpers import ROOT

# Characters both Unicode databases agree on: the host Python's (assigned there) and Node's (newer) alike.
text = st.text(st.characters(codec="utf-8", exclude_categories=["Cn", "Cs"]), max_size=6)
tricky_text = st.sampled_from(
    [
        "toString",
        "__proto__",
        "constructor",
        "hasOwnProperty",
        "10",
        "9",
        "a b",
        "\U0001f600",
        "\uffff",
        "\U00010000x",
        "it's",
        'say "hi"',
        "\x7f\u00a0\u2028",
    ]
)
keys = tricky_text | text
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.sampled_from([2**53, 2**53 + 1, -(2**63), 10**30])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1e300, 1e16, 1e15 + 0.5, 1e-5, 1.5e-7, 123.456, -0.1, 2.0**60])
    | tricky_text
    | text
)
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4), max_leaves=12
).map(lambda v: json.loads(canonical_json(v)))


@st.composite
def pairs(draw):
    """(expected, actual): unrelated, equal, or actual with one part of expected replaced."""
    expected = draw(values)
    kind = draw(st.sampled_from(["other", "same", "changed"]))
    if kind == "other":
        return expected, draw(values)
    if kind == "same" or not isinstance(expected, (dict, list)) or not expected:
        return expected, json.loads(canonical_json(expected))
    actual = json.loads(canonical_json(expected))
    where = draw(st.sampled_from(sorted(actual) if isinstance(actual, dict) else range(len(actual))))
    actual[where] = draw(values)
    return expected, actual


@pytest.fixture(scope="module")
def page_judge():
    proc = subprocess.Popen(
        ["node", "tests/js/agreement-server.mjs"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )

    def ask(expected_json: str, actual_json: str) -> dict:
        proc.stdin.write(json.dumps([expected_json, actual_json]) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    yield ask
    proc.stdin.close()
    proc.wait(timeout=10)


def python_says(expected, actual) -> dict:
    return {"message": fail_message(expected, actual), "expected": py_repr(expected), "actual": py_repr(actual)}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(pairs())
def test_the_page_and_the_cli_say_the_same_of_every_pair(page_judge, pair):
    expected, actual = pair
    # Equal values pass on both sides by comparing canonical strings; the message is asked of them all the same.
    assert page_judge(canonical_json(expected), canonical_json(actual)) == python_says(expected, actual)


@pytest.mark.parametrize(
    "expected, actual, message",
    [
        ({"toString": 1}, {}, "Differs from expected at: toString (missing)."),
        ({}, {"__proto__": 1}, "Differs from expected at: __proto__ (unexpected)."),
        (2**53 + 1, 2**53, "Returned a different value."),
        (1e300, 1, "Expected a float, got an int."),
        (
            {"\U0001f600": 1, "\uffff": 1},
            {"\U0001f600": 2, "\uffff": 2},
            "Differs from expected at: ['\uffff'], ['\U0001f600'].",
        ),
        ({"10": 1, "9": 1, "a": 1}, {"10": 2, "9": 2, "a": 2}, "Differs from expected at: ['10'], ['9'], a."),
    ],
)
def test_the_cases_where_the_judges_used_to_disagree(page_judge, expected, actual, message):
    assert python_says(expected, actual)["message"] == message
    assert page_judge(canonical_json(expected), canonical_json(actual))["message"] == message
