#!/usr/bin/env python3
"""The class's report and feedback pages for a generated course-sized class: how long `write_outputs` takes (the
gradebook, a feedback page per learner and the report, similarity included) for 1,000 learners x 13 challenges.

    .venv/bin/python bench/class_report.py                  1,000 learners, every challenge of the course
    .venv/bin/python bench/class_report.py --learners 100   a smoke run

Verdicts are generated, not graded in Pyodide: each challenge's reference solution, its wrong solutions, its starter
and a syntax error are graded once by the real judge (loopcraft.running.grading.grade), run in this CPython (they are the
course's own, trusted code: the "trusted" runner of loopcraft/running/runners.py), and each learner gets one of them as
their verdict, with a source of their own, a few learners copying another's code renamed: the generator that makes
the tests' classes (tests/class_fixture.py).

Reported: CPU seconds of the whole output and of its parts (reading and feedback pages; the report with
similarity), against a baseline measured in the same run: reading every verdict file (JSON only, no validation),
the least any renderer of the store must do. Writes bench/results/class_report.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: this repository's packages

from loopcraft.classroom import course_exercises, write_outputs  # noqa: E402
from loopcraft.classroom.store import VerdictStore  # noqa: E402
from loopcraft.course.project import INSTALL as ROOT  # noqa: E402
from loopcraft.course.project import Project  # noqa: E402
from loopcraft.running.runners import make_runner  # noqa: E402
from tests.class_fixture import generate  # noqa: E402

GOAL_S = 30.0


def cpu() -> float:
    """CPU seconds of this process and its children (esbuild, when a bundle is not in the build cache yet)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=1000)
    args = parser.parse_args()
    project = Project()
    exercises = course_exercises(project)
    folder = Path(tempfile.mkdtemp(prefix="class-report-"))
    try:
        started = cpu()
        with closing(make_runner("trusted", project)) as runner:
            doc = generate(folder, exercises, args.learners, runner=runner)
        generated = cpu() - started
        files = sorted(folder.glob("verdicts/*/*.json"))
        started = cpu()
        for path in files:
            json.loads(path.read_text(encoding="utf-8"))
        baseline = cpu() - started
        started, wall = cpu(), time.perf_counter()
        write_outputs(folder, doc, VerdictStore(folder), exercises)
        whole, wall = cpu() - started, time.perf_counter() - wall
        pages = len(list(folder.glob("feedback/*.html")))
        size = (
            sum(p.stat().st_size for p in folder.glob("feedback/*.html"))
            + (folder / "report/index.html").stat().st_size
        )
        figures = {
            "learners": args.learners,
            "challenges": len(exercises),
            "verdicts": len(files),
            "generate_cpu_s": round(generated, 2),
            "baseline_read_cpu_s": round(baseline, 2),
            "write_outputs_cpu_s": round(whole, 2),
            "write_outputs_wall_s": round(wall, 2),
            "ratio_to_baseline": round(whole / baseline, 1) if baseline else None,
            "feedback_pages": pages,
            "output_mb": round(size / 1e6, 1),
            "goal_s": GOAL_S,
            "within_goal": max(whole, wall) < GOAL_S,
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(
        f"{figures['learners']} learners x {figures['challenges']} challenges ({figures['verdicts']} verdicts): "
        f"write_outputs {figures['write_outputs_cpu_s']} CPU-s, {figures['write_outputs_wall_s']} s (goal < {GOAL_S:g} s), "
        f"{figures['ratio_to_baseline']}x reading the verdict files alone ({figures['baseline_read_cpu_s']} CPU-s); "
        f"{figures['feedback_pages']} feedback pages and the report, {figures['output_mb']} MB"
    )
    results = ROOT / "bench" / "results"
    results.mkdir(exist_ok=True)
    (results / "class_report.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
