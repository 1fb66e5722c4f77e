"""Private cases where Pyodide and the build run: the command line grades one and reports it hidden, `check` refuses
one whose value a published case shows, and the built site holds no trace of one. What is loaded and what a page
carries of them is tests/unit/test_private_cases.py."""

from __future__ import annotations

import json
from pathlib import Path

from grader.canonical import digest
from loopcraft.classroom import course_exercises
from loopcraft.course.cases import expectation_text, salt
from loopcraft.course.project import Project
from loopcraft.site.build import build
from tests.helpers import FIXTURES, make_project, run_grader
from tests.unit import test_private_cases
from tests.unit.test_private_cases import PRIVATE

track = test_private_cases.track  # the fixture: the track whose `add` has a private case

# Values the page shows: `b` of "small numbers", and the expected value of the hidden "negative".
SHOWN = """\
  - name: two again
    args: {a: 0, b: 2}
    expected: 2
    private: true
  - name: minus three again
    args: {a: -4, b: 1}
    expected: -3
    private: true
"""


def test_the_cli_grades_a_private_case_and_reports_it_as_hidden(track: Path, tmp_path: Path, runners):
    submission = tmp_path / "all_but_the_private_case.py"
    submission.write_text("def add(a, b):\n    return 0 if a == 1000 else a + b\n")
    done = run_grader(runners, track / "add", submission, "--json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["status"] == "fail"
    private = report["tests"][-1]
    assert (private["name"], private["status"], private["hidden"]) == ("a secret sum of big numbers", "fail", True)
    assert "expected" not in private and "actual" not in private and "1234" not in done.stdout
    assert [t["status"] for t in report["tests"][:-1]] == ["pass", "pass", "pass"]


def test_check_refuses_a_private_case_whose_value_a_published_case_shows(tmp_path: Path, author_cli):
    root = make_project(tmp_path, FIXTURES / "valid/exercises")
    yaml = root / "exercises/basics/add/exercise.yaml"
    yaml.write_text(yaml.read_text() + PRIVATE + SHOWN)
    line = len(yaml.read_text().splitlines()) - len(SHOWN.splitlines()) + 1

    code, out, err = author_cli("check", "--root", str(root), "basics/add")

    assert code == 1
    # The case table tells the private cases from the hidden ones.
    assert out.splitlines()[4:7] == [
        "  negative (hidden)                      x",
        "  a secret sum of big numbers (private)  x",
        "  two again (private)                    x",
    ]
    assert [line for line in err.splitlines() if ": note: " not in line] == [
        f"exercises/basics/add/exercise.yaml:{line}: private case 'two again' expects 2, which the page gives away as "
        "argument `b` of case 'small numbers' (line 22); choose a value no published case shows",
        f"exercises/basics/add/exercise.yaml:{line + 4}: private case 'minus three again' expects -3, which the page "
        "gives away as the expected value of hidden case 'negative' (line 30); choose a value no published case shows",
        "2 problem(s); nothing was written",
    ]


def test_the_built_site_holds_no_trace_of_a_private_case(tmp_path: Path):
    """Every private case of the real course: its name, and the digest its value would have as a hidden case, are
    in no byte of the site. (That no published case shows its value is `check`'s rule, tested above: a search of
    the site's bytes for a value would find it in the bundled code as well.)"""
    out = tmp_path / "site"
    build(Project(), out, verify=False)
    site = b"\n".join(
        path.read_bytes() for path in sorted(out.rglob("*")) if path.is_file() and path.suffix not in {".br", ".gz"}
    )
    exercises = course_exercises(Project())
    private = [(ex, case) for ex in exercises for case in ex.cases if case.private]
    assert {ex.slug for ex, _ in private} == {ex.slug for ex in exercises}, "every challenge has private cases"
    for ex in exercises:
        page = (out / ex.track / ex.slug / "index.html").read_text()
        count = sum(case.private for case in ex.cases)
        assert f"{count} more case{' is' if count == 1 else 's are'} checked only by your instructor's grader" in page
    for ex, case in private:
        # The digest as render.py would publish it (cases.hidden_expectation): of what the case expects, of any kind.
        for form in (case.name, digest(salt(ex), expectation_text(case))):
            assert form.encode() not in site, f"{ex.slug}: private case {case.name!r} shows in the site as {form}"
