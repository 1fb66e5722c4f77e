"""The Gradescope autograder: `build.py gradescope` makes the zip; its real `run_autograder` runs here against a
folder laid out as Gradescope lays out /autograder/ (AUTOGRADER_ROOT), with what setup.sh would have installed there
linked from this project (setup.sh itself needs Gradescope's image and the internet: it is only checked by bash).
Once that shows the zip grades on its own, the other submissions are graded by what the script runs
(`loopcraft.classroom.gradescope.run` on the zip's course and grader) in this process, in the session's runners; `build.py`
runs here too (its `main`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from decimal import Decimal
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader.canonical import canonical_json
from grader.results import CASE_CHARS, PRIVATE_NOTE, SUBMISSION_CHARS, value_outcome
from loopcraft.classroom import gradescope
from loopcraft.classroom.gradescope import requirements, results, shares
from loopcraft.classroom.intake import read_submission
from loopcraft.course.load import find_exercise, load_course
from loopcraft.course.project import Project
from loopcraft.running.grading import request_case
from loopcraft.running.judging import judge
from tests.helpers import ROOT, course_copy

LIMIT, DISPATCH = "consecutive-error-limit", "dispatch-registry"
CHALLENGE = ROOT / "exercises" / "build-an-agent" / LIMIT
SCHEMA = json.loads((ROOT / "schemas" / "gradescope-results.schema.json").read_text())


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    root = course_copy(tmp_path_factory.mktemp("course"), [LIMIT, DISPATCH])
    with (root / "exercises" / "build-an-agent" / "track.yaml").open("a") as f:
        f.write(f"points:\n  {LIMIT}: 2\n")
    return root


@pytest.fixture(scope="module")
def limit_zip(course, tmp_path_factory) -> Path:
    """The autograder of the one challenge, built once: each test unpacks it into a folder of its own."""
    return autograder(course, tmp_path_factory.mktemp("zip") / "autograder.zip", LIMIT)


def autograder(course: Path, out: Path, *slugs: str) -> Path:
    """`python build.py gradescope SLUG... --out OUT --root COURSE`, run in this process."""
    from loopcraft.commands import main

    assert main(["gradescope", *slugs, "--out", str(out), "--root", str(course)]) == 0
    return out


def gradescope_root(zip_path: Path, root: Path) -> Path:
    """/autograder/ as Gradescope makes it after setup.sh: the zip's contents in source/, run_autograder copied to
    the top, submission/ and results/; what setup.sh installs (the virtual environment, node_modules/, the runner's
    snapshot) linked from this project."""
    (root / "submission").mkdir(parents=True)
    (root / "results").mkdir()
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(root / "source")
        for info in z.infolist():  # zipfile does not restore modes
            os.chmod(root / "source" / info.filename, (info.external_attr >> 16) & 0o777)
    shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")
    (root / "source" / ".venv").symlink_to(Path(sys.prefix))
    (root / "source" / "node_modules").symlink_to((ROOT / "node_modules").resolve())
    (root / "source" / ".cache" / "loopcraft").mkdir(parents=True)
    snapshots = ROOT / ".cache" / "loopcraft" / "pyodide-snapshot"
    snapshots.mkdir(parents=True, exist_ok=True)
    (root / "source" / ".cache" / "loopcraft" / "pyodide-snapshot").symlink_to(snapshots)
    return root


def run_autograder(root: Path) -> dict:
    proc = subprocess.run(
        [str(root / "run_autograder")],
        cwd=root,  # Gradescope runs it in /autograder
        env={**os.environ, "AUTOGRADER_ROOT": str(root)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return results_json(root)


def grade_here(root: Path, runners) -> dict:
    """What `run_autograder` runs (`python -m loopcraft.classroom.gradescope run`, the zip's source/ being the installation),
    run in this process, grading in `runners`."""
    assert gradescope.run(Project(root / "source"), root, runners) == 0
    return results_json(root)


def results_json(root: Path) -> dict:
    doc = json.loads((root / "results" / "results.json").read_text())
    jsonschema.validate(doc, SCHEMA)
    # What Gradescope reads is results.json's decimal text: the score is the tests' total, to the last digit.
    assert decimal_sum(doc["score"]) == decimal_sum(*(test["score"] for test in doc["tests"]))
    return doc


def decimal_sum(*numbers: float) -> Decimal:
    """The sum of `numbers` as written in JSON (a float's repr), without a float's rounding."""
    return sum((Decimal(repr(number)) for number in numbers), Decimal(0))


def could_not_be_graded(doc: dict, ex, points: float) -> dict:
    """The one test a challenge whose hand-in could not be taken gets: failing, worth its points, no case's values."""
    [test] = [test for test in doc["tests"] if test["name"].startswith(f"{ex.title}: ")]
    assert test["name"] == f"{ex.title}: your submission could not be graded"
    assert (test["status"], test["score"], test["max_score"], test["visibility"]) == ("failed", 0, points, "visible")
    assert "Expected:" not in test["output"] and "null" not in test["output"]
    return test


def test_the_zip_has_gradescope_s_two_scripts_at_its_root_and_nothing_of_the_site(course, limit_zip, tmp_path):
    path = limit_zip
    with zipfile.ZipFile(path) as z:
        modes = {info.filename: info.external_attr >> 16 for info in z.infolist()}
        assert z.read("requirements.txt").decode() == requirements(ROOT)
        assert json.loads(z.read("autograder.json")) == {"challenges": [LIMIT]}
    assert modes["setup.sh"] & 0o111 and modes["run_autograder"] & 0o111
    assert {
        "frontend/src/judge.js",
        "frontend/node-runner.mjs",
        "package-lock.json",
        "schemas/exercise.schema.json",
    } <= set(modes)
    assert f"exercises/build-an-agent/{LIMIT}/exercise.yaml" in modes
    # Only what it grades: of the course's solutions and private cases, the one challenge's (issue 38: one hole in
    # the sandbox would have given away every reference solution of the track).
    assert [n for n in modes if n.endswith("/solution.py")] == [f"exercises/build-an-agent/{LIMIT}/solution.py"]
    assert {n.split("/")[2] for n in modes if n.count("/") > 2 and n.startswith("exercises/")} == {LIMIT}
    with zipfile.ZipFile(path) as z:
        track = z.read("exercises/build-an-agent/track.yaml").decode()
    assert LIMIT in track and DISPATCH not in track and "lab:" not in track
    assert not [n for n in modes if n.startswith(("site/", "node_modules/", ".venv/", ".cache/", "tests/"))]
    assert not [n for n in modes if "__pycache__" in n]
    # The same sources give the same bytes.
    assert autograder(course, tmp_path / "again.zip", LIMIT).read_bytes() == path.read_bytes()
    for script in ("setup.sh", "run_autograder"):
        check = subprocess.run(
            ["bash", "-n", str(ROOT / "loopcraft" / "classroom" / "autograder" / script)], capture_output=True
        )
        assert check.returncode == 0, check.stderr


def test_the_zip_of_a_challenge_that_builds_on_another_loads_without_it(tmp_path):
    # The course's own challenge, whose `builds_on` names one the zip leaves out: the zip's course must still load
    # (it did not: `builds_on` has to name a challenge of the track), its comments kept.
    autograder(ROOT, tmp_path / "autograder.zip", LIMIT)
    with zipfile.ZipFile(tmp_path / "autograder.zip") as z:
        z.extractall(tmp_path / "source")
    spec = (tmp_path / "source" / "exercises" / "build-an-agent" / LIMIT / "exercise.yaml").read_text()
    assert "builds_on" not in spec and "builds_on" in (CHALLENGE / "exercise.yaml").read_text()
    assert spec.count("#") == (CHALLENGE / "exercise.yaml").read_text().count("#")
    (only,) = [ex for track in load_course(tmp_path / "source") for ex in track.exercises]
    assert only.slug == LIMIT and only.builds_on is None


def test_run_autograder_writes_a_test_per_case_each_visible_when_the_case_may_be_seen(course, limit_zip, tmp_path):
    root = gradescope_root(limit_zip, tmp_path / "autograder")
    # One challenge: the student's one Python file is its solution, whatever its name.
    shutil.copy(CHALLENGE / "wrong" / "no_reset.py", root / "submission" / "my_solution.py")
    (root / "submission" / "README.md").write_text("notes")
    doc = run_autograder(root)
    # The code that ran is the zip's: its build cache sits in source/.
    assert (root / "source" / ".cache" / "loopcraft" / "entries").is_dir()
    cases = find_exercise(course, LIMIT).cases
    tests = doc["tests"]
    assert [t["name"] for t in tests] == [c.name for c in cases]
    worth = 2 / len(cases)  # track.yaml: points 2
    assert decimal_sum(*(t["max_score"] for t in tests)) == 2
    passed = [t for t in tests if t["status"] == "passed"]
    assert 0 < len(passed) < len(tests)
    assert all(t["max_score"] == pytest.approx(worth, abs=1e-6) for t in tests)
    assert all(t["score"] == (pytest.approx(worth, abs=1e-6) if t["status"] == "passed" else 0) for t in tests)
    assert doc["score"] == pytest.approx(2 * len(passed) / len(cases), abs=1e-6)
    assert f"{len(passed)} of {len(cases)} cases pass" in doc["output"] and "README.md" in doc["output"]
    for case, test in zip(cases, tests, strict=True):
        if not case.hidden:
            assert test["visibility"] == "visible"
            assert f"Expected:\n{request_case(case, LIMIT)['expect']['expected_shown']}\n" in test["output"]
        else:
            assert test["visibility"] == "after_published"
            assert json.dumps(case.expected, ensure_ascii=False, indent=1, sort_keys=True) not in test["output"]
        if case.private:
            assert test["output"] == PRIVATE_NOTE
            assert not [a for a in map(str, case.args.values()) if len(a) > 8 and a in test["output"]]
    assert {c.private for c in cases} == {True, False} and any(c.hidden and not c.private for c in cases)


def test_several_challenges_are_one_test_per_case_each_and_a_missing_file_scores_nothing(course, tmp_path, runners):
    root = gradescope_root(autograder(course, tmp_path / "part.zip", LIMIT, DISPATCH), tmp_path / "autograder")
    shutil.copy(CHALLENGE / "solution.py", root / "submission" / f"{LIMIT}.py")
    doc = grade_here(root, runners)
    limit, dispatch = (find_exercise(course, slug) for slug in (LIMIT, DISPATCH))
    assert len(doc["tests"]) == len(limit.cases) + 1
    assert doc["tests"][0]["name"] == f"{limit.title}: {limit.cases[0].name}"
    assert doc["score"] == 2  # all of the first's 2 points, nothing of the second's 1
    assert decimal_sum(*(t["max_score"] for t in doc["tests"])) == 3
    missing = could_not_be_graded(doc, dispatch, 1)
    assert missing["output"].startswith(f"No {DISPATCH}.py found")
    assert missing["output"].endswith(f"Your submission holds: {LIMIT}.py")


def test_an_empty_submission_scores_nothing_and_says_why(course, limit_zip, tmp_path, runners):
    root = gradescope_root(limit_zip, tmp_path / "autograder")
    doc = grade_here(root, runners)
    assert doc["score"] == 0 and len(doc["tests"]) == 1
    test = could_not_be_graded(doc, find_exercise(course, LIMIT), 2)
    assert test["output"].startswith("No .py file found") and test["output"].endswith("holds no files")
    assert test["output"] in doc["output"]


def test_a_py_file_in_a_nested_folder_is_graded(limit_zip, tmp_path, runners):
    # Gradescope keeps the folders of a zip or a GitHub upload; a Mac's zip adds __MACOSX/, a repository .git/.
    root = gradescope_root(limit_zip, tmp_path / "autograder")
    nested = root / "submission" / "hw3" / "src"
    nested.mkdir(parents=True)
    shutil.copy(CHALLENGE / "solution.py", nested / "my_solution.py")
    for hidden in ("__MACOSX/hw3/src/._my_solution.py", ".git/hooks/pre-commit.py"):
        (root / "submission" / hidden).parent.mkdir(parents=True)
        (root / "submission" / hidden).write_bytes(b"\xff not a solution")
    doc = grade_here(root, runners)
    assert {t["status"] for t in doc["tests"]} == {"passed"} and doc["score"] == 2


def test_two_py_files_in_different_folders_give_one_explanatory_failing_test(course, limit_zip, tmp_path, runners):
    root = gradescope_root(limit_zip, tmp_path / "autograder")
    for path, source in (("a/one.py", "solution.py"), ("b/c/two.py", "wrong/no_reset.py")):
        (root / "submission" / path).parent.mkdir(parents=True)
        shutil.copy(CHALLENGE / source, root / "submission" / path)
    doc = grade_here(root, runners)
    assert doc["score"] == 0 and len(doc["tests"]) == 1
    test = could_not_be_graded(doc, find_exercise(course, LIMIT), 2)
    assert "2 files could be the solution" in test["output"] and "hand in one" in test["output"]
    assert test["output"].endswith("Your submission holds: a/one.py, b/c/two.py")


def test_a_link_named_solution_py_inside_a_folder_is_refused_not_followed(course, limit_zip, tmp_path, runners):
    root = gradescope_root(limit_zip, tmp_path / "autograder")
    (root / "submission" / "sub").mkdir()
    (root / "submission" / "sub" / "solution.py").symlink_to(CHALLENGE / "solution.py")  # it would pass
    (root / "submission" / "lib").symlink_to(CHALLENGE)  # a folder with a solution.py in it: not entered
    doc = grade_here(root, runners)
    assert doc["score"] == 0 and len(doc["tests"]) == 1
    test = could_not_be_graded(doc, find_exercise(course, LIMIT), 2)
    assert test["output"].startswith("sub/solution.py: a link; it was not followed")


def test_a_file_that_is_not_utf8_gives_one_failing_test_that_says_so(course, limit_zip, tmp_path, runners):
    root = gradescope_root(limit_zip, tmp_path / "autograder")
    (root / "submission" / "hw").mkdir()
    (root / "submission" / "hw" / "solution.py").write_bytes(b"def f():\n    return 'caf\xe9'\n")  # Latin-1
    doc = grade_here(root, runners)
    assert doc["score"] == 0 and len(doc["tests"]) == 1
    test = could_not_be_graded(doc, find_exercise(course, LIMIT), 2)
    assert test["output"].startswith("hw/solution.py: not UTF-8 text (byte 0xe9 at offset 24)")


def test_the_walk_of_a_submission_is_bounded_and_opens_no_fifo(tmp_path):
    ex = find_exercise(ROOT, LIMIT)
    submission = tmp_path / "submission"
    deep = submission.joinpath(*"abcdefghi")  # nine folders deep
    deep.mkdir(parents=True)
    (deep / "solution.py").write_text("def f(): pass\n")
    os.mkfifo(submission / "a" / "solution.py")  # refused by its type, never opened
    learner = read_submission(submission, [ex], LIMIT)
    assert learner.sources[LIMIT].error == (
        "a/solution.py: not a regular file; only regular files are read. "
        "Your submission holds: a/b/c/d/e/f/g/h/i/ (not looked in: over 8 folders deep), a/solution.py"
    )
    assert "a/b/c/d/e/f/g/h/i/solution.py" in read_submission(submission, [ex], LIMIT, depth=9).sources[LIMIT].error
    for name in range(1_991):  # with the 9 folders and the FIFO looked at: 2,001 entries
        (submission / f"{name}.txt").touch()
    assert read_submission(submission, [ex], LIMIT).error == (
        "submission/: over 2,000 files and folders; hand in only your solution"
    )


def test_the_maxima_add_up_to_the_points_exactly_and_the_score_to_the_tests_scores():
    limit, dispatch = find_exercise(ROOT, LIMIT), find_exercise(ROOT, DISPATCH)
    outcomes = [value_outcome(canonical_json(c.expected if i % 3 else None)) for i, c in enumerate(limit.cases)]
    result = judge([request_case(c, limit.entry) for c in limit.cases], outcomes, time_limit=limit.time_limit_seconds)
    doc = results([(limit, 1.0, result), (dispatch, 0.35, "No dispatch-registry.py found")])
    jsonschema.validate(doc, SCHEMA)
    assert len(limit.cases) == 19 and len(doc["tests"]) == 20
    assert decimal_sum(*(t["max_score"] for t in doc["tests"])) == Decimal("1.35")
    passed = [t for t in doc["tests"] if t["status"] == "passed"]
    assert 0 < len(passed) < 19 and decimal_sum(doc["score"]) == decimal_sum(*(t["score"] for t in passed))


@given(
    points=st.decimals(min_value="0.5", max_value=100, places=2, allow_nan=False, allow_infinity=False),
    count=st.integers(min_value=1, max_value=60),
)
def test_shares_add_up_to_the_points_exactly_each_within_a_millionth_of_an_even_share(points, count):
    got = shares(float(points), count)
    assert len(got) == count and decimal_sum(*got) == points
    assert all(abs(share - float(points) / count) <= 1e-6 for share in got)


def test_what_a_student_s_code_returns_reaches_results_json_bounded_and_writable():
    # A lone surrogate returned (no UTF-8 file can hold one) made results.json unwritable: no score at all. A list
    # nested 97 deep, indented in the output, made a bounded result a hundred times larger.
    ex = find_exercise(ROOT, LIMIT)
    deep = [0] * 3_000
    for _ in range(96):
        deep = [deep]
    returned = [{"answer": "\ud800 half", "steps": 1}, deep]
    outcomes = [
        value_outcome(canonical_json(returned[i % 2]), "printed \udc00", [{"kind": "tool\ud800", "x": "\ud800"}])
        for i in range(len(ex.cases))
    ]
    result = judge([request_case(c, ex.entry) for c in ex.cases], outcomes, time_limit=ex.time_limit_seconds)
    doc = results([(ex, 1.0, result)])
    written = json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")  # run() writes it so
    jsonschema.validate(json.loads(written), SCHEMA)
    assert len(written) < 3 * SUBMISSION_CHARS
    assert all(len(test["output"]) < 3 * CASE_CHARS for test in doc["tests"])
    shown = [test["output"] for test, case in zip(doc["tests"], ex.cases, strict=True) if not case.hidden]
    assert any("\\ud800 half" in output for output in shown) and any("[[[[" in output for output in shown)
