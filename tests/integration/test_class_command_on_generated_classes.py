"""The class command on generated class folders (tests/unit/test_class_intake.py's, whose intake that file proves
in this process): graded in the session's Pyodide runners, it ends with a gradebook row per learner, the exit status
that says whether the teacher is needed, and no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from loopcraft.classroom.intake import read_folder
from tests.helpers import course_copy, run_grader
from tests.unit.test_class_intake import EXERCISES, SLUG, classes, write_class


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    return course_copy(tmp_path_factory.mktemp("course"), [SLUG])


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(klass=classes)
def test_the_class_command_ends_with_a_row_per_learner_and_no_traceback(tmp_path_factory, course, runners, klass):
    # In this process, grading in the session's runners: its intake is read_folder, which the test above already
    # runs here on such folders (FIFOs, links to /proc/self/mem and all).
    folder = tmp_path_factory.mktemp("class")
    if not write_class(folder, klass):
        return
    out = tmp_path_factory.mktemp("out")
    proc = run_grader(runners, "class", folder, "--out", out, "--root", course, "--jobs", "1")
    rows = json.loads((out / "gradebook.json").read_text())["learners"]
    # 3: everything written, but some hand-in could not be taken whole (listed for the teacher).
    # Exit 3 exactly when someone needs the teacher: a hand-in not taken, or one nothing of which could be run.
    needs = any(r["error"] or any(c["status"] == "unread" for c in r["challenges"].values()) for r in rows)
    assert proc.returncode == (3 if needs else 0), proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(rows) == len(read_folder(folder, EXERCISES))
