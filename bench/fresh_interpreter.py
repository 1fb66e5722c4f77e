"""What a fresh interpreter for every submission costs the Node runner: reset in place (frontend/src/reset.js) against
restored from the memory snapshot, both measured in the same run (goals: a reset at most 30 ms of CPU, at most 0.12x
a restore), and each against one plain Pyodide load.

    .venv/bin/python bench/fresh_interpreter.py [--submissions 20]

Three runners grade the same small submission N times: one reusing a single interpreter (`fresh=False`: the work of
grading itself), one resetting its interpreter before each submission (the "fresh" kind), one restoring it from the
snapshot before each ("restored"). A fresh interpreter's cost is the difference per submission from the reusing
runner, in CPU-seconds of the runner's process (Node, its worker thread included: /proc/PID/stat) and in wall time.
The baseline for "a plain load" is the reusing runner's own start-up, a plain loadPyodide() with the grader
imported, as its worker timed it; none of the runners uses the snapshot kept on disk, which would hide that load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loopcraft.course.project import Project  # noqa: E402
from loopcraft.running.grading import run_only  # noqa: E402
from loopcraft.running.pyodide import PyodideRunner  # noqa: E402

SUBMISSION = {
    "source": "def f(n):\n    return n + 1\n",
    "sandbox": "",
    "entry": "f",
    "time_limit": 5,
    "args": [{"n": i} for i in range(3)],
}
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    """User and system CPU-seconds of a process, its threads included."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def per_submission(runner: PyodideRunner, count: int) -> tuple[float, float]:
    """(median wall seconds, mean CPU-seconds) a submission."""
    run_only(runner, **SUBMISSION)  # the first answer waits for the start-up
    run_only(runner, **SUBMISSION)  # and the second for the first renew of its kind
    pid = runner._proc.pid
    times = []
    cpu = cpu_s(pid)
    for _ in range(count):
        started = time.perf_counter()
        run_only(runner, **SUBMISSION)
        times.append(time.perf_counter() - started)
    return statistics.median(times), (cpu_s(pid) - cpu) / count


def measure(count: int) -> dict:
    with PyodideRunner(Project(), fresh=False, kept_snapshot=False) as reusing:
        reused = per_submission(reusing, count)
        plain_load = reusing.load_ms / 1000
    runs = {}
    for kind, reset in (("reset", True), ("restored", False)):
        with PyodideRunner(Project(), reset=reset, kept_snapshot=False) as runner:
            wall, cpu = per_submission(runner, count)
            made = dict(runner.made)
        runs[kind] = {"wall_s": wall - reused[0], "cpu_s": cpu - reused[1], "made": made}
    return {
        "plain_load_s": plain_load,
        "reused_wall_s": reused[0],
        "reused_cpu_s": reused[1],
        **{f"{kind}_{k}": v for kind, run in runs.items() for k, v in run.items()},
        "ratio_cpu": runs["reset"]["cpu_s"] / runs["restored"]["cpu_s"],
        "ratio_wall": runs["reset"]["wall_s"] / runs["restored"]["wall_s"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=20)
    f = measure(parser.parse_args().submissions)
    print(f"plain Pyodide load (grader imported):     {f['plain_load_s']:.2f} s")
    print(
        f"one submission, one shared interpreter:   {f['reused_wall_s'] * 1000:.1f} ms wall, "
        f"{f['reused_cpu_s'] * 1000:.1f} ms CPU"
    )
    for kind in ("reset", "restored"):
        print(
            f"a fresh interpreter, {kind + ':':<10}         {f[f'{kind}_wall_s'] * 1000:.1f} ms wall, "
            f"{f[f'{kind}_cpu_s'] * 1000:.1f} ms CPU, {f[f'{kind}_wall_s'] / f['plain_load_s']:.3f}x a plain load "
            f"(interpreters made: {f[f'{kind}_made']})"
        )
    print(
        f"reset / restore: {f['ratio_cpu']:.3f}x in CPU, {f['ratio_wall']:.3f}x in wall time "
        "(goals: a reset at most 30 ms of CPU, at most 0.12x a restore)"
    )


if __name__ == "__main__":
    main()
