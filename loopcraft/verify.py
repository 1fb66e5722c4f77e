"""Prove the exercises right: every reference solution passes every case, every wrong solution fails one.

Solutions run in Pyodide under Node, the interpreter learners use, so a verdict here is the learner's verdict.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from grader.canonical import canonical_json
from grader.judge import judge_run
from grader.results import RunResult, Status

from .errors import ExerciseError, Problem
from .exercises import Exercise, rel_path
from .pyodide import PyodideRunner


def verify(root: Path, exercises: Iterable[Exercise]) -> None:
    """Raise ExerciseError with every problem found across all `exercises`."""
    root = root.resolve()
    problems: list[Problem] = []
    with PyodideRunner() as runner:
        for ex in exercises:
            problems += verify_exercise(root, runner, ex)
    if problems:
        raise ExerciseError(problems)


def verify_exercise(root: Path, runner: PyodideRunner, ex: Exercise) -> list[Problem]:
    # Judged as visible cases even when hidden: the author needs the difference, not the learner's hint.
    judged = [{"name": c.name, "hidden": False, "expected_json": canonical_json(c.expected)} for c in ex.cases]
    to_run = [{"name": c.name, "args": c.args} for c in ex.cases]

    def run(source: str) -> RunResult:
        outcomes = runner.run(source=source, sandbox=ex.sandbox_source, entry=ex.entry, cases=to_run,
                              time_limit=ex.time_limit_seconds)
        return judge_run(judged, outcomes, ex.time_limit_seconds)

    problems = []
    solution = rel_path(ex.dir / "solution.py", root)
    result = run(ex.solution_source)
    if result.status == "error":  # one problem, not the same load error once per case
        problems.append(Problem(solution, 1, f"reference solution cannot be loaded: {result.message}"))
    for test in [] if result.status == "error" else result.tests:
        if test.status is not Status.PASS:
            problems.append(Problem(solution, 1, f"reference solution fails case {test.name!r}: {test.message}"))
    for wrong in ex.wrong_solutions:
        where = rel_path(wrong.path, root)
        result = run(wrong.source)
        if result.status == "error":
            # Failing because it does not even load shows nothing about the cases.
            problems.append(Problem(where, 1, "wrong solution cannot be loaded, so it proves nothing: "
                                              f"{result.message}"))
        elif all(test.status is Status.PASS for test in result.tests):
            problems.append(Problem(where, 1, f"wrong solution passes every case; add a case that catches it: "
                                              f"{wrong.mistake}"))
    return problems
