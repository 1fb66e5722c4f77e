"""How long the loop lab's whole grid takes in Pyodide (Node), against the floor: a trivial run-case request
timed in the same process, the same run. The page's figure is this plus one message each way.

    .venv/bin/python bench/lab_grid.py [--repeat 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: this repository's packages

from loopcraft.authoring.lessons import LAB_ENTRY, LAB_SANDBOX, LAB_TIME_LIMIT  # noqa: E402
from loopcraft.course.project import INSTALL as ROOT  # noqa: E402
from loopcraft.course.project import Project  # noqa: E402
from loopcraft.running.grading import run_only  # noqa: E402
from loopcraft.running.runners import make_runner  # noqa: E402


def timed(run) -> float:
    started = time.perf_counter()
    run()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=10)
    repeat = parser.parse_args().repeat
    world = (ROOT / "exercises/build-an-agent/agent_sandbox.py").read_text()
    loop = (ROOT / "exercises/build-an-agent/repeat-guard/solution.py").read_text()
    with closing(make_runner("fresh", Project())) as runner:

        def floor():
            run_only(runner, source="def f():\n    return 2\n", sandbox="", entry="f", args=[{}], time_limit=3)

        def grid(with_loop):
            args = {"world": world, "loop": with_loop}
            (test,) = run_only(
                runner, source="", sandbox=LAB_SANDBOX, entry=LAB_ENTRY, time_limit=LAB_TIME_LIMIT, args=[args]
            )
            assert test.passed, test

        floor(), grid(None)  # warm: Python started, grader.lab imported
        results = {
            name: statistics.median(timed(run) for _ in range(repeat))
            for name, run in [
                ("floor (one trivial case)", floor),
                ("grid, 144 runs", lambda: grid(None)),
                ("grid + learner loop, 192 runs", lambda: grid(loop)),
            ]
        }
    base = results["floor (one trivial case)"]
    for name, ms in results.items():
        print(f"{name:32} {ms:8.1f} ms  {ms / base:6.1f}x the floor")


if __name__ == "__main__":
    main()
