"""Lessons run in Pyodide (Node) at build time, and refused with `path:line` when an author's code slips (what the
loader refuses is tests/unit/test_lessons_loaded.py).

The loop lab's grid is run here too, in Pyodide, through the same single run-case request the page sends.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from loopcraft.authoring.lessons import LAB_ENTRY, LAB_SANDBOX, LAB_TIME_LIMIT, run_lessons
from loopcraft.course.errors import ExerciseError
from loopcraft.course.load import load_course
from loopcraft.course.project import Project
from loopcraft.running.grading import run_only
from loopcraft.site.build import check
from tests.helpers import ROOT
from tests.unit import test_lessons_loaded
from tests.unit.test_lessons_loaded import LESSON_MD, LESSON_YAML, SEED_004

course = test_lessons_loaded.course  # the fixture: the small course with a lesson


def problems(root: Path, runner) -> list[str]:
    """Every error a build would stop on: loading, then running the lessons' code."""
    try:
        tracks = load_course(root)
    except ExerciseError as exc:
        return [str(p) for p in exc.errors]
    _, found = run_lessons(Project(root), [lesson for track in tracks for lesson in track.lessons], runner=runner)
    return [str(p) for p in found if not p.note]


def test_a_lesson_loads_in_course_order_and_its_blocks_run(course, pyodide_runner):
    (track,) = load_course(course)
    assert [item.slug for item in track.items] == ["printing", "add", "double"]
    assert [ex.slug for ex in track.exercises] == ["add", "double"]
    lesson = track.lessons[0]
    assert [(b.line, b.raises) for b in lesson.blocks] == [(3, False)]
    runs, found = run_lessons(Project(course), [lesson], runner=pyodide_runner)
    assert found == []
    (block,) = runs[("basics", "printing")].blocks
    assert (block.output, block.value, block.error) == ("hello\n", "5", None)
    # The right answer of a "what does this print?" question is what Pyodide printed, never typed by the author.
    assert runs[("basics", "printing")].answers == [None, "42\n"]


def test_a_block_that_raises_unexpectedly_fails_at_the_line_that_raised(course, pyodide_runner):
    md = course / "exercises/basics/printing/lesson.md"
    md.write_text(
        LESSON_MD
        + "\nMore.\n\n```python live\nx = {}\nx['missing']\n```\n\n```python live raises\n1 / 0\n```\n"
        + "\n```python live\ndef f(\n```\n"
    )
    # The fence is at line 10; `x['missing']` is the block's second line. A syntax error points at its line too.
    assert problems(course, pyodide_runner) == [
        "exercises/basics/printing/lesson.md:12: live block raised \"KeyError: 'missing'\"; fix it, or mark it "
        "```python live raises``` if it is meant to",
        "exercises/basics/printing/lesson.md:20: live block raised \"SyntaxError: '(' was never closed\"; fix it, "
        "or mark it ```python live raises``` if it is meant to",
    ]


def test_a_block_marked_raises_that_does_not_raise_fails(course, pyodide_runner):
    (course / "exercises/basics/printing/lesson.md").write_text("```python live raises\nprint('fine')\n```\n")
    assert problems(course, pyodide_runner) == [
        "exercises/basics/printing/lesson.md:1: live block is marked `raises` but ran without an error"
    ]


@pytest.mark.parametrize(
    "old, new, message",
    [
        (
            "print(6 * 7)",
            "print(undefined_name)",
            "17: questions[1].code: the snippet fails (NameError: name "
            "'undefined_name' is not defined); its output is the answer, so it must run",
        ),
        ("print(6 * 7)", "x = 6 * 7", "17: questions[1].code: the snippet prints nothing"),
        (
            '- text: "67"',
            '- text: "42"',
            "21: questions[1].wrong[0]: this wrong output is what the snippet really prints",
        ),
    ],
)
def test_a_what_does_this_print_question_without_a_sound_answer_is_refused(course, pyodide_runner, old, new, message):
    (course / "exercises/basics/printing/lesson.yaml").write_text(LESSON_YAML.replace(old, new))
    assert problems(course, pyodide_runner) == [f"exercises/basics/printing/lesson.yaml:{message}"]


@pytest.fixture(scope="module")
def real_course(author_runners):
    """`check` of the real course with its lessons run (nothing else verified): run once for the tests that read what
    the lessons printed."""
    return check(Project(), verify=False, lessons=True, runners=author_runners)


def test_check_of_the_real_course_runs_every_lesson_clean(real_course):
    report = real_course
    assert [str(p) for p in report.problems if not p.note] == []
    lessons = [lesson for track in report.tracks for lesson in track.lessons]
    assert len(lessons) >= 6
    for lesson in lessons:
        assert lesson.blocks and len(lesson.questions) >= 2, lesson.slug


def test_seed_programs_print_what_the_seeds_say(real_course):
    """Seed 000's weather agent (Paris answered, Atlantis refused) and seed 002's parser (prose refused)."""
    runs = real_course.lesson_runs
    weather = runs[("build-an-agent", "recite-the-loop")].blocks[0].output
    assert "STATUS: ok ANSWER: Paris is 18C and cloudy." in weather
    assert "STATUS: ok ANSWER: cannot: unknown city" in weather
    contract = runs[("build-an-agent", "the-action-contract")].blocks[0].output.splitlines()
    assert contract[0] == "ok: {'id': 17, 'status': 'failed', 'error': 'vendor timeout'}"
    assert contract[1].startswith("refused: JSONDecodeError Expecting value")
    assert contract[2].startswith("refused: ValueError keys must be exactly tool and args")


def run_grid(runner, loop=None) -> dict:
    world = (ROOT / "exercises/build-an-agent/agent_sandbox.py").read_text()
    args = {"world": world, "loop": loop}
    (test,) = run_only(runner, source="", sandbox=LAB_SANDBOX, entry=LAB_ENTRY, time_limit=LAB_TIME_LIMIT, args=[args])
    assert test.passed, test
    return test.actual


def test_the_lab_grid_in_pyodide_equals_seed_004(pyodide_runner):
    grid = run_grid(pyodide_runner)
    table = {}
    for cell in grid["cells"]:
        table.setdefault(cell["habit"], []).append((cell["share"], cell["calls"]))
    assert table == SEED_004


def test_the_lab_runs_a_learners_loop_as_a_fourth_column(pyodide_runner):
    source = (ROOT / "exercises/build-an-agent/repeat-guard/solution.py").read_text()
    grid = run_grid(pyodide_runner, source)
    column = {
        design: {c["habit"]: (c["share"], c["calls"]) for c in grid["cells"] if c["design"] == design}
        for design in ("guarded", "yours")
    }
    # The challenge asks for the lab's own guard (a nudge on the third identical call in a row, a stop on the next
    # repeat): its reference solution's column is the guarded design's, figure for figure.
    assert column["yours"] == column["guarded"] == {habit: cells[2] for habit, cells in SEED_004.items()}
    assert grid["loop_error"] is None
    stage4 = run_grid(pyodide_runner, (ROOT / "exercises/build-an-agent/stage-4-loop/solution.py").read_text())
    assert stage4["loop_error"].startswith("ValueError: invalid JSON in tool call")


def test_a_lesson_page_has_its_hooks_callouts_and_no_answer_in_plain_sight(real_course):
    from loopcraft.site.render import render_pages

    tracks, runs = real_course.tracks, real_course.lesson_runs
    pages = render_pages(ROOT / "templates", tracks, "test", lesson_runs=runs)
    lesson = next(item for item in tracks[0].lessons if item.slug == "the-action-contract")
    html = pages["build-an-agent/the-action-contract/index.html"]
    assert html.count('data-testid="live-block"') == len(lesson.blocks)
    assert html.count('data-testid="question"') == len(lesson.questions)
    assert 'data-testid="mark-complete"' in html and 'data-testid="up-next"' in html
    assert '<aside class="callout callout-note" role="note">' in html
    assert '<aside class="callout callout-warning" role="note">' in html
    assert "<table>" in html and "<th>Mistake</th>" in html
    # The recorded output is in the page before any Run.
    assert "ok: {&#39;id&#39;: 17, &#39;status&#39;: &#39;failed&#39;" in html
    for question in lesson.questions:
        for option in question.options:
            assert option.feedback not in html
    assert '"correct"' not in html
    # The lab is the course's last item, after its lessons and challenges.
    # A lesson is numbered among the lessons, never among lessons and challenges together.
    assert "Part 1 of 3" in html and f'data-testid="position">Lesson 1 of {len(tracks[0].lessons)}</li>' in html
    lab = pages["build-an-agent/lab/index.html"]
    assert 'data-testid="lab-table"' in lab and '"entry": "run_grid"' in lab
    assert "Lab · the last of the course" in lab
    last = tracks[0].items[-1]
    assert 'href="../../build-an-agent/lab/"' in pages[f"build-an-agent/{last.slug}/index.html"]
