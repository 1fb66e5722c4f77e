"""What the Node runner's WebAssembly tiering budget (loopcraft/running/pyodide.py, WASM_TIERING_BUDGET) saves, against V8's
default budget measured in the same run: the CPU time of grading one file (a runner started, one submission graded,
the runner stopped, as `python -m grader SLUG FILE` does) and the work a hot loop gets done in a second.

    .venv/bin/python bench/tiering.py [--rounds 5]

Rounds alternate between the two budgets, so that a busy spell of the machine hits both alike. Goals: one file at
most 0.8x the default's CPU time, and a hot loop at least 0.9x the default's speed.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loopcraft.course.load import find_exercise  # noqa: E402
from loopcraft.course.project import INSTALL as ROOT  # noqa: E402
from loopcraft.course.project import Project  # noqa: E402
from loopcraft.running import pyodide  # noqa: E402
from loopcraft.running.grading import grade, run_only  # noqa: E402
from loopcraft.running.runners import make_runner  # noqa: E402

V8_DEFAULT = 1_800_000
SLUG = "consecutive-error-limit"
# Counts loop turns for `seconds`: the same interpreter work whichever budget compiled it.
SPIN = """def run_agent(task, script, seconds=1.0, **options):
    import time
    turns, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        turns += sum(i * i for i in range(100)) > 0
    return {"turns": turns}
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_file(exercise) -> float:
    """CPU seconds of a runner that starts, grades the reference solution once and stops."""
    before = _children_cpu()
    with closing(make_runner("fresh", Project())) as runner:
        assert grade(exercise, exercise.solution_source, runner).passed
    return _children_cpu() - before


def hot_loop(exercise, seconds: float) -> float:
    """Loop turns a second, on the second of two cases (the first pays for the start-up)."""
    args = {**exercise.cases[0].args, "seconds": seconds}
    with closing(make_runner("fresh", Project())) as runner:
        tests = run_only(
            runner,
            source=SPIN,
            sandbox=exercise.sandbox_source,
            entry="run_agent",
            args=[args, args],
            time_limit=seconds + 5,
        )
    return tests[-1].actual["turns"] / seconds


def measure(rounds: int, seconds: float) -> dict:
    exercise = find_exercise(ROOT, SLUG)
    ours = pyodide.WASM_TIERING_BUDGET
    samples: dict[int, dict[str, list[float]]] = {b: {"cpu": [], "speed": []} for b in (V8_DEFAULT, ours)}
    try:
        for _ in range(rounds):
            for budget in (V8_DEFAULT, ours):
                pyodide.WASM_TIERING_BUDGET = budget  # read by node_command for every runner started
                samples[budget]["cpu"].append(one_file(exercise))
                samples[budget]["speed"].append(hot_loop(exercise, seconds))
    finally:
        pyodide.WASM_TIERING_BUDGET = ours
    median = {b: {k: statistics.median(v) for k, v in s.items()} for b, s in samples.items()}
    return {
        "default": median[V8_DEFAULT],
        "ours": median[ours],
        "budget": ours,
        "cpu_ratio": median[ours]["cpu"] / median[V8_DEFAULT]["cpu"],
        "speed_ratio": median[ours]["speed"] / median[V8_DEFAULT]["speed"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="how long each hot loop runs")
    args = parser.parse_args()
    f = measure(args.rounds, args.seconds)
    print(f"one file, V8's default budget ({V8_DEFAULT:,}): {f['default']['cpu']:.2f} CPU-s (median)")
    print(f"one file, the runner's budget ({f['budget']:,}): {f['ours']['cpu']:.2f} CPU-s (median)")
    print(f"one file: {f['cpu_ratio']:.2f}x the default's CPU time (goal: at most 0.8x)")
    print(f"hot loop: {f['speed_ratio']:.2f}x the default's speed (goal: at least 0.9x)")


if __name__ == "__main__":
    main()
