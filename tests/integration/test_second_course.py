"""The second course, Python Basics, through the teachers' tools: a class of learners graded by `python -m grader
class` from one zip, and the Gradescope autograder of two of its challenges, each in the session's Pyodide runners.
The two are the course's class (`Money`, cases by `call` and `setup`) and its program (`main()`, cases by `stdin`
and `stdout`): the two kinds of case the first course has none of."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from loopcraft.course.load import find_exercise
from tests.helpers import ROOT, course_copy, run_grader
from tests.integration.test_gradescope import autograder, grade_here, gradescope_root

TRACK = "python-basics"
MONEY, RECEIPT = "money", "receipt"
COURSE = ROOT / "exercises" / TRACK


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    return course_copy(tmp_path_factory.mktemp("course"), [MONEY, RECEIPT], track_slug=TRACK)


@pytest.fixture(scope="module")
def graded(tmp_path_factory, course, runners) -> Path:
    """A class zipped as a folder per learner: one right on both, one with a known mistake in each, one who handed
    in only the class; graded, private cases included."""
    root = tmp_path_factory.mktemp("class")
    hand_ins = {
        "ada": {MONEY: "solution.py", RECEIPT: "solution.py"},
        "ben": {MONEY: "wrong/no_carry.py", RECEIPT: "wrong/prices_unformatted.py"},
        "cy": {MONEY: "solution.py"},
    }
    with zipfile.ZipFile(root / "submissions.zip", "w") as z:
        for learner, files in hand_ins.items():
            for slug, file in files.items():
                z.write(COURSE / slug / file, f"class/{learner}/{slug}.py")
    proc = run_grader(runners, "class", root / "submissions.zip", "--out", root / "out", "--root", course)
    assert proc.returncode == 0, proc.stderr
    return root / "out"


def test_a_class_of_the_second_course_is_graded_case_by_case_private_cases_included(graded, course):
    book = json.loads((graded / "gradebook.json").read_text())
    assert book["challenges"] == [MONEY, RECEIPT]
    got = {row["learner"]: row["challenges"] for row in book["learners"]}
    assert list(got) == ["ada", "ben", "cy"]
    for slug in (MONEY, RECEIPT):
        total = len(find_exercise(course, slug).cases)
        assert any(case.private for case in find_exercise(course, slug).cases)
        assert got["ada"][slug] == {"status": "pass", "passed": total, "total": total}
        assert got["ben"][slug]["status"] == "fail" and 0 < got["ben"][slug]["passed"] < total
    assert got["cy"][RECEIPT] == {"status": "missing", "passed": 0, "total": len(find_exercise(course, RECEIPT).cases)}


def test_the_gradescope_autograder_grades_the_class_and_the_program(course, tmp_path, runners):
    root = gradescope_root(autograder(course, tmp_path / "autograder.zip", MONEY, RECEIPT), tmp_path / "autograder")
    shutil.copy(COURSE / MONEY / "solution.py", root / "submission" / f"{MONEY}.py")
    shutil.copy(COURSE / RECEIPT / "wrong" / "done_must_be_exact.py", root / "submission" / f"{RECEIPT}.py")
    doc = grade_here(root, runners)
    money, receipt = (find_exercise(course, slug) for slug in (MONEY, RECEIPT))
    by_name = {test["name"]: test["status"] for test in doc["tests"]}
    assert len(by_name) == len(money.cases) + len(receipt.cases)
    assert {by_name[f"{money.title}: {case.name}"] for case in money.cases} == {"passed"}
    # The learner stops only at a line that is exactly "done": the one case with spaces around it fails (its
    # program reads past the end of its input), the others pass.
    failed = [case.name for case in receipt.cases if by_name[f"{receipt.title}: {case.name}"] == "failed"]
    assert failed == ["Spaces around the words and around done"]
    # Each challenge is worth a point, shared among its cases.
    assert doc["score"] == pytest.approx(1 + (len(receipt.cases) - 1) / len(receipt.cases), abs=1e-6)


def test_a_gradescope_student_reads_each_case_as_the_page_shows_it_and_the_mistake_it_looks_like(
    course, tmp_path, runners
):
    root = gradescope_root(autograder(course, tmp_path / "autograder.zip", MONEY, RECEIPT), tmp_path / "autograder")
    shutil.copy(COURSE / MONEY / "wrong" / "cents_unpadded.py", root / "submission" / f"{MONEY}.py")
    shutil.copy(COURSE / RECEIPT / "wrong" / "prices_unformatted.py", root / "submission" / f"{RECEIPT}.py")
    doc = grade_here(root, runners)
    money, receipt = (find_exercise(course, slug) for slug in (MONEY, RECEIPT))
    hint = {
        ex.slug: next(w.hint for w in ex.wrong_solutions if w.path.stem == file)
        for ex, file in ((money, "cents_unpadded"), (receipt, "prices_unformatted"))
    }
    # Both known mistakes are named in the summary, as the page names them.
    assert hint[MONEY] in doc["output"] and hint[RECEIPT] in doc["output"]
    failed = {test["name"]: test["output"] for test in doc["tests"] if test["status"] == "failed"}
    visible_money = [
        f"{money.title}: {c.name}" for c in money.cases if not c.hidden and f"{money.title}: {c.name}" in failed
    ]
    visible_receipt = [
        f"{receipt.title}: {c.name}" for c in receipt.cases if not c.hidden and f"{receipt.title}: {c.name}" in failed
    ]
    assert visible_money and visible_receipt
    # A class's case: its call and both sides as Python writes them, not a return value of None.
    money_text = failed[visible_money[0]]
    assert money_text.startswith("Call:\n") or "\nCall:\n" in money_text
    assert "Expected:\n" in money_text and "Yours:\n" in money_text and "null" not in money_text
    assert hint[MONEY] in money_text
    # A program's case: the printed text expected and printed, once each.
    receipt_text = failed[visible_receipt[0]]
    assert "Expected output:\n" in receipt_text and "Your output:\n" in receipt_text
    assert "Printed:" not in receipt_text and "Yours:" not in receipt_text


def test_a_program_s_known_mistakes_are_told_apart_by_what_it_printed(course, tmp_path, runners):
    # Every program returns None: by that alone, a program that printed other wrong text was told two known mistakes
    # that it does not make, and each wrong solution both its own and the other's.
    receipt = find_exercise(course, RECEIPT)
    hints = {wrong.path.name: wrong.hint for wrong in receipt.wrong_solutions}
    told = {}
    for name in ("prices_unformatted.py", "counts_skipped_lines.py"):
        proc = run_grader(runners, RECEIPT, COURSE / RECEIPT / "wrong" / name, "--root", course)
        told[name] = [hint for hint in hints.values() if hint in proc.stdout]
    assert told == {name: [hints[name]] for name in told}
    other = tmp_path / "other.py"
    code = (COURSE / RECEIPT / "wrong" / "prices_unformatted.py").read_text()
    other.write_text(code.replace('print(f"{name}: {price}")', 'print(f"{name} costs {price:.2f}")'))
    proc = run_grader(runners, RECEIPT, other, "--root", course)
    assert "fail" in proc.stdout and not [hint for hint in hints.values() if hint in proc.stdout]
