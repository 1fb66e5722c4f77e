#!/usr/bin/env python3
"""A generated class graded by `python -m grader class`: throughput against this machine's ideal, and proof that
sharding, merging and resuming after a crash give the gradebook of one uninterrupted run.

    .venv/bin/python bench/class_grading.py                 100 learners x 2 challenges, --jobs 2 (a few minutes)
    .venv/bin/python bench/class_grading.py --learners 10   a smoke run

The ideal is measured in the same run: the cost of one submission (a fresh interpreter, every case run and
judged) graded one after another by one runner, so that cores / cost is what the machine could do at best.
Prints a table and writes bench/results/class.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: this repository's packages

from loopcraft.course.load import find_exercise  # noqa: E402
from loopcraft.course.project import INSTALL as ROOT  # noqa: E402
from loopcraft.course.project import Project  # noqa: E402
from loopcraft.running.grading import grade  # noqa: E402
from loopcraft.running.runners import make_runner  # noqa: E402

CHALLENGES = ["consecutive-error-limit", "dispatch-registry"]
GOAL = 0.8  # of the ideal


def variants(slug: str) -> list[str]:
    """What learners hand in for a challenge: the reference solution, each plausible mistake, a syntax error."""
    folder = ROOT / "exercises" / "build-an-agent" / slug
    sources = [(folder / "solution.py").read_text()]
    sources += [p.read_text() for p in sorted((folder / "wrong").glob("*.py"))]
    return [*sources, "def run_agent(:\n"]


def make_class(folder: Path, learners: int) -> int:
    by_slug = {slug: variants(slug) for slug in CHALLENGES}
    for i in range(learners):
        learner = folder / f"learner-{i:04d}"
        learner.mkdir(parents=True)
        for slug, sources in by_slug.items():
            (learner / f"{slug}.py").write_text(sources[i % len(sources)])
    return learners * len(CHALLENGES)


def submission_cost(samples: int) -> float:
    """Seconds per submission for one runner grading one submission after another (its start-up excluded)."""
    exercises = [find_exercise(ROOT, slug) for slug in CHALLENGES]
    with closing(make_runner("fresh", Project())) as runner:
        grade(exercises[0], exercises[0].solution_source, runner)  # start-up
        started = time.perf_counter()
        for i in range(samples):
            ex = exercises[i % len(exercises)]
            grade(ex, variants(ex.slug)[i % 3], runner)
        return (time.perf_counter() - started) / samples


def grader(*args) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "grader", *map(str, args)], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"grader {' '.join(map(str, args))} failed:\n{proc.stderr}")
    return proc


def crash_and_resume(klass: Path, out: Path, jobs: int, after: int) -> int:
    """Kill a class run once `after` verdicts are written, then resume it; returns the verdicts kept."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "grader", "class", str(klass), "--out", str(out), "--jobs", str(jobs)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    while len(list(out.glob("verdicts/*/*.json"))) < after and proc.poll() is None:
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    kept = len(list(out.glob("verdicts/*/*.json")))
    grader("class", klass, "--out", out, "--jobs", jobs)
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--learners", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=20, help="submissions timed for the per-submission cost")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "class.json")
    args = parser.parse_args()
    cores = os.cpu_count() or 1

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        total = make_class(tmp / "class", args.learners)
        cost = submission_cost(args.samples)
        started = time.perf_counter()
        grader("class", tmp / "class", "--out", tmp / "whole", "--jobs", args.jobs)
        wall = time.perf_counter() - started
        for k in (1, 2):
            grader("class", tmp / "class", "--out", tmp / f"shard{k}", "--shard", f"{k}/2", "--jobs", args.jobs)
        grader("merge", tmp / "shard1", tmp / "shard2", "--out", tmp / "merged")
        kept = crash_and_resume(tmp / "class", tmp / "crashed", args.jobs, after=total // 2)
        same = {
            where: all(
                (tmp / "whole" / name).read_bytes() == (tmp / where / name).read_bytes()
                for name in ("gradebook.json", "gradebook.csv")
            )
            for where in ("merged", "crashed")
        }
        shutil.rmtree(tmp / "class")

    rate = total / wall * 60
    ideal = cores / cost * 60
    result = {
        "learners": args.learners,
        "submissions": total,
        "jobs": args.jobs,
        "cores": cores,
        "seconds_per_submission_one_runner": round(cost, 3),
        "wall_seconds": round(wall, 1),
        "submissions_per_minute": round(rate, 1),
        "ideal_per_minute": round(ideal, 1),
        "share_of_ideal": round(rate / ideal, 3),
        "goal": GOAL,
        "crash_kept_verdicts": kept,
        "merged_and_resumed_equal_whole": all(same.values()),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"{total} submissions ({args.learners} learners x {len(CHALLENGES)}), --jobs {args.jobs}, {cores} cores")
    print(f"  one submission, one runner      {cost * 1000:8.0f} ms")
    print(f"  class graded in                 {wall:8.1f} s  = {rate:.0f} submissions/min")
    print(f"  ideal (cores / cost)            {ideal:8.0f} submissions/min")
    print(f"  share of ideal                  {rate / ideal:8.2f}   (goal: at least {GOAL})")
    print(f"  sharded in 2 + merged == whole  {same['merged']}")
    print(f"  crashed after {kept} verdicts, resumed == whole: {same['crashed']}")
    if not all(same.values()):
        sys.exit("the merged or resumed gradebook differs from the whole run's")


if __name__ == "__main__":
    main()
