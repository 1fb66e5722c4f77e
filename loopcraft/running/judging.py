"""The one judge (frontend/src/judge.js) for outcomes made outside the Node runner, which judges its own: those of the
in-process runner (loopcraft/running/runners.py HostRunner, trusted code in this CPython) and of tests that make outcomes to
judge. One small Node process (frontend/judge-runner.mjs: the judge's modules, no Pyodide) a Python process, started
on its first verdict and shared by every thread: it costs tens of milliseconds to start and about one a verdict.

Why Node and not a second judge in Python: a verdict is made by one implementation only, the page's (see
docs/architecture.md, "Verdicts"), so that the page, the command line and these tests cannot disagree.
"""

from __future__ import annotations

import atexit
import itertools
import json
import subprocess
import threading

from grader.results import RunResult
from loopcraft.course.errors import LoopcraftError
from loopcraft.course.project import Project

from .pyodide import find_node


class NodeJudge:
    """frontend/judge-runner.mjs, started now, judging one request at a time (callers take turns)."""

    def __init__(self, project: Project):
        frontend = project.frontend.resolve()
        self._proc = subprocess.Popen(
            [
                find_node(project),
                "--experimental-permission",
                f"--allow-fs-read={frontend}/",
                "--disallow-code-generation-from-strings",
                "--no-warnings",
                str(frontend / "judge-runner.mjs"),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self._ids = itertools.count(1)
        self._turn = threading.Lock()

    def verdict(
        self,
        cases: list[dict],
        outcomes: list[dict],
        *,
        time_limit: float,
        mistakes: dict | None = None,
        ended: str | None = None,
    ) -> dict:
        """The results document of `outcomes` (those of the first cases of `cases` that ran), as the Node runner
        replies it. `mistakes`: {salt, known} or None; `ended`: why a run ended before its last case."""
        request = {"cases": cases, "outcomes": outcomes, "time_limit": time_limit, "mistakes": mistakes, "ended": ended}
        with self._turn:
            request["id"] = next(self._ids)
            self._proc.stdin.write((json.dumps(request) + "\n").encode())
            self._proc.stdin.flush()
            line = self._proc.stdout.readline()
        if not line:
            raise LoopcraftError(f"the judge (frontend/judge-runner.mjs) stopped (exit code {self._proc.poll()})")
        reply = json.loads(line)
        if "error" in reply:
            raise LoopcraftError(f"the judge refused a request: {reply['error']}")
        return reply["verdict"]

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.stdin.close()
            self._proc.wait(timeout=10)
        self._proc.stdout.close()


_SHARED: NodeJudge | None = None
_STARTING = threading.Lock()


def shared_judge() -> NodeJudge:
    """This process's judge, started on first use and ended when the process ends."""
    global _SHARED
    with _STARTING:
        if _SHARED is None:
            _SHARED = NodeJudge(Project())
            atexit.register(_SHARED.close)
        return _SHARED


def judge(
    cases: list[dict],
    outcomes: list[dict],
    *,
    time_limit: float,
    mistakes: dict | None = None,
    ended: str | None = None,
) -> RunResult:
    """The verdict of `outcomes`, by the one judge (`NodeJudge.verdict`'s arguments)."""
    document = shared_judge().verdict(cases, outcomes, time_limit=time_limit, mistakes=mistakes, ended=ended)
    return RunResult.from_dict(document)
