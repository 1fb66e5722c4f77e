"""Job arrays run whole: a Canvas class graded once on one machine and again as a simulated Slurm array and a
Kubernetes Indexed Job (a run of `class` per index, the variables set as each system sets them, in this process,
grading in the session's in-process runners), each merged: the same files byte for byte. A second proof of the
shards' merge (tests/integration/test_class_grading.py) for shards taken from an array's variables, which
tests/unit/test_job_arrays.py reads."""

from __future__ import annotations

import csv
import json
import os
import stat
from pathlib import Path

import pytest

from loopcraft.course.load import find_exercise
from tests.helpers import course_copy, run_grader
from tests.lms_rules import canvas_entry, canvas_export
from tests.unit.test_job_arrays import slurm
from tests.zips import LIMIT, RIGHT, WRONG, Member, build

OUTPUTS = ["gradebook.json", "gradebook.csv", "canvas-import.csv", "canvas-unmatched.csv", "canvas-comments.zip"]


@pytest.fixture(scope="module")
def course(tmp_path_factory, in_process_runners) -> Path:
    """Four learners of a Canvas assignment (two to grade, two refused at intake), one on the roster handing nothing
    in, and the roster; and the class graded on one machine. Every submission graded is graded again by each array:
    one right and one wrong are all the scores need."""
    root = tmp_path_factory.mktemp("array")
    members = [
        Member(canvas_entry("S11", 11, "limit.py", attachment=100), RIGHT),
        Member(canvas_entry("S13", 13, "mine.py", attachment=102), WRONG),
        Member(canvas_entry("S14", 14, "x.py", attachment=103), "/etc/passwd", mode=stat.S_IFLNK | 0o777),
        Member(canvas_entry("S15", 15, "b.py", attachment=104), "#" * 300_000),
    ]
    (root / "class.zip").write_bytes(build(members))
    # The one challenge's course, worth 2 points (and a course this small loads in no time in every task).
    course = course_copy(root, [LIMIT])
    with (course / "exercises" / "build-an-agent" / "track.yaml").open("a") as f:
        f.write(f"points:\n  {LIMIT}: 2\n")
    title = find_exercise(course, LIMIT).title
    roster = [{"name": f"S{user}", "id": user, "sis": f"s{user}", "login": f"l{user}"} for user in (11, 12, 13, 14, 15)]
    (root / "roster.csv").write_bytes(canvas_export(roster, [(title, 901, 2)]))
    one = run(in_process_runners, root, root / "one")
    assert one.returncode == 3, one.stderr  # S14's and S15's hand-ins ran nothing, and S12 handed nothing in
    return root


def run(runners, root: Path, out: Path, *extra, env: dict[str, str] | None = None):
    argv = ["class", root / "class.zip", "--out", out, "--jobs", "1", "--challenge", LIMIT, "--lms", "canvas"]
    argv += ["--roster", root / "roster.csv", *extra, "--root", root / "course"]
    # Whatever array variables the test's own environment holds, only the simulated system's are set.
    with pytest.MonkeyPatch.context() as patch:
        for name in list(os.environ):
            if name.startswith(("SLURM_", "JOB_COMPLETION", "CI_NODE")):
                patch.delenv(name)
        for name, value in (env or {}).items():
            patch.setenv(name, value)
        return run_grader(runners, *argv)


def array(runners, root: Path, name: str, tasks: list[tuple[dict[str, str], list[str]]]) -> Path:
    """Run every task, each into a folder of its own; merge them."""
    for i, (env, extra) in enumerate(tasks):
        proc = run(runners, root, root / name / f"task-{i}", *extra, env=env)
        # A task names its own learners who need the teacher; the roster's others are the merge's to account for.
        assert proc.returncode in (0, 3) and "nothing handed in" not in proc.stderr, proc.stderr
        assert f"shard {i + 1}/{len(tasks)}, from " in proc.stderr
    shards = [root / name / f"task-{i}" for i in range(len(tasks))]
    lms = ["--lms", "canvas", "--roster", root / "roster.csv", "--root", root / "course"]
    merged = run_grader(runners, "merge", *shards, "--out", root / name / "merged", *lms)
    assert merged.returncode == 3 and "S12 (Canvas user 12): nothing handed in" in merged.stderr, merged.stderr
    return root / name / "merged"


def test_the_one_machine_run_scores_the_challenge_s_points_times_the_share_of_cases_passed(course):
    rows = list(csv.reader((course / "one" / "canvas-import.csv").open(encoding="utf-8")))
    assert rows[1][-1] == "2"  # Points Possible
    book = json.loads((course / "one" / "gradebook.json").read_text())
    cells = {r["lms"].get("canvas"): r["challenges"][LIMIT] for r in book["learners"]}
    scores = {r[1]: r[-1] for r in rows[2:]}
    assert scores["11"] == "2" and "14" not in scores and "15" not in scores  # nothing of theirs ran: no score
    assert float(scores["13"]) == round(2 * cells["13"]["passed"] / cells["13"]["total"], 2) < 2


def test_a_slurm_array_merged_is_the_one_machine_run_byte_for_byte(course, in_process_runners):
    # sbatch --array=1-3: tasks 1, 2 and 3.
    merged = array(in_process_runners, course, "slurm", [(slurm(task, 1, 3), []) for task in (1, 2, 3)])
    for name in OUTPUTS:
        assert (merged / name).read_bytes() == (course / "one" / name).read_bytes(), name


def test_a_kubernetes_indexed_job_merged_is_the_one_machine_run_byte_for_byte(course, in_process_runners):
    # completions: 2, completionMode: Indexed: JOB_COMPLETION_INDEX 0 and 1; the count is given.
    merged = array(
        in_process_runners, course, "k8s", [({"JOB_COMPLETION_INDEX": str(i)}, ["--shards", "2"]) for i in range(2)]
    )
    for name in OUTPUTS:
        assert (merged / name).read_bytes() == (course / "one" / name).read_bytes(), name
