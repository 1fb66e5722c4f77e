"""Cases that call the entry twice (`call_twice` in exercise.yaml): loaded from a challenge's default or a case's own
flag, run by the runners with both calls' values in the outcome, judged by the one judge (frontend/src/judge.js).
The course's own mutable
default (stage-4-loop's wrong/tools_called_default.py) is caught by its case that calls twice, and by no other.

The grading here is in this process (trusted code: the course's own solutions); tests/js/judge.test.mjs holds the
judge to its rules, and the build's check runs the same cases in Pyodide."""

from __future__ import annotations

from loopcraft.course.errors import ExerciseError
from loopcraft.course.load import find_exercise, load_course
from loopcraft.course.project import Project
from loopcraft.running.grading import grade
from tests.helpers import ROOT, course_copy

TWICE_CASE = "A second run starts with no tools called"


def test_a_mutable_default_is_caught_only_by_the_case_that_calls_twice(in_process_runners):
    ex = find_exercise(ROOT, "stage-4-loop")
    (wrong,) = [w for w in ex.wrong_solutions if w.path.name == "tools_called_default.py"]
    with in_process_runners.lent(Project()) as runner:
        assert grade(ex, ex.solution_source, runner).passed
        learner = grade(ex, wrong.source, runner)
        author = grade(ex, wrong.source, runner, reveal_hidden=True)
    assert [t.name for t in learner.tests if not t.passed] == [TWICE_CASE]
    # The learner's view of the hidden case: what went wrong, and no value (the first call's is the expected one).
    (failed,) = [t.to_dict() for t in learner.tests if not t.passed]
    assert failed["message"] == (
        "Hidden case: called a second time with the same arguments, your result differs from the first."
    )
    assert "expected" not in failed and "actual" not in failed
    note = {"kind": "note", "text": "run_agent() returned; this case calls it a second time, with the same arguments."}
    assert note in failed["trace"]  # the trace goes on with the second call's steps
    # The author's: both values, the first as the expected one and the second as the result, and where they differ.
    (shown,) = [t.to_dict() for t in author.tests if not t.passed]
    assert shown["message"] == (
        "Called a second time with the same arguments, it returned something else (shown as your result): "
        "Differs from expected at: tools_called."
    )
    assert shown["expected"]["tools_called"] == ["word_count"]
    assert shown["actual"]["tools_called"] == ["word_count", "word_count"]


def test_call_twice_comes_from_the_case_or_else_from_the_challenge(tmp_path):
    root = course_copy(tmp_path, ["stage-4-loop"])
    yaml = root / "exercises/build-an-agent/stage-4-loop/exercise.yaml"
    text = yaml.read_text()
    ex = find_exercise(root, "stage-4-loop")
    assert [c.name for c in ex.cases if c.call_twice] == [TWICE_CASE]

    yaml.write_text(
        text.replace("time_limit_seconds: 3\n", "time_limit_seconds: 3\ncall_twice: true\n", 1).replace(
            f"  - name: {TWICE_CASE}\n    hidden: true\n    call_twice: true\n",
            f"  - name: {TWICE_CASE}\n    hidden: true\n    call_twice: false\n",
        )
    )
    ex = find_exercise(root, "stage-4-loop")
    assert [c.name for c in ex.cases if not c.call_twice] == [TWICE_CASE]
    assert len([c for c in ex.cases if c.call_twice]) == len(ex.cases) - 1

    yaml.write_text(text.replace("    call_twice: true\n", "    call_twice: twice\n"))
    try:
        load_course(root)
    except ExerciseError as exc:
        message = str(exc)
    else:
        raise AssertionError("a call_twice that is not a boolean was loaded")
    line = text.splitlines().index("    call_twice: true") + 1
    assert f"exercises/build-an-agent/stage-4-loop/exercise.yaml:{line}:" in message
    assert "call_twice" in message
