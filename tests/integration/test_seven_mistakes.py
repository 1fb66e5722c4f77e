"""Issue 53, graded by the real grader in Pyodide: seven mistakes that wrong solutions written from the pages alone
made and no case caught, each written again as a learner would (tests/fixtures/mistakes/), now fail the case that
says their rule and are told their hint; the mistake parallel-tool-calls teaches, written as learners do, is told
its hint; and every wrong solution with a hint (the central mistakes of each challenge among them), graded, is told
that hint."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from loopcraft.authoring.mistakes import said, wrong_file
from loopcraft.course.load import find_exercise
from tests.helpers import FIXTURES, ROOT, run_grader
from tests.unit.test_central_mistakes import hinted

MISTAKES = FIXTURES / "mistakes"

# fixture: (challenge, the case that catches it, the wrong solution whose hint the learner is told)
SEVEN = {
    "parallel_list_of_objects_only.py": (
        "parallel-tool-calls",
        "A list holding a non-object reports that item as a bad call",
        "wrong/non_object_item_as_shape.py",
    ),
    "failure_guards_as_set.py": (
        "failure-table",
        "Each cut reply is listed, however many there are",
        "wrong/guard_listed_once.py",
    ),
    "fake_model_first_underscore.py": (
        "scripted-fake-model",
        "Every underscore of an error kind becomes a space",
        "wrong/first_underscore_only.py",
    ),
    "fake_model_forecast_get_error.py": (
        "scripted-fake-model",
        "A forecast error of an empty kind is still refused",
        "wrong/forecast_error_by_truthiness.py",
    ),
    "budget_empty_error_ok.py": (
        "tool-time-budget",
        "A result whose error is empty is still logged as an error",
        "wrong/empty_error_as_ok.py",
    ),
    "recovery_errors_counted_after.py": (
        "malformed-json-recovery",
        "An answer that starts like an error is no error, and a second run counts afresh",
        "wrong/errors_counted_from_messages.py",
    ),
    "recovery_module_counter.py": (
        "malformed-json-recovery",
        "A failed search counted on every run as its own",
        "wrong/errors_in_a_global.py",
    ),
}


def failed(stdout: str, case: str) -> bool:
    """The grader's report says `case` did not pass: another value, or an exception (a hidden or private case carries
    its kind after the name)."""
    line = rf"^\s+(FAIL|ERROR)\s+{re.escape(case)}( \((hidden|private)\))?$"
    return re.search(line, stdout, re.MULTILINE) is not None


def hint_of(slug: str, file: str) -> str:
    ex = find_exercise(ROOT, slug)
    wrong = next(w for w in ex.wrong_solutions if wrong_file(ex, w) == file)
    return wrong.hint


@pytest.mark.parametrize("fixture", sorted(SEVEN))
def test_a_held_out_style_mistake_fails_its_case_and_is_told_its_hint(runners, fixture):
    slug, case, wrong = SEVEN[fixture]
    graded = run_grader(runners, slug, MISTAKES / fixture)
    assert graded.returncode == 1, graded.stdout + graded.stderr
    assert failed(graded.stdout, case), graded.stdout
    assert f"  {said(hint_of(slug, wrong))}" in graded.stdout.splitlines(), graded.stdout


# The mistake parallel-tool-calls teaches, each call checked just before it runs, in the two forms learners write it
# (the rule about a shared finish checked as the loop reaches it, or first), which fail its cases differently.
CHECKED_AS_IT_RUNS = ["parallel_check_as_it_runs.py", "parallel_finish_first_then_check_as_it_runs.py"]


def test_the_mistake_parallel_tool_calls_teaches_is_told_its_hint_in_either_form(runners, tmp_path):
    for fixture in CHECKED_AS_IT_RUNS:
        shutil.copy(MISTAKES / fixture, tmp_path / fixture)
    graded = run_grader(runners, "parallel-tool-calls", tmp_path)
    report = sections(graded.stdout)
    told = f"  {said(hint_of('parallel-tool-calls', 'wrong/checks_each_call_as_it_runs.py'))}"
    for fixture in CHECKED_AS_IT_RUNS:
        assert failed("\n".join(report[fixture]), "One forbidden name rejects the whole batch"), graded.stdout
        assert told in report[fixture], graded.stdout


def sections(stdout: str) -> dict[str, list[str]]:
    """The grader's report on a folder, split per submission: {file name: its lines}."""
    found: dict[str, list[str]] = {}
    lines: list[str] = []
    for line in stdout.splitlines():
        if line.endswith(".py:") and not line.startswith(" "):
            lines = found.setdefault(Path(line[:-1]).name, [])
        else:
            lines.append(line)
    return found


@pytest.mark.parametrize(("slug", "wrongs"), hinted(), ids=[slug for slug, _ in hinted()])
def test_grading_a_wrong_solution_with_a_hint_tells_that_hint(runners, tmp_path, slug, wrongs):
    for wrong in wrongs:
        shutil.copy(wrong.path, tmp_path / wrong.path.name)
    graded = run_grader(runners, slug, tmp_path)
    report = sections(graded.stdout)
    assert sorted(report) == sorted(w.path.name for w in wrongs), graded.stdout
    untold = [w.path.name for w in wrongs if f"  {said(w.hint)}" not in report[w.path.name]]
    assert not untold, graded.stdout
