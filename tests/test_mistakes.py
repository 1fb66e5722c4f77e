"""Known mistakes (loopcraft/mistakes.py): the catalogue a challenge's wrong solutions make, what of it a page may
carry, and the matching rule, shared with the page's frontend/src/mistakes.js through tests/golden/mistake_vectors.json
(regenerate it after an intended change with LOOPCRAFT_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_mistakes.py,
and review the diff: tests/js/mistakes.test.mjs holds the page to it)."""

from __future__ import annotations

import dataclasses
import json
import shutil
from contextlib import closing
from pathlib import Path

import pytest

from grader.canonical import canonical_json, digest
from grader.judge import judge_run
from grader.results import RunResult, error_outcome, timeout_outcome, value_outcome
from loopcraft.cache import BuildCache
from loopcraft.load import find_exercise, load_course
from loopcraft.mistakes import KNOWN_MISTAKE, Catalogue, catalogue, match, matched, named_for, said, secrets
from loopcraft.project import Project
from loopcraft.render import challenge_context, challenge_inputs, page_mistakes, salt
from loopcraft.runners import make_runner
from loopcraft.verify import verdict
from tests.helpers import ROOT, check_golden, run_grader

VECTORS = ROOT / "tests" / "golden" / "mistake_vectors.json"
FIXTURES = Path(__file__).parent / "fixtures"
SALT = "5a1t"
AGENT = {"answer": "done", "steps": 6, "errors": 0}
LIMIT, DISPATCH = "consecutive-error-limit", "dispatch-registry"


# --- The shared vectors: one judged run in, the hints it names out, in both languages ---------------------------

CASES = [
    {"name": "a", "hidden": False, "expected_json": canonical_json(AGENT)},
    {"name": "b", "hidden": False, "expected_json": "1"},
    {"name": "h", "hidden": True, "salt": SALT, "digest": digest(SALT, canonical_json({"x": 1}))},
    {"name": "h2", "hidden": True, "salt": SALT, "digest": digest(SALT, "[1,2]")},
]
RIGHT = [value_outcome(canonical_json(AGENT)), value_outcome("1"), value_outcome('{"x":1}'), value_outcome("[1,2]")]
WRONG_AGENT = canonical_json({**AGENT, "errors": 3})


def seen(value) -> dict:
    return {"status": "fail", "value": canonical_json(value)}


def hidden(value) -> dict:
    return {"status": "fail", "digest": digest(SALT, canonical_json(value))}


KNOWN = [
    {"hint": "Adds one to b.", "cases": {"b": seen(2)}},
    {"hint": "Counts errors wrong.", "cases": {"a": seen({**AGENT, "errors": 3}), "h": hidden({"x": 2})}},
    {"hint": "Crashes on h2.", "cases": {"h2": {"status": "error"}}},
    {
        "hint": "Everything of the first two at once.",
        "cases": {"a": seen({**AGENT, "errors": 3}), "b": seen(2), "h": hidden({"x": 2})},
    },
    {"hint": "Loops on b.", "cases": {"b": {"status": "timeout"}}},
]


def run_with(**changed) -> list[dict]:
    """The right outcomes, but those named."""
    names = [c["name"] for c in CASES]
    outcomes = list(RIGHT)
    for name, outcome in changed.items():
        outcomes[names.index(name)] = outcome
    return outcomes


# (title, cases, outcomes, ended): a whole run, judged by each language's judge, then matched.
RUNS = [
    ("a correct run names none", CASES, RIGHT, None),
    (
        "a visible case's value names the mistake that returns it there, not one that also fails a case the run passed",
        CASES,
        run_with(b=value_outcome("2")),
        None,
    ),
    (
        "a hidden case's value is matched by its digest",
        CASES,
        run_with(a=value_outcome(WRONG_AGENT), h=value_outcome('{"x":2}')),
        None,
    ),
    ("another value on a shared case rules the mistake out", CASES, run_with(b=value_outcome("3")), None),
    (
        "a hidden value that differs names none",
        CASES,
        run_with(a=value_outcome(WRONG_AGENT), h=value_outcome('{"x":3}')),
        None,
    ),
    (
        "the mistake that reproduces more failed cases wins over those it contains",
        CASES,
        run_with(a=value_outcome(WRONG_AGENT), b=value_outcome("2"), h=value_outcome('{"x":2}')),
        None,
    ),
    ("an error matches an error", CASES, run_with(h2=error_outcome("KeyError: 'x'", "call")), None),
    (
        "two mistakes at once are both named, the larger first",
        CASES,
        run_with(a=value_outcome(WRONG_AGENT), h=value_outcome('{"x":2}'), h2=error_outcome("KeyError", "call")),
        None,
    ),
    (
        "code that cannot be loaded names none",
        CASES,
        [error_outcome("SyntaxError: bad", "load")] * len(CASES),
        None,
    ),
    (
        "an untouched starter, failing every case, names none of the mistakes it shares a case with",
        CASES,
        [error_outcome("NotImplementedError", "call")] * len(CASES),
        None,
    ),
    (
        "a failure no known mistake reproduces names none",
        CASES,
        run_with(b=value_outcome("2"), a=value_outcome("null")),
        None,
    ),
    ("a run that ended at a timeout is matched on the cases that ran", CASES, [RIGHT[0], timeout_outcome()], "timeout"),
    (
        "a case that calls twice is matched on what its second call returned",
        [{**CASES[0], "call_twice": True}, {**CASES[1], "call_twice": True}, *CASES[2:]],
        [
            value_outcome(canonical_json(AGENT), again=canonical_json(AGENT)),
            value_outcome("1", again="2"),
            *RIGHT[2:],
        ],
        None,
    ),
]

PASSED = {"status": "pass"}

# (title, ran, matched): the matcher alone, on fingerprints as each language makes them of the cases a run ran; None
# for a failed case whose value is not known (a private case as the class's store keeps it).
MATCHES = [
    ("nothing ran", {}, []),
    ("nothing failed", {"a": PASSED, "b": PASSED}, []),
    ("a value not known is not compared", {"b": None, "h": hidden({"x": 2})}, [1, 3]),
    ("nothing compared, nothing named", {"b": None}, []),
    ("a status that differs rules out", {"b": {"status": "error"}}, []),
    ("equal compared cases: both named, in the catalogue's order", {"b": seen(2)}, [0, 3]),
    ("a case the run passed rules out the mistakes that fail it", {"b": seen(2), "a": PASSED}, [0]),
    ("a failed case none of them reproduces names none", {"b": seen(2), "a": seen(None)}, []),
]


def build_vectors() -> dict:
    table = Catalogue(SALT, KNOWN)
    runs = []
    for title, cases, outcomes, ended in RUNS:
        result = judge_run(cases, outcomes, 1.5, ended=ended)
        secret = {c["name"]: c["hidden"] for c in cases}
        runs.append(
            {
                "title": title,
                "cases": cases,
                "outcomes": outcomes,
                "ended": ended,
                "hints": [m["hint"] for m in matched(table, result, secret)],
            }
        )
    matches = [
        {"title": title, "ran": ran, "hints": [KNOWN[i]["hint"] for i in expected]} for title, ran, expected in MATCHES
    ]
    return {"said": KNOWN_MISTAKE, "known": KNOWN, "runs": runs, "matches": matches}


def test_mistake_vectors_match_golden_file():
    check_golden(VECTORS, json.dumps(build_vectors(), indent=1, ensure_ascii=False) + "\n")


@pytest.mark.parametrize("title,ran,expected", MATCHES, ids=[t for t, _, _ in MATCHES])
def test_the_matcher_on_fingerprints(title, ran, expected):
    assert match(KNOWN, ran) == [KNOWN[i] for i in expected]


def test_a_correct_run_and_a_load_error_name_none_however_much_they_share():
    # Every case fails alike for code that does not load: a mistake that raises would otherwise match it.
    table = Catalogue(SALT, [{"file": "wrong/raises.py", "hint": "Raises.", "cases": {"b": {"status": "error"}}}])
    secret = {c["name"]: c["hidden"] for c in CASES}
    for outcomes in (RIGHT, [error_outcome("SyntaxError", "load")] * len(CASES)):
        assert matched(table, judge_run(CASES, outcomes, 1), secret) == []
    raised = run_with(b=error_outcome("KeyError", "call"))
    assert [m["hint"] for m in matched(table, judge_run(CASES, raised, 1), secret)] == ["Raises."]


# --- The catalogue, from wrong solutions' verdicts -----------------------------------------------------------


@pytest.fixture(scope="module")
def runner():
    with closing(make_runner("in-process", Project())) as own:
        yield own


PRIVATE = """\
  - name: a secret sum of big numbers
    args: {a: 1000, b: 234}
    expected: 1234
    private: true
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """The fixture course, its `add` given a private case (its wrong solution subtracts)."""
    root = tmp_path_factory.mktemp("course")
    shutil.copytree(FIXTURES / "valid" / "exercises", root / "exercises")
    with (root / "exercises/basics/add/exercise.yaml").open("a", encoding="utf-8") as f:
        f.write(PRIVATE)
    return root


@pytest.fixture(scope="module")
def add(course):
    return find_exercise(course, "add")


def test_the_catalogue_keeps_what_each_wrong_solution_returns_where_it_fails(add, runner):
    wrong = add.wrong_solutions[0]
    table = catalogue(add, [(wrong, verdict(runner, add, wrong.source))])
    assert table.salt == salt(add)
    # Visible: the value (1 - 2). Hidden and private: only a digest, salted with the challenge's salt. A case that
    # ends in an error: its status. Every case fails here; a case it passed would be of no use.
    assert table.known == [
        {
            "file": "wrong/subtract.py",
            "hint": "subtracts instead of adding",
            "cases": {
                "small numbers": {"status": "fail", "value": "-1"},
                "text stays text": {"status": "error"},
                "negative": {"status": "fail", "digest": digest(salt(add), "-7")},
                "a secret sum of big numbers": {"status": "fail", "digest": digest(salt(add), "766")},
            },
        }
    ]


def test_a_hint_replaces_the_mistake_and_an_unnamed_or_unloadable_one_is_left_out(add, runner):
    wrong = add.wrong_solutions[0]
    result = verdict(runner, add, wrong.source)
    hinted = dataclasses.replace(wrong, hint="Look at the sign.")
    broken = dataclasses.replace(wrong, source="def add(a, b:\n")
    runs = [
        (hinted, result),
        (dataclasses.replace(wrong, named=False), result),
        (broken, verdict(runner, add, broken.source)),
    ]
    assert [m["hint"] for m in catalogue(add, runs).known] == ["Look at the sign."]


def test_a_verdict_read_from_the_cache_is_the_verdict_just_made(add, runner, tmp_path):
    cache = BuildCache(tmp_path)
    source = add.wrong_solutions[0].source
    made = verdict(runner, add, source, cache)
    assert verdict(None, add, source, cache) == made  # no runner: it comes from the cache
    assert verdict(runner, add, source) == made  # and is what a run without a cache gives


def test_a_page_carries_no_private_case_and_no_value_that_is_a_secret_cases_expected_one(course, add):
    private = next(c for c in add.cases if c.private)
    hidden_case = next(c for c in add.cases if c.hidden and not c.private)
    visible = next(c for c in add.cases if not c.hidden)
    secret_value = canonical_json(private.expected)
    table = Catalogue(
        salt(add),
        [
            {"file": "wrong/a.py", "hint": "Only private.", "cases": {private.name: {"status": "fail", "digest": "0"}}},
            {
                "file": "wrong/b.py",
                "hint": "Returns the private value on the visible case.",
                "cases": {
                    visible.name: {"status": "fail", "value": secret_value},
                    hidden_case.name: {"status": "fail", "digest": digest(salt(add), secret_value)},
                },
            },
            {
                "file": "wrong/c.py",
                "hint": "Kept.",
                "cases": {visible.name: {"status": "fail", "value": "7"}, private.name: {"status": "error"}},
            },
        ],
    )
    (track,) = load_course(course)
    data = challenge_context(challenge_inputs(track, add, None, None, table))["page_data"]
    assert data["mistakes"] == [{"hint": "Kept.", "cases": {visible.name: {"status": "fail", "value": "7"}}}]
    assert page_mistakes(None, add) == ()
    text = json.dumps(data["mistakes"])
    assert private.name not in text and secret_value not in text and "wrong/" not in text


def test_a_page_without_known_mistakes_carries_no_mistakes_key(course, add):
    (track,) = load_course(course)
    assert "mistakes" not in challenge_context(challenge_inputs(track, add, None, None))["page_data"]


# --- On the course: every named wrong solution is named by its own hint --------------------------------------


# Not repeat-guard: its expected values hold Python 3.14's json wording, which the in-process runner's Python lacks.
@pytest.mark.parametrize("slug", [LIMIT, DISPATCH, "malformed-json-recovery"])
def test_each_wrong_solution_of_a_challenge_names_its_own_mistake(slug, runner):
    ex = find_exercise(ROOT, slug)
    runs = [(wrong, verdict(runner, ex, wrong.source)) for wrong in ex.wrong_solutions]
    table = catalogue(ex, runs)
    assert len(table.known) == len(ex.wrong_solutions), "every wrong solution of the course loads and may be named"
    for wrong, result in runs:
        names = [m["hint"] for m in matched(table, result, secrets(ex))]
        assert (wrong.hint or wrong.mistake) in names, wrong.path.name
    right = verdict(runner, ex, ex.solution_source)
    assert matched(table, right, secrets(ex)) == []
    # An untouched starter fails everything: it was told of mistakes in code the learner never wrote.
    assert matched(table, verdict(runner, ex, ex.starter_source), secrets(ex)) == []


def test_the_command_line_names_a_mistake_only_for_a_failing_result(monkeypatch):
    # No catalogue is looked up (so no runner started) when nothing failed.
    ex = find_exercise(ROOT, LIMIT)
    monkeypatch.setattr("loopcraft.mistakes.catalogues", lambda *a, **k: pytest.fail("looked up"))
    assert named_for(Project(), ex, [RunResult("pass", None, [])]) == [[]]


def test_hint_and_named_are_read_from_exercise_yaml(course, tmp_path):
    shutil.copytree(course / "exercises", tmp_path / "exercises")
    yaml = tmp_path / "exercises/basics/add/exercise.yaml"
    text = yaml.read_text(encoding="utf-8")
    yaml.write_text(
        text.replace(
            "    mistake: subtracts instead of adding\n",
            "    mistake: subtracts\n    hint: Check the sign.\n    named: false\n",
        )
    )
    (wrong,) = find_exercise(tmp_path, "add").wrong_solutions
    assert (wrong.mistake, wrong.hint, wrong.named) == ("subtracts", "Check the sign.", False)
    (wrong,) = find_exercise(course, "add").wrong_solutions
    assert (wrong.hint, wrong.named) == (None, True)


def test_loopcraft_grade_names_the_mistake_of_a_failing_file_and_none_of_a_passing_one(runners):
    ex = find_exercise(ROOT, LIMIT)
    wrong = next(w for w in ex.wrong_solutions if w.path.name == "no_reset.py")
    failing = run_grader(runners, LIMIT, wrong.path)
    assert failing.returncode == 1
    lines = failing.stdout.splitlines()
    assert f"  {said(wrong.hint or wrong.mistake)}" in lines
    assert lines[-1].strip().endswith(": fail")  # the summary stays last
    passing = run_grader(runners, LIMIT, ex.dir / "solution.py")
    assert passing.returncode == 0 and KNOWN_MISTAKE not in passing.stdout
