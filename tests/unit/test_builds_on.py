"""`builds_on` in exercise.yaml: a challenge that starts from an earlier one's code, validated in one place
(loopcraft/course/load.py) against the track's order, and the page data that offers "Start from my code for challenge N"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from loopcraft.course.errors import ExerciseError
from loopcraft.course.load import load_course
from loopcraft.site.render import challenge_context, challenge_inputs, render_pages
from tests.helpers import FIXTURES, ROOT, the_track

ADD = "exercises/basics/add/exercise.yaml"
DOUBLE = "exercises/basics/double/exercise.yaml"


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """A writable copy of the valid fixture course: `add`, then `double`."""
    shutil.copytree(FIXTURES / "valid", tmp_path / "course")
    return tmp_path / "course"


def edit(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text()
    assert old in text, f"{old!r} not in {relative}"
    path.write_text(text.replace(old, new, 1))


def problems(root: Path) -> list[str]:
    with pytest.raises(ExerciseError) as caught:
        load_course(root)
    return [str(p) for p in caught.value.problems if not p.note]


def test_a_challenge_builds_on_an_earlier_one_and_its_page_offers_that_code(course: Path):
    edit(course, DOUBLE, "sandbox: ../helpers.py\n", "sandbox: ../helpers.py\nbuilds_on: add\n")
    (track,) = load_course(course)
    add, double = track.exercises
    assert add.builds_on is None
    assert (double.builds_on.slug, double.builds_on.line) == ("add", 10)
    data = challenge_context(challenge_inputs(track, double, add, None))["page_data"]
    assert data["builds_on"] == {"slug": "add", "number": 1, "title": "Add two numbers"}
    # A challenge without it has no such key, and no button.
    assert "builds_on" not in challenge_context(challenge_inputs(track, add, None, double))["page_data"]
    pages = render_pages(ROOT / "templates", [track], "test")
    assert 'data-testid="start-from"' not in pages["basics/add/index.html"]
    button = (
        '<button type="button" class="button" data-testid="start-from" aria-label="Start from my code for challenge 1: '
        'Add two numbers" hidden>Start from my code for challenge 1</button>'
    )
    assert button in pages["basics/double/index.html"]


@pytest.mark.parametrize(
    ("file", "builds_on", "message"),
    [
        (DOUBLE, "ad", "builds_on: 'ad' is not a challenge of this track (did you mean 'add'?)"),
        (
            ADD,
            "double",
            "builds_on: 'double' comes after this challenge in track.yaml (challenge 2, this is challenge 1); "
            "a challenge can build only on an earlier one",
        ),
        (ADD, "add", "builds_on: a challenge cannot build on itself"),
        (DOUBLE, "Add", "builds_on: 'Add' does not match '^[a-z0-9]+(-[a-z0-9]+)*$'"),
    ],
)
def test_an_unknown_or_later_challenge_is_an_error_at_its_line(course: Path, file: str, builds_on: str, message: str):
    edit(course, file, "sandbox: ../helpers.py\n", f"sandbox: ../helpers.py\nbuilds_on: {builds_on}\n")
    found = problems(course)
    assert len(found) == 1 and found[0].startswith(f"{file}:10: "), found
    assert message in found[0]


def test_a_lesson_is_no_challenge_to_build_on(course: Path):
    lesson = course / "exercises/basics/reading"
    lesson.mkdir()
    (lesson / "lesson.yaml").write_text(
        "title: Reading\nsummary: Read.\nlevel: beginner\nminutes: 1\nquestions:\n"
        "  - kind: single\n    prompt: Read?\n    options:\n"
        "      - {text: 'yes', correct: true, feedback: Yes.}\n      - {text: 'no', feedback: No.}\n"
    )
    (lesson / "lesson.md").write_text("Text.\n")
    edit(course, "exercises/basics/track.yaml", "challenges:\n", "challenges:\n  - reading\n")
    edit(course, DOUBLE, "sandbox: ../helpers.py\n", "sandbox: ../helpers.py\nbuilds_on: reading\n")
    assert problems(course) == [
        f"{DOUBLE}:10: builds_on: 'reading' is a lesson; a challenge can build only on a challenge, whose code the "
        "learner saves"
    ]


def test_the_task_names_the_button_with_the_number_of_the_challenge_it_builds_on(course: Path):
    """The prose that points at the button cannot drift from the course's order: the number is checked."""
    edit(course, DOUBLE, "sandbox: ../helpers.py\n", "sandbox: ../helpers.py\nbuilds_on: add\n")
    # Named as prose wraps it, across lines.
    edit(course, DOUBLE, "Return `2 * x`.", "Return `2 * x`. **Start from my code for\n  challenge 2** helps.")
    assert problems(course) == [
        f"{DOUBLE}:10: builds_on: 'add' is challenge 1 of the course, but the task names the button "
        '"Start from my code for challenge 2"'
    ]
    edit(course, DOUBLE, "challenge 2**", "challenge 1**")
    load_course(course)
    # Without builds_on there is no button to name: a note, since a course cut to some of its challenges (a
    # Gradescope autograder's) drops the builds_on of one whose earlier challenge it leaves out, and keeps its prose.
    edit(course, DOUBLE, "builds_on: add\n", "")
    notes = []
    load_course(course, notes)
    assert [str(p) for p in notes if "button" in p.message] == [
        f'{DOUBLE}:10: note: task: names the button "Start from my code for challenge 1", which only a challenge '
        "with `builds_on` has"
    ]


def test_the_courses_challenges_that_start_from_an_earlier_loop_say_so():
    """Every challenge whose starter is an earlier challenge's loop names it, and its task names the button."""
    track = the_track()
    builds_on = {ex.slug: ex.builds_on.slug for ex in track.exercises if ex.builds_on}
    assert builds_on == {
        "malformed-json-recovery": "stage-4-loop",
        "consecutive-error-limit": "malformed-json-recovery",
        "parse-retry-budget": "malformed-json-recovery",
        "repeat-guard": "malformed-json-recovery",
    }
    for ex in track.exercises:
        assert ("Start from my code for challenge" in ex.task) == (ex.slug in builds_on), ex.slug
        assert "you may start from your solution" not in ex.task, ex.slug
