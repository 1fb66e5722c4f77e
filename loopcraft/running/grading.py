"""The one grading core on the host: a learner's source and an exercise in, a verdict out.

Every host-side verdict comes from `grade`: the instructors' CLI (one file, a folder, a whole class), the
build's checks (reference and wrong solutions), `build.py record`, and the tests. The source runs in a runner
(loopcraft/running/runners.py: for learner code always Pyodide under Node, the interpreter learners use), which judges
its outcomes with the page's own judge, frontend/src/judge.js, out of the learner code's reach, and replies with the
verdict; Python only reads it (RunResult.from_dict). The cases go to the runner with their expectations
(`request_case`), and the challenge's known mistakes with them (`mistakes_for`).

`Grader` is how untrusted submissions are graded one after another: whatever a submission does to the runner
ends in a verdict for that submission, and the next one is graded as if it had been alone. `Runners` lends runners
(of one kind) to graders, for a caller that grades many times in one process.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from grader.results import CaseResult, RunResult, failed_submission
from loopcraft.course.cases import Catalogue, call_shown, expectation, run_spec
from loopcraft.course.course import MISSING, Case, Exercise
from loopcraft.course.project import Project

from .runners import Kind, Runner, RunnerError, make_runner

# Said to the learner whose submission took the runner down twice (an instructor sees the runner's own words too).
RUNNER_FAILED = "Grading your code stopped the grader itself, twice, so this submission has no verdict but this error."
# An untrusted submission's cases together run for at most this long (or one time limit, if longer): a submission
# that loops in every case costs that, not a time limit per case (the course's 19 cases at 3 s would take 57 s). A
# case starts only while its whole time limit is left of it; the cases after are errors that say why
# (frontend/src/outcomes.js, notRun). A case that swallows the interrupt may overrun it by the grace the driver
# gives it (session.js) and a new worker.
SUBMISSION_BUDGET_S = 30


def request_case(case: Case, entry: str | list[str], *, reveal_hidden: bool = False) -> dict:
    """A case as a runner takes it, to run and judge (frontend/node-runner.mjs): its run spec and its expectation in
    full (loopcraft/course/cases.py). `reveal_hidden`: judged as a visible case, its values in the verdict (for authors
    only)."""
    return {
        "name": case.name,
        "hidden": case.hidden and not reveal_hidden,
        "private": case.private and not reveal_hidden,
        "call_twice": case.call_twice,
        "run": run_spec(case, entry),
        "expect": expectation(case),
        "call_shown": call_shown(case, entry),
    }


def mistakes_for(catalogue: Catalogue | None) -> dict | None:
    """A challenge's known mistakes as the judge takes them (frontend/src/mistakes.js), or None."""
    if catalogue is None:
        return None
    return {"salt": catalogue.salt, "known": [{"hint": m["hint"], "cases": m["cases"]} for m in catalogue.known]}


def grade(
    exercise: Exercise,
    source: str,
    runner: Runner,
    *,
    cases: list[Case] | None = None,
    reveal_hidden: bool = False,
    budget: float | None = None,
    catalogue: Catalogue | None = None,
) -> RunResult:
    """Run `source` on the exercise's cases (or `cases`) in `runner`, which judges them.

    `reveal_hidden`: judge hidden cases as visible, with expected and actual values (for authors only).
    `budget`: seconds all the cases may take together (none: each case has its limit only).
    `catalogue`: the challenge's known mistakes (loopcraft/authoring/mistakes.py), named in the verdict's cases it matches.
    """
    cases = exercise.cases if cases is None else cases
    # Private cases run last, whatever their place in the course: the cases of a run share one interpreter, so code
    # could keep a private case's arguments (in a file, say) and print them in a later case whose output is shown.
    order = sorted(range(len(cases)), key=lambda i: cases[i].private)
    requests = [request_case(cases[i], exercise.entry, reveal_hidden=reveal_hidden) for i in order]
    document = runner.run(
        source=source,
        sandbox=exercise.sandbox_source,
        cases=requests,
        mistakes=mistakes_for(catalogue),
        time_limit=exercise.time_limit_seconds,
        budget=budget,
    )
    verdict = RunResult.from_dict(document)
    tests = [None] * len(cases)
    for i, test in zip(order, verdict.tests, strict=True):
        tests[i] = test
    verdict.tests = tests
    return verdict


def run_only(
    runner: Runner,
    *,
    source: str,
    sandbox: str,
    entry: str,
    args: list[dict],
    time_limit: float,
    budget: float | None = None,
) -> list[CaseResult]:
    """Our own code run for what it returns, once per mapping of keyword arguments in `args` (a lesson's live
    blocks, the scenario harness, the runners' tests): each case expects nothing, so a value passes and is its
    `actual` (as JSON data); an error or a timeout is its status, with its `message`."""
    cases = [request_case(Case(str(i), one, MISSING, hidden=False, line=0), entry) for i, one in enumerate(args)]
    document = runner.run(source=source, sandbox=sandbox, cases=cases, time_limit=time_limit, budget=budget)
    return RunResult.from_dict(document).tests


class Runners:
    """Runners of one kind (loopcraft/running/runners.py; "fresh" unless said) lent to graders and given back, for a caller
    that grades many times in one process (the tests; a service would be another): a fresh runner starts in about a
    CPU-second, a submission graded in one that is running costs a fraction of that. Lending one is safe as grading
    in it twice is: a fresh runner gives every submission an interpreter of its own (loopcraft/running/pyodide.py), so no
    grader finds anything of another's; a runner that failed is never given back (Grader closes it). A runner serves any project that would
    start the same one (`key`). Thread-safe: a class graded with --jobs N borrows N at once. `close` ends the idle
    ones; the lender closes the pool when done."""

    def __init__(self, kind: Kind = "fresh"):
        self.kind = kind
        self._idle: dict[tuple, list[Runner]] = {}
        self._lock = threading.Lock()
        self._closed = False

    @staticmethod
    def key(project: Project) -> tuple:
        """What a runner is started with, besides the installation's Node, Pyodide and front end: the grader's bytes
        (read once, as it starts: frontend/node-runner.mjs), and where its memory snapshot is kept (loopcraft/running/pyodide.py,
        runner_command and snapshot_file). Two copies of one grader share runners."""
        return project.grader_hash, project.snapshots

    def take(self, project: Project) -> Runner:
        """An idle runner for `project`, or a new one."""
        with self._lock:
            idle = self._idle.get(self.key(project))
            if idle:
                return idle.pop()
        return make_runner(self.kind, project)

    @contextlib.contextmanager
    def lent(self, project: Project) -> Iterator[Runner]:
        """A runner for the `with` block, given back after it; closed instead if the block raised (it may be broken)."""
        runner = self.take(project)
        try:
            yield runner
        except BaseException:
            runner.close()
            raise
        self.give_back(project, runner)

    def give_back(self, project: Project, runner: Runner) -> None:
        with self._lock:
            if not self._closed:
                self._idle.setdefault(self.key(project), []).append(runner)
                return
        runner.close()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle = [runner for runners in self._idle.values() for runner in runners]
            self._idle.clear()
        for runner in idle:
            runner.close()

    def __enter__(self) -> Runners:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@contextlib.contextmanager
def runner_for(project: Project, kind: Kind, runners: Runners | None = None) -> Iterator[Runner]:
    """A runner of `kind` for the `with` block: lent by `runners` (a pool of that kind) when given, else one of its own,
    closed after the block. Commands take a pool so that a caller running many of them (the tests) starts one runner,
    not one a command."""
    if runners is None:
        with contextlib.closing(make_runner(kind, project)) as runner:
            yield runner
        return
    if runners.kind != kind:
        raise ValueError(f"{kind} runners were asked for, and {runners.kind} ones lent")
    with runners.lent(project) as runner:
        yield runner


class Grader:
    """Grades untrusted submissions one after another in a fresh runner of its own, or one lent by `runners` (of
    their kind: the tests lend trusted ones to grade the course's own code).

    A runner that fails during a submission (its process or worker dies, it answers nonsense) is replaced, and the
    submission is graded once more in the new one, so a failure of the machine is not taken for the learner's;
    failing again, the submission's verdict is an error (`RUNNER_FAILED`, and `failures` keeps the runner's own
    words for the instructor). A runner that cannot start at all raises: that is the machine's problem, not any
    learner's. Each submission's cases share a budget of SUBMISSION_BUDGET_S seconds."""

    def __init__(self, project: Project, runners: Runners | None = None):
        self.project = project
        self._runners = runners
        self._runner: Runner | None = None
        self.failures: list[str] = []  # what the runner said each time a submission broke it twice

    def _fresh_runner(self) -> Runner:
        # Made only once something is graded: a fresh runner needs Node and Pyodide.
        if self._runners is not None:
            self._runner = self._runners.take(self.project)
        else:
            self._runner = make_runner("fresh", self.project)
        return self._runner

    def grade(self, exercise: Exercise, source: str, *, catalogue: Catalogue | None = None) -> RunResult:
        """`catalogue`: the challenge's known mistakes, named in the verdict (`grade`)."""
        for attempt in (1, 2):
            runner = self._runner or self._fresh_runner()
            try:
                budget = max(SUBMISSION_BUDGET_S, exercise.time_limit_seconds)
                return grade(exercise, source, runner, budget=budget, catalogue=catalogue)
            except RunnerError as exc:
                self._runner = None
                runner.close()  # failed: never given back
                if exc.kind == "start":  # Python could not start: no submission is to blame
                    raise
                if attempt == 2:
                    self.failures.append(str(exc))
        return failed_submission(exercise.cases, RUNNER_FAILED)

    def close(self) -> None:
        """Ends the grader's runner, or gives it back to the runners it was lent by."""
        runner, self._runner = self._runner, None
        if runner is not None:
            if self._runners is not None:
                self._runners.give_back(self.project, runner)
            else:
                runner.close()

    def __enter__(self) -> Grader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
