"""Known mistakes (loopcraft/authoring/mistakes.py): the catalogue a challenge's wrong solutions make, what of it a page may
carry, and the mistakes the one judge names when a submission is graded with it. The matching rule itself is the
judge's (frontend/src/mistakes.js), held to tests/golden/mistake_vectors.json by tests/js/mistakes.test.mjs."""

from __future__ import annotations

import dataclasses
import json
import shutil
from contextlib import closing
from pathlib import Path

import pytest

from grader.canonical import canonical_json, digest
from loopcraft.authoring.mistakes import catalogue
from loopcraft.authoring.verify import verdict
from loopcraft.course.cache import BuildCache
from loopcraft.course.cases import Catalogue, salt
from loopcraft.course.load import find_exercise, load_course
from loopcraft.course.project import Project
from loopcraft.running.grading import grade
from loopcraft.running.runners import make_runner
from loopcraft.site.render import challenge_context, challenge_inputs, page_mistakes
from tests.helpers import FIXTURES, ROOT

LIMIT, DISPATCH = "consecutive-error-limit", "dispatch-registry"


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


def test_a_page_carries_no_printed_text_that_is_a_secret_cases_expected_text():
    receipt = find_exercise(ROOT, "receipt")
    hidden_case = next(c for c in receipt.cases if c.hidden and c.stdout is not None)
    visible = next(c for c in receipt.cases if not c.hidden and c.stdout is not None)
    printed = {"status": "fail", "printed": True}
    table = Catalogue(
        salt(receipt),
        [
            {
                "file": "wrong/a.py",
                "hint": "Prints the hidden case's text on a visible case.",
                "cases": {visible.name: printed | {"value": f"null\nprinted {json.dumps(hidden_case.stdout)}"}},
            },
            {
                "file": "wrong/b.py",
                "hint": "Kept.",
                "cases": {visible.name: printed | {"value": 'null\nprinted "items: 9\\n"'}},
            },
        ],
    )
    assert [m["hint"] for m in page_mistakes(table, receipt)] == ["Kept."]


def test_a_page_without_known_mistakes_carries_no_mistakes_key(course, add):
    (track,) = load_course(course)
    assert "mistakes" not in challenge_context(challenge_inputs(track, add, None, None))["page_data"]


# --- On the course: every named wrong solution is named by its own hint --------------------------------------


# Not repeat-guard: its expected values hold Python 3.14's json wording, which the in-process runner's Python lacks.
@pytest.mark.parametrize("slug", [LIMIT, DISPATCH, "malformed-json-recovery"])
def test_each_wrong_solution_of_a_challenge_is_named_by_its_own_mistake_when_graded(slug, runner):
    ex = find_exercise(ROOT, slug)
    table = catalogue(ex, [(wrong, verdict(runner, ex, wrong.source)) for wrong in ex.wrong_solutions])
    assert len(table.known) == len(ex.wrong_solutions), "every wrong solution of the course loads and may be named"
    for wrong in ex.wrong_solutions:
        # Graded as a learner's submission is: hidden cases by the judge's rules for them, the catalogue sent along.
        assert (wrong.hint or wrong.mistake) in grade(ex, wrong.source, runner, catalogue=table).mistakes, (
            wrong.path.name
        )
    assert grade(ex, ex.solution_source, runner, catalogue=table).mistakes == []
    # An untouched starter fails everything: it was told of mistakes in code the learner never wrote.
    assert grade(ex, ex.starter_source, runner, catalogue=table).mistakes == []


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


def test_a_case_of_printed_text_is_known_by_what_it_printed_as_the_pages_matcher_knows_it():
    from grader.results import CaseResult, Status
    from loopcraft.authoring.mistakes import did, fingerprint

    # Two programs that print different wrong text both return None: the text tells them apart.
    unformatted = CaseResult("one item", Status.FAIL, output="apple: 0.4\n\u00e9\n", actual_shown="None")
    skipped = CaseResult("one item", Status.FAIL, output="apple: 0.40\nitems: 2\n", actual_shown="None")
    assert did(unformatted) == did(skipped) == "null"
    # The same text as frontend/src/mistakes.js `did` makes, tests/js/mistakes.test.mjs
    assert did(unformatted, printed=True) == 'null\nprinted "apple: 0.4\\n\\u00e9\\n"'
    assert fingerprint(unformatted, False, "s", printed=True) != fingerprint(skipped, False, "s", printed=True)
    assert fingerprint(unformatted, False, "s", printed=True)["printed"] is True
    cut = CaseResult("one item", Status.FAIL, output="apple", actual_shown="None", truncated=["output"])
    assert fingerprint(cut, False, "s", printed=True) is None  # not known: what it printed was cut when written


def test_a_case_that_raised_another_exception_is_known_by_it_as_the_pages_matcher_knows_it():
    from grader.results import CaseResult, Status
    from loopcraft.authoring.mistakes import did, fingerprint

    raised = CaseResult("zero", Status.FAIL, actual_shown="TypeError: bad")
    assert did(raised) == "raised TypeError: bad"  # frontend/src/mistakes.js `did`, tests/js/mistakes.test.mjs
    assert fingerprint(raised, False, "s") == {"status": "fail", "value": "raised TypeError: bad"}
    returned_none = CaseResult("zero", Status.FAIL, actual_shown="None")
    assert did(returned_none) == "null"
