"""The runner port: what grading (loopcraft.running.grading) asks of whatever runs a submission's cases, and the one place a
runner is made (`make_runner`): grading takes a `Runner`, or a kind (loopcraft.running.grading.Runners), never a class.

Kinds:

- "fresh": Pyodide under Node (loopcraft/running/pyodide.py), the interpreter learners run, a fresh one per submission
  (reset in place, frontend/src/reset.js, or restored from the snapshot where a reset cannot vouch for it), with
  time limits and a budget. The only kind for learner code: the command line, Gradescope, `record`.
- "restored": "fresh", but every submission's interpreter restored from the snapshot, never reset in place: what
  resets are measured and checked against (bench/fresh_interpreter.py, tests/pyodide/test_reset_in_place.py).
- "trusted": Pyodide under Node, one interpreter for all the author's own code (`pyodide.TrustedRunner`, started on
  its first run): the build's checks (solutions, mutants, scenarios, lessons' live code). The guard still checks
  every case.
- "in-process": this process's CPython running grader.execute directly (`HostRunner`): no Pyodide, tens of
  milliseconds a submission, its outcomes judged by the one judge in a small Node process of this process's
  (loopcraft/running/judging.py: no Pyodide, started once). For trusted code only, the course's own solutions and fixtures
  we wrote, NEVER learner code: nothing stands between the code and this process, and there is no time limit (a
  loop never ends). Its
  messages are this Python's, not Pyodide's: statuses agree, traces and error texts may not (json's and traceback's
  wording changed between versions), and a case whose expected value holds such a message fails here (some of the
  course's parse cases). Tests of what we do with verdicts (gradebooks, LMS files, the report) grade in it; tests of
  the sandbox, of time limits and of the page's agreement with the command line do not.
"""

from __future__ import annotations

import json
import threading
from typing import Literal, Protocol

from loopcraft.course.project import Project

from .judging import shared_judge
from .pyodide import PyodideRunner, RunnerError, TrustedRunner

__all__ = ["KINDS", "HostRunner", "Kind", "Runner", "RunnerError", "make_runner"]

Kind = Literal["fresh", "restored", "trusted", "in-process"]
KINDS: tuple[Kind, ...] = ("fresh", "restored", "trusted", "in-process")


class Runner(Protocol):
    """Runs a submission's cases. A runner that fails itself, not the code it runs, raises RunnerError (its `kind`
    says whether a submission may be to blame); a submission's own failures are outcomes."""

    def run(
        self,
        *,
        source: str,
        sandbox: str,
        cases: list[dict],
        mistakes: dict | None = None,
        time_limit: float,
        budget: float | None = None,
    ) -> dict:
        """The verdict of the cases, judged by the one judge (frontend/src/judge.js): the results document, every
        case's details and hidden values in it (grader/results.py RunResult.to_dict), the cases in order.
        `cases`: as loopcraft.running.grading.request_case makes them, each with its run spec and expectation; `mistakes`:
        the challenge's known mistakes (loopcraft.running.grading.mistakes_for). `time_limit`: seconds a case may take;
        `budget`: seconds all of them may take together (none: each case has its limit only)."""
        ...

    def close(self) -> None: ...


def make_runner(kind: Kind, project: Project) -> Runner:
    """A new runner of `kind` for `project` (a fresh runner starts Node on its first run, or sooner: see
    PyodideRunner)."""
    if kind in ("fresh", "restored"):
        return PyodideRunner(project, reset=kind == "fresh")
    if kind == "trusted":
        return TrustedRunner(project)
    if kind == "in-process":
        return HostRunner()
    raise ValueError(f"no runner of kind {kind!r}: the kinds are {', '.join(KINDS)}")


# One interpreter: its streams, its collector and the guard's baseline are shared by every HostRunner, so runs take
# turns (a class graded with --jobs 2 runs two graders in threads).
_TURN = threading.Lock()


class HostRunner:
    """The "in-process" kind: the cases run here, in this CPython, by grader.execute.run_case, the executor the page and
    Node run (trusted code only: see the module's docstring), and are judged by this process's Node judge
    (loopcraft/running/judging.py). Time limits and budgets are not enforced. Each run leaves the process as it found it, so
    a runner may stay idle in a pool (loopcraft.running.grading.Runners) for long. Under a tracer (coverage, a debugger) every
    case is taken for tampering: the guard allows none."""

    def __init__(self):
        # Imported here: the executor's guard installs an audit hook in the process that imports it, which only this
        # kind needs.
        from grader import execute

        self._execute = execute

    def run(self, *, source, sandbox, cases, mistakes=None, time_limit, budget=None) -> dict:
        outcomes = self.outcomes(source=source, sandbox=sandbox, cases=cases)
        return shared_judge().verdict(cases, outcomes, time_limit=time_limit, mistakes=mistakes)

    def outcomes(self, *, source: str, sandbox: str, cases: list[dict]) -> list[dict]:
        """The cases' outcomes, not yet judged (for a test that changes one before it is judged)."""
        with _TURN, self._execute.baseline_here():  # which keeps the host's heap out of each case's collection
            return [json.loads(self._execute.run_case(source, sandbox, json.dumps(c["run"]))) for c in cases]

    def close(self) -> None:
        """Nothing is held between runs."""
