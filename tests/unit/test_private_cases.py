"""Private cases (`private: true`): graded by the CLI and the build's checks, never published in any form."""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from grader.canonical import digest
from loopcraft.build import build
from loopcraft.cases import expectation_text
from loopcraft.classroom import course_exercises
from loopcraft.errors import ExerciseError
from loopcraft.load import find_exercise, load_course
from loopcraft.project import Project
from loopcraft.render import challenge_context, challenge_inputs, salt, solution_key
from tests.helpers import FIXTURES, make_project, run_grader

PRIVATE = """\
  - name: a secret sum of big numbers
    args: {a: 1000, b: 234}
    expected: 1234
    private: true
"""


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


@pytest.fixture
def track(tmp_path: Path) -> Path:
    """The fixture track `basics`, its `add` given a private case."""
    track = tmp_path / "exercises/basics"
    shutil.copytree(FIXTURES / "valid/exercises/basics", track)
    with (track / "add/exercise.yaml").open("a", encoding="utf-8") as f:
        f.write(PRIVATE)
    return track


def test_a_private_case_is_loaded_as_a_hidden_one(track: Path):
    ex = find_exercise(track.parent.parent, str(track / "add"))
    case = ex.cases[-1]
    assert (case.name, case.private, case.hidden) == ("a secret sum of big numbers", True, True)
    assert not any(c.private for c in ex.cases[:-1])


def test_a_private_case_cannot_be_shown(track: Path):
    yaml = track / "add/exercise.yaml"
    yaml.write_text(yaml.read_text().replace("    private: true\n", "    private: true\n    hidden: false\n"))
    with pytest.raises(ExerciseError) as caught:
        find_exercise(track.parent.parent, str(track / "add"))
    line = yaml.read_text().splitlines().index("    hidden: false") + 1
    assert f"add/exercise.yaml:{line}: cases[3]: a private case is never shown, so it cannot be `hidden: false`" in str(
        caught.value
    )


def test_the_page_counts_private_cases_and_carries_nothing_else_of_them(track: Path):
    (course,) = load_course(track.parent.parent)
    ex = next(e for e in course.exercises if e.slug == "add")
    context = challenge_context(challenge_inputs(course, ex, None, None))
    page = context["page_data"]
    assert [c["name"] for c in page["cases"]] == ["small numbers", "text stays text", "negative"]
    assert context["ex"]["private_count"] == 1 and context["ex"]["hidden_count"] == 1
    assert "a secret sum" not in json.dumps(context["ex"], default=str)
    # The reference solution unlocks with the values of the published cases: the page never has the others.
    secret = page["solution"]
    key = solution_key(salt(ex), [c for c in ex.cases if not c.private])
    plain = AESGCM(key).decrypt(base64.b64decode(secret["iv"]), base64.b64decode(secret["ciphertext"]), None)
    assert plain.decode() == ex.solution_source


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
