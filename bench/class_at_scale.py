#!/usr/bin/env python3
"""A course-sized class from Canvas's download to every output: 1,000 learners x the course's 13 challenges by default
(goal: at most 15 minutes on the project's 2-core machine), and what a fresh interpreter costs each way, reset in
place against restored from the snapshot, measured in the same run.

    .venv/bin/python bench/class_at_scale.py                     1,000 learners x 13 challenges, --jobs 2
    .venv/bin/python bench/class_at_scale.py --learners 20       a smoke run

The download is made by Canvas's own naming rules (tests/lms_rules.py, from Canvas's source: one zip of every
learner's files, "name_id_attachment_file"), with Canvas's gradebook export as the roster. Each learner hands in,
for every challenge, one of its variants (the reference solution, a wrong solution, the starter, a syntax error),
with a comment of their own so that no two hand-ins are the same bytes. `python -m grader class --lms canvas` then
writes the gradebook, the verdicts, the feedback pages, the class report and Canvas's import and comment files.
Prints a table and writes bench/results/class_at_scale.json.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: this repository's packages

from loopcraft.classroom import course_exercises  # noqa: E402
from loopcraft.course.project import INSTALL as ROOT  # noqa: E402
from loopcraft.course.project import Project  # noqa: E402
from loopcraft.running.grading import grade  # noqa: E402
from loopcraft.running.runners import make_runner  # noqa: E402
from tests.lms_rules import canvas_entry, canvas_export  # noqa: E402

GOAL_S = 15 * 60
ASSIGNMENT = ("Build an Agent", 4242, 100.0)


def variants(ex) -> list[str]:
    return [ex.solution_source, *(w.source for w in ex.wrong_solutions), ex.starter_source, f"def {ex.entry}(:\n"]


def make_download(folder: Path, learners: int, exercises) -> tuple[Path, Path]:
    """Canvas's download zip and gradebook export for `learners` learners handing in every challenge."""
    by_slug = {ex.slug: variants(ex) for ex in exercises}
    roster = []
    download = folder / "submissions.zip"
    with zipfile.ZipFile(download, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(learners):
            user = 10_000 + i
            # Canvas's export names a learner by their sortable name, as its download does (lms_rules.canvas_export).
            name = f"Learner, Number {i:04d}"
            roster.append({"name": name, "id": user, "sis": f"s{i:04d}", "login": f"l{i:04d}"})
            for k, (slug, sources) in enumerate(by_slug.items()):
                source = f"# learner {i}\n" + sources[(i + k) % len(sources)]
                entry = canvas_entry(name, user, f"{slug}.py", attachment=user * 100 + k)
                zf.writestr(entry, source)
    export = folder / "export.csv"
    export.write_bytes(canvas_export(roster, [ASSIGNMENT]))
    return download, export


def fresh_interpreter_cost(exercises, samples: int) -> dict[str, float]:
    """Seconds a submission, graded one after another in one runner of each kind (its start-up excluded)."""
    costs = {}
    for kind in ("fresh", "restored"):
        with closing(make_runner(kind, Project())) as runner:
            grade(exercises[0], exercises[0].solution_source, runner)  # start-up
            times = []
            for i in range(samples):
                ex = exercises[i % len(exercises)]
                started = time.perf_counter()
                grade(ex, variants(ex)[i % 3], runner)
                times.append(time.perf_counter() - started)
            costs[kind] = statistics.median(times)
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--learners", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=26, help="submissions timed for each kind's cost")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "class_at_scale.json")
    args = parser.parse_args()
    exercises = course_exercises(Project())

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        download, export = make_download(tmp, args.learners, exercises)
        costs = fresh_interpreter_cost(exercises, args.samples)
        out = tmp / "out"
        command = [sys.executable, "-m", "grader", "class", str(download), "--out", str(out), "--jobs", str(args.jobs)]
        command += ["--lms", "canvas", "--roster", str(export), "--assignment", ASSIGNMENT[0]]
        command += ["--key", str(tmp / "key")]
        key = tmp / "key"
        key.write_bytes(os.urandom(32))
        key.chmod(0o600)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:  # 3 would be a learner unmatched or ungraded: not a class made by Canvas's rules
            sys.exit(f"grader class failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
        outputs = {
            "gradebook.csv": (out / "gradebook.csv").is_file(),
            "canvas-import.csv": (out / "canvas-import.csv").is_file(),
            "canvas-comments.zip": (out / "canvas-comments.zip").is_file(),
            "report/index.html": (out / "report" / "index.html").is_file(),
            "feedback pages": len(list(out.glob("feedback/*.html"))),
            "verdicts": len(list(out.glob("verdicts/*/*.json"))),
        }

    submissions = args.learners * len(exercises)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    result = {
        "date": time.strftime("%Y-%m-%d"),
        "learners": args.learners,
        "challenges": len(exercises),
        "submissions": submissions,
        "jobs": args.jobs,
        "cores": os.cpu_count(),
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "goal_seconds": GOAL_S,
        "seconds_per_submission": {kind: round(cost, 4) for kind, cost in costs.items()},
        "reset_over_restored": round(costs["fresh"] / costs["restored"], 3),
        "outputs": outputs,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"{submissions} submissions ({args.learners} learners x {len(exercises)} challenges), --jobs {args.jobs}")
    print(f"  Canvas zip to every output       {wall:8.1f} s wall, {cpu:.0f} CPU-s (goal: at most {GOAL_S} s)")
    for kind, cost in costs.items():
        print(f"  one submission, {kind:<9} runner {cost * 1000:8.1f} ms (median of {args.samples})")
    print(f"  reset / restored                 {result['reset_over_restored']:8.3f}x a submission")
    print(f"  outputs                          {outputs}")


if __name__ == "__main__":
    main()
