"""Private cases (`private: true`): graded by the CLI and the build's checks, never published in any form."""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from grader.canonical import canonical_json, digest
from loopcraft.build import build
from loopcraft.classroom import course_exercises
from loopcraft.errors import ExerciseError
from loopcraft.load import find_exercise, load_course
from loopcraft.project import Project
from loopcraft.render import challenge_context, challenge_inputs, salt, solution_key
from tests.helpers import FIXTURES, run_grader

PRIVATE = """\
  - name: a secret sum of big numbers
    args: {a: 1000, b: 234}
    expected: 1234
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


def test_the_built_site_holds_no_trace_of_a_private_case(tmp_path: Path):
    """Every private case of the real course: its name, its expected value in any of the forms a page writes
    values in, and the digest it would have as a hidden case, are in no byte of the site."""
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
        value = canonical_json(case.expected)
        forms = {
            case.name,
            value,
            json.dumps(case.expected),
            json.dumps(case.expected, ensure_ascii=False),
            repr(case.expected),
            repr(json.loads(value)),
            digest(salt(ex), value),
        }
        for form in forms:
            assert form.encode() not in site, f"{ex.slug}: private case {case.name!r} shows in the site as {form}"
