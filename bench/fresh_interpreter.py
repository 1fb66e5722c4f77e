"""What a fresh interpreter for every submission costs the Node runner, as a multiple of one plain
Pyodide load measured in the same run (the goal is at most 0.25x).

    .venv/bin/python bench/fresh_interpreter.py [--submissions 10]

Two runners grade the same small submission N times: one restoring a fresh interpreter from its memory
snapshot before each (the default), one reusing a single interpreter (`fresh=False`). The cost of freshness
is the difference per submission; the baseline is the reusing runner's own start-up, a plain loadPyodide()
with the grader imported, as its worker timed it. Neither uses the snapshot kept on disk, which would hide
the load this compares against.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loopcraft.project import Project  # noqa: E402
from loopcraft.pyodide import PyodideRunner  # noqa: E402

SUBMISSION = {
    "source": "def f(n):\n    return n + 1\n",
    "sandbox": "",
    "entry": "f",
    "time_limit": 5,
    "cases": [{"name": str(i), "args": {"n": i}} for i in range(3)],
}


def per_submission(runner: PyodideRunner, count: int) -> list[float]:
    runner.run(**SUBMISSION)  # the first answer waits for the start-up
    times = []
    for _ in range(count):
        started = time.perf_counter()
        runner.run(**SUBMISSION)
        times.append(time.perf_counter() - started)
    return times


def measure(count: int) -> dict:
    with PyodideRunner(Project(), fresh=False, kept_snapshot=False) as reusing:
        reused = per_submission(reusing, count)
        plain_load = reusing.load_ms / 1000
    with PyodideRunner(Project(), kept_snapshot=False) as fresh_runner:
        fresh = per_submission(fresh_runner, count)
        fresh_start = fresh_runner.load_ms / 1000
    cost = statistics.median(fresh) - statistics.median(reused)
    return {
        "plain_load_s": plain_load,
        "fresh_start_s": fresh_start,
        "reused_s": statistics.median(reused),
        "fresh_s": statistics.median(fresh),
        "cost_s": cost,
        "ratio": cost / plain_load,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=10)
    figures = measure(parser.parse_args().submissions)
    print(f"plain Pyodide load (grader imported):        {figures['plain_load_s']:.2f} s")
    print(f"fresh runner's start (load, snapshot, restore): {figures['fresh_start_s']:.2f} s")
    print(f"one submission, one shared interpreter:      {figures['reused_s'] * 1000:.0f} ms (median)")
    print(f"one submission, a fresh interpreter:         {figures['fresh_s'] * 1000:.0f} ms (median)")
    print(
        f"cost of a fresh interpreter: {figures['cost_s'] * 1000:.0f} ms = {figures['ratio']:.2f}x a plain load (goal: at most 0.25x)"
    )


if __name__ == "__main__":
    main()
