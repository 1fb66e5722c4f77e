"""An output folder that cannot be turned against the teacher (issue 51): docs/teachers.md has teachers run `class`
into a shard's folder, which whoever wrote the shard may have planted links in. The red team linked `feedback/` to a
folder of the teacher's (its `.html` files were deleted as stale pages) and `report/` to a folder the teacher serves
(it got the teacher-only report: every learner's code, hidden values). `class` and `merge` now refuse a link in
--out, naming it, before anything is written (exit 2), and every write and removal goes through folders opened
without following a link (loopcraft/classroom/store.py), so that one planted after that check is refused too.

The refusal comes before any grading: these runs start no interpreter."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from loopcraft.classroom.store import names_in, refuse_links, remove, write_atomically
from loopcraft.course.errors import LoopcraftError
from tests.helpers import course_copy, run_grader

SLUG = "consecutive-error-limit"


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    return course_copy(tmp_path_factory.mktemp("course"), [SLUG])


@pytest.fixture
def klass(tmp_path, course) -> Path:
    folder = tmp_path / "class" / "ada"
    folder.mkdir(parents=True)
    shutil.copy(course / "exercises" / "build-an-agent" / SLUG / "solution.py", folder / f"{SLUG}.py")
    return folder.parent


@pytest.fixture
def teachers(tmp_path) -> Path:
    """A folder of the teacher's, with pages of their own and a file they keep."""
    folder = tmp_path / "teachers"
    folder.mkdir()
    (folder / "lesson.html").write_text("my lesson\n")
    (folder / "grades.csv").write_text("my grades\n")
    return folder


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def graded_into(runners, klass: Path, course: Path, out: Path):
    return run_grader(runners, "class", klass, "--out", out, "--root", course)


@pytest.mark.parametrize("planted", ["feedback", "report", "verdicts", "verdicts/ada", "gradebook.csv", "."])
def test_class_refuses_an_output_folder_with_a_planted_link_and_writes_nothing_through_it(
    runners, klass, course, teachers, tmp_path, planted
):
    out = tmp_path / "out"
    before = snapshot(teachers)
    if planted == ".":
        out.symlink_to(teachers, target_is_directory=True)
    else:
        (out / planted).parent.mkdir(parents=True, exist_ok=True)
        target = teachers / "grades.csv" if planted.endswith(".csv") else teachers
        (out / planted).symlink_to(target)
    proc = graded_into(runners, klass, course, out)
    assert proc.returncode == 2, proc.stderr
    named = out if planted == "." else out / planted
    assert f"{named}: a link" in proc.stderr or f"({named}" in proc.stderr, proc.stderr
    assert "nothing was written" in proc.stderr
    assert snapshot(teachers) == before  # nothing written, nothing deleted
    assert not (out / "gradebook.json").exists()


def test_merge_refuses_an_output_folder_with_a_planted_link(runners, course, teachers, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "report").symlink_to(teachers)
    before = snapshot(teachers)
    proc = run_grader(runners, "merge", tmp_path / "shard-1", "--out", out, "--root", course)
    assert proc.returncode == 2 and f"({out / 'report'})" in proc.stderr, proc.stderr
    assert snapshot(teachers) == before


def test_a_link_planted_after_the_check_is_refused_by_the_write_itself(tmp_path, teachers):
    out = tmp_path / "out"
    out.mkdir()
    refuse_links(out)  # a clean folder
    (out / "feedback").symlink_to(teachers)
    before = snapshot(teachers)
    with pytest.raises(LoopcraftError, match="feedback: a link"):
        write_atomically(out, "feedback/ada.html", "a page")
    with pytest.raises(LoopcraftError, match="feedback: a link"):
        names_in(out, "feedback")
    with pytest.raises(LoopcraftError, match="feedback: a link"):
        remove(out, "feedback/lesson.html")
    assert snapshot(teachers) == before
    linked = tmp_path / "linked-out"
    linked.symlink_to(out)
    with pytest.raises(LoopcraftError, match="linked-out: a link"):
        write_atomically(linked, "gradebook.csv", "a row")


def test_a_file_linked_to_the_teachers_is_replaced_never_written_through(tmp_path, teachers):
    """The write makes a file of its own and renames it into place: a link there (planted after the check) is
    refused, and what it points to keeps its bytes."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "gradebook.csv").symlink_to(teachers / "grades.csv")
    with pytest.raises(LoopcraftError, match="gradebook.csv: a link"):
        write_atomically(out, "gradebook.csv", "learner,points\n")
    assert (teachers / "grades.csv").read_text() == "my grades\n"
    assert sorted(os.listdir(out)) == ["gradebook.csv"]  # its temporary file is gone too
    (out / "gradebook.csv").unlink()
    write_atomically(out, "gradebook.csv", "learner,points\n")
    assert (out / "gradebook.csv").read_text() == "learner,points\n" and not (out / "gradebook.csv").is_symlink()
