"""The grader's command names a failing file's known mistake, in its text and its JSON, graded in Pyodide (the
session's runners); what the catalogue holds and what the judge names is tests/unit/test_mistakes.py."""

from __future__ import annotations

import json

from loopcraft.authoring.mistakes import KNOWN_MISTAKE, said
from loopcraft.course.load import find_exercise
from tests.helpers import ROOT, run_grader
from tests.unit.test_mistakes import LIMIT


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
    # --json names it as the text does: the file's mistakes, and the cases the mistake explains.
    document = json.loads(run_grader(runners, LIMIT, wrong.path, "--json").stdout)
    assert document["mistakes"] == [wrong.hint or wrong.mistake]
    # (A private case says its name and status only, its mistake left out as the rest.)
    failed = [t for t in document["tests"] if t["status"] != "pass" and not t.get("private")]
    assert failed and {t.get("mistake") for t in failed} == {wrong.hint or wrong.mistake}
