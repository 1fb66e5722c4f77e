"""Properties of the comparison, canonical JSON, digests and the YAML loader, over generated values."""

from __future__ import annotations

import io
import json
import math
import random
import shutil

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from grader.canonical import NotJSONError, canonical_json, digest, from_tagged
from grader.results import HIDDEN_FAIL, Status
from loopcraft.course.errors import LoopcraftError
from loopcraft.course.load import load_course
from loopcraft.running.judging import judge
from tests.helpers import FIXTURES

# Quick enough for every `make test`; deadline None because the first examples pay for imports and caches.
quick = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=16,
)
# What the judge compares: values as they come back from canonical JSON.
judged_values = json_values.map(lambda v: json.loads(canonical_json(v)))


def at(value, steps):
    for step in steps:
        value = value[step]
    return value


def replaced(value, steps, new):
    if not steps:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[steps[0]] = replaced(value[steps[0]], steps[1:], new)
    return copy


@st.composite
def single_changes(draw):
    """(expected, actual, steps): actual is expected with one change at the container or value `steps` leads to."""
    expected = draw(judged_values)
    steps = []
    node = expected
    while isinstance(node, (dict, list)) and node and draw(st.booleans()):
        step = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
        steps.append(step)
        node = node[step]
    kind = draw(st.sampled_from(["replace", "remove", "add"]))
    if kind == "remove" and isinstance(node, (dict, list)) and node:
        smaller = dict(node) if isinstance(node, dict) else list(node)
        del smaller[draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))]
        new = smaller
    elif kind == "add" and isinstance(node, dict):
        key = draw(st.text(max_size=6).filter(lambda k: k not in node))
        new = {**node, key: draw(judged_values)}
    elif kind == "add" and isinstance(node, list):
        new = [*node, draw(judged_values)]
    else:
        new = draw(judged_values)
    actual = json.loads(canonical_json(replaced(expected, steps, new)))
    assume(canonical_json(actual) != canonical_json(expected))
    return expected, actual, steps


def judged(expected, actual, hidden=False):
    """The one judge's verdict (frontend/src/judge.js) of a case expecting `expected` that returned `actual`: a
    visible case in full, a hidden one by the digest the page has (docs/architecture.md, "Verdicts")."""
    text = canonical_json(expected)
    expect = {"expected": text, "expected_shown": repr(expected)}
    if hidden:
        expect = {"salt": "5a1t", "digest": digest("5a1t", f'{{"value":{text}}}'), "checks": ["value"]}
    case = {"name": "c", "hidden": hidden, "private": False, "call_twice": False, "expect": expect, "call_shown": "f()"}
    outcome = {"kind": "value", "value": canonical_json(actual), "shown": repr(actual), "output": "", "trace": []}
    (result,) = judge([case], [outcome], time_limit=3).tests
    return result


# --- The comparison: the one judge on values Python wrote ----------------------------------------------


@quick
@given(judged_values, st.booleans())
def test_equal_values_pass(value, hidden):
    result = judged(value, value, hidden)
    assert (result.status, result.message) == (Status.PASS, "")


@quick
@given(single_changes())
def test_any_single_change_fails_and_says_where_or_what(change):
    expected, actual, steps = change
    result = judged(expected, actual)
    assert result.status is Status.FAIL
    assert result.message.startswith(("Differs from expected at: ", "Expected ", "Returned a different value."))
    assert (judged(expected, actual, hidden=True).status, judged(expected, actual, hidden=True).message) == (
        Status.FAIL,
        HIDDEN_FAIL,
    )


@quick
@given(judged_values, judged_values)
def test_a_value_passes_exactly_when_the_canonical_forms_are_equal(a, b):
    assert judged(a, b).passed == (canonical_json(a) == canonical_json(b))


# --- Canonical JSON ------------------------------------------------------------------------------------


def shuffled(value, rng: random.Random):
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {key: shuffled(item, rng) for key, item in items}
    if isinstance(value, list):
        return [shuffled(item, rng) for item in value]
    return value


@quick
@given(json_values, st.randoms(use_true_random=False))
def test_canonical_json_ignores_dict_order(value, rng):
    assert canonical_json(shuffled(value, rng)) == canonical_json(value)


@quick
@given(json_values)
def test_canonical_json_round_trips_and_is_ascii(value):
    text = canonical_json(value)
    assert text.isascii()
    assert from_tagged(json.loads(text)) == value  # integral floats come back as ints, which compare equal
    assert canonical_json(from_tagged(json.loads(text))) == text


@quick
@given(st.integers(-(2**53) + 1, 2**53 - 1) | st.integers().map(lambda n: int(float(n))))
def test_integral_floats_equal_ints_at_any_size(n):
    assert canonical_json(float(n)) == canonical_json(n) == str(n)
    assert canonical_json({"x": [float(n)]}) == canonical_json({"x": [n]})


@quick
@given(st.lists(st.integers() | st.text(max_size=3), max_size=6), st.randoms(use_true_random=False))
def test_a_set_and_a_dict_of_any_keys_are_written_whatever_their_order(items, rng):
    shuffled_items = list(items)
    rng.shuffle(shuffled_items)
    assert canonical_json(set(items)) == canonical_json(frozenset(shuffled_items))
    as_dict = {item: i for i, item in enumerate(dict.fromkeys(items))}
    assert canonical_json(as_dict) == canonical_json(dict(sorted(as_dict.items(), key=repr, reverse=True)))
    assert from_tagged(json.loads(canonical_json(as_dict))) == as_dict


@quick
@given(st.lists(json_values, max_size=4))
def test_tuples_are_lists(items):
    assert canonical_json(tuple(items)) == canonical_json(items)


not_json = st.sampled_from([math.nan, math.inf, -math.inf]) | st.builds(object) | st.builds(bytes)


@quick
@given(judged_values, not_json, st.data())
def test_non_json_anywhere_is_rejected_with_not_json_error(value, bad, data):
    # Put the bad value in place of any part of a JSON value, the whole of it included.
    steps = []
    node = value
    while isinstance(node, (dict, list)) and node and data.draw(st.booleans()):
        step = data.draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
        steps.append(step)
        node = node[step]
    with pytest.raises(NotJSONError):
        canonical_json(replaced(value, steps, bad))


def test_a_circular_value_is_rejected_with_not_json_error():
    loop: list = []
    loop.append(loop)
    with pytest.raises(NotJSONError, match="contains itself"):
        canonical_json(loop)


# --- Digests ---------------------------------------------------------------------------------------------


@quick
@given(json_values, json_values, st.text(max_size=8))
def test_digests_are_equal_exactly_when_the_values_are(x, y, salt):
    same = canonical_json(x) == canonical_json(y)
    assert (digest(salt, canonical_json(x)) == digest(salt, canonical_json(y))) == same


@quick
@given(json_values, st.text(max_size=8), st.text(max_size=8))
def test_digests_change_with_the_salt(x, salt, other):
    assume(salt != other)
    assert digest(salt, canonical_json(x)) != digest(other, canonical_json(x))


# --- The YAML loader on random input ----------------------------------------------------------------------

EXERCISE_YAML = "exercises/basics/add/exercise.yaml"
VALID_TEXT = (FIXTURES / "valid" / EXERCISE_YAML).read_text(encoding="utf-8")
FIELDS = [
    "title",
    "summary",
    "difficulty",
    "minutes",
    "entry",
    "signature",
    "time_limit_seconds",
    "sandbox",
    "task",
    "constraints",
    "hints",
    "wrong_solutions",
    "cases",
    "args",
    "expected",
    "hidden",
    "file",
    "mistake",
    "name",
]


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A copy of the valid fixture course whose exercise.yaml each example rewrites."""
    root = tmp_path_factory.mktemp("course")
    shutil.copytree(FIXTURES / "valid" / "exercises", root / "exercises")
    return root


def check_loading(root, text: str) -> None:
    (root / EXERCISE_YAML).write_text(text, encoding="utf-8")
    try:
        load_course(root)
    except LoopcraftError as exc:  # ExerciseError is one
        for problem in getattr(exc, "problems", []):
            assert problem.path.as_posix() not in ("", "."), problem
            assert problem.line >= 1, problem


@quick
@given(st.text(max_size=300))
def test_loading_random_text_reports_problems_with_a_path_and_a_line(course, text):
    check_loading(course, text)


@quick
@given(st.integers(0, len(VALID_TEXT)), st.integers(0, 40), st.text(max_size=40))
def test_loading_a_damaged_valid_file_reports_problems_with_a_path_and_a_line(course, start, length, insert):
    check_loading(course, VALID_TEXT[:start] + insert + VALID_TEXT[start + length :])


yaml_values = st.recursive(
    scalars | st.dates() | st.datetimes(),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6) | st.integers(-3, 3), inner, max_size=4)
    ),
    max_leaves=10,
)


@quick
@given(st.dictionaries(st.sampled_from(FIELDS), yaml_values, max_size=5), st.booleans())
@example(fields={"wrong_solutions": 1}, on_valid=True)  # crashed the loader with a TypeError
def test_loading_random_structures_reports_problems_with_a_path_and_a_line(course, fields, on_valid):
    # On top of the valid exercise, random fields reach past the schema into cases, paths and files.
    data = YAML(typ="safe").load(VALID_TEXT) if on_valid else {}
    data.update(fields)
    out = io.StringIO()
    YAML(typ="safe").dump(data, out)
    check_loading(course, out.getvalue())
