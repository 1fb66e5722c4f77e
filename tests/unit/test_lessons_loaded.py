"""Lessons as the loader reads them, no code run: a question without an answer, an output question without wrong
outputs and a lesson its track does not list are refused with `path:line`; the lesson that writes out the loop
lab's figures writes seed 004's. Running lessons and the lab in Pyodide is tests/integration/test_lessons.py."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from loopcraft.course.errors import ExerciseError
from loopcraft.course.load import load_course
from tests.helpers import FIXTURES, ROOT

LESSON_YAML = """\
# yaml-language-server: $schema=../../../../../schemas/lesson.schema.json
title: Printing
summary: What print shows.
level: beginner
minutes: 5
questions:
  - kind: single
    prompt: Which prints a line?
    options:
      - text: print
        correct: true
        feedback: Yes.
      - text: input
        feedback: That reads one.
  - kind: output
    prompt: What does this print?
    code: |
      print(6 * 7)
    explanation: Six sevens.
    wrong:
      - text: "67"
        feedback: That is string concatenation.
"""


LESSON_MD = """\
Some text.

```python live
print("hello")
2 + 3
```
"""


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """The small valid course, with a lesson `printing` listed first."""
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "valid" / "exercises", root / "exercises")
    lesson = root / "exercises/basics/printing"
    lesson.mkdir()
    (lesson / "lesson.yaml").write_text(LESSON_YAML)
    (lesson / "lesson.md").write_text(LESSON_MD)
    track = root / "exercises/basics/track.yaml"
    track.write_text(track.read_text().replace("challenges:\n", "challenges:\n  - printing\n"))
    return root


@pytest.mark.parametrize(
    "options, message",
    [
        ("options: []", "questions[0].options: the answer list is empty"),
        (
            "options:\n      - text: print\n        feedback: Yes.\n      - text: input\n        feedback: No.",
            "questions[0].options: no option is marked `correct: true`, so the question has no answer",
        ),
    ],
)
def test_a_question_without_an_answer_is_refused(course, options, message):
    yaml = course / "exercises/basics/printing/lesson.yaml"
    text = LESSON_YAML
    start = text.index("    options:")
    end = text.index("  - kind: output")
    yaml.write_text(text[:start] + "    " + options + "\n" + text[end:])
    with pytest.raises(ExerciseError) as caught:
        load_course(course)
    assert [str(p) for p in caught.value.errors] == [f"exercises/basics/printing/lesson.yaml:9: {message}"]


def test_an_output_question_with_no_wrong_outputs_is_refused(course):
    yaml = course / "exercises/basics/printing/lesson.yaml"
    text = LESSON_YAML
    yaml.write_text(text[: text.index("    wrong:")] + "    wrong: []\n")
    with pytest.raises(ExerciseError) as caught:
        load_course(course)
    assert [str(p) for p in caught.value.errors] == [
        "exercises/basics/printing/lesson.yaml:20: questions[1].wrong: the answer list is empty: give at least "
        "one wrong output to choose against"
    ]


def test_a_lesson_missing_from_track_yaml_is_an_error(course):
    track = course / "exercises/basics/track.yaml"
    track.write_text(track.read_text().replace("  - printing\n", ""))
    with pytest.raises(ExerciseError) as caught:
        load_course(course)
    assert [str(p) for p in caught.value.errors] == [
        "exercises/basics/track.yaml:4: lesson folder 'printing' is not listed in challenges"
    ]


SEED_004 = {  # habit: [(share, calls) for errors-end, fed-back, guarded]
    "stubborn": [(0, "8.0"), (0, "8.0"), (0, "4.0")],
    "repeats-until-told": [(0, "8.0"), (0, "8.0"), (100, "4.9")],
    "breaks-format": [(0, "2.0"), (100, "4.8"), (100, "4.8")],
    "unknown-tool": [(0, "1.0"), (100, "3.9"), (100, "3.9")],
}


def test_the_lesson_that_tells_the_labs_figures_tells_them_as_seed_004_has_them():
    """habits-meet-designs writes the lab's table out in its prose; the lab's grid is held to seed 004 in
    tests/integration/test_lessons.py."""
    from grader.lab import HABITS

    text = (ROOT / "exercises/build-an-agent/habits-meet-designs/lesson.md").read_text()
    table = {}
    for key, label in HABITS:
        (row,) = [line for line in text.splitlines() if line.startswith(f"| {label} |")]
        table[key] = [(int(share), calls) for share, calls in re.findall(r"(\d+)% \((\d+\.\d)\)", row)]
    assert table == SEED_004
