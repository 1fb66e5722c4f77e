"""The class's outputs written again in another Python process (its own str hash salt) are the same bytes: the class
report's and the feedback pages' tests (tests/unit/test_class_report.py) prove what the bytes say, in this one."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.helpers import ROOT
from tests.unit import test_class_report

klass = test_class_report.klass  # the fixture: the class, graded once per module


def test_outputs_are_the_same_bytes_in_another_process(klass, tmp_path):
    """Similarity's fingerprints hash alike in every process (Python salts str hashes anew in each), so a class
    written again, as `merge` or a resumed run does, gives the same bytes; a feedback page of a learner no longer
    in the gradebook is removed."""
    again = tmp_path / "again"
    (again / "feedback").mkdir(parents=True)
    (again / "feedback" / "gone.html").write_text("old")
    os.symlink(klass / "verdicts", again / "verdicts")
    (again / "gradebook.json").write_bytes((klass / "gradebook.json").read_bytes())
    script = (
        "import json, sys; from pathlib import Path\n"
        "from loopcraft.classroom import course_exercises\nfrom loopcraft.classroom.outputs import write_outputs\n"
        "from loopcraft.classroom.store import VerdictStore\nfrom loopcraft.course.project import Project\n"
        "out = Path(sys.argv[1]); doc = json.loads((out / 'gradebook.json').read_text())\n"
        "exs = [ex for ex in course_exercises(Project()) if ex.slug in doc['challenges']]\n"
        "write_outputs(out, doc, VerdictStore(out), exs)\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-c", script, str(again)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert not (again / "feedback" / "gone.html").exists()
    for name in ["report/index.html", *(f"feedback/{p.name}" for p in (klass / "feedback").glob("*.html"))]:
        assert (again / name).read_bytes() == (klass / name).read_bytes(), name
