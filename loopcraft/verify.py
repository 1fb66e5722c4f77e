"""Prove the exercises right: every reference solution passes every case, every wrong solution fails one.

Solutions run in Pyodide under Node, the interpreter learners use, so a verdict here is the learner's verdict.
Each exercise also gets a case-strength table: which cases catch which wrong solutions.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from grader.results import CaseResult, RunResult, Status

from .cache import BuildCache
from .course import Case, Exercise, WrongSolution
from .errors import Problem
from .grading import grade
from .mutate import runtime_files
from .paths import rel_path
from .project import Project
from .runners import Runner, make_runner

# Every solution runs as solution.py (see grader/execute.py), so its tracebacks name that file.
_TRACEBACK_LINE = re.compile(r'File "solution\.py", line (\d+)')


@dataclass(frozen=True)
class Strength:
    """One exercise's verification: its problems, and the names of the cases that fail each wrong solution
    (None for a wrong solution that does not even load)."""

    exercise: Exercise
    caught: list[tuple[WrongSolution, frozenset[str] | None]]
    problems: list[Problem]

    @property
    def failed(self) -> bool:
        """Some wrong solution passes every case or does not load: the table shows why."""
        return any(not names for _, names in self.caught)

    def table(self) -> str:
        """The case-strength table, e.g.

        basics/add: which case catches which wrong solution (x)
          case               1
          small numbers      x
          negative (hidden)  .  catches none
          1 wrong/subtract.py  caught by 1 case
        """
        ex = self.exercise
        title = f"{ex.track}/{ex.slug}"
        if not self.caught:
            return f"{title}: no wrong solutions, so no case is shown to catch anything"
        labels = [c.name + (" (hidden)" if c.hidden else "") for c in ex.cases]
        width = max(map(len, ["case", *labels]))
        numbers = "".join(f"{i:>3}" for i in range(1, len(self.caught) + 1))
        lines = [f"{title}: which case catches which wrong solution (x)", f"  {'case':<{width}}{numbers}"]
        for case, label in zip(ex.cases, labels, strict=True):
            marks = "".join(
                f"{'?' if names is None else 'x' if case.name in names else '.':>3}" for _, names in self.caught
            )
            lines.append(f"  {label:<{width}}{marks}{'  catches none' if _catches_none(self.caught, case) else ''}")
        files = [_name(ex, wrong) for wrong, _ in self.caught]
        file_width = max(map(len, files))
        number_width = len(str(len(files)))
        for i, (file, (_, names)) in enumerate(zip(files, self.caught, strict=True), start=1):
            verdict = (
                "does not load"
                if names is None
                else "SURVIVES every case"
                if not names
                else f"caught by {len(names)} case{'s' if len(names) > 1 else ''}"
            )
            lines.append(f"  {i:>{number_width}} {file:<{file_width}}  {verdict}")
        return "\n".join(lines)


def verify(
    project: Project,
    exercises: Iterable[Exercise],
    cache: BuildCache | None = None,
    runner: Runner | None = None,
) -> list[Strength]:
    """Run every solution of every exercise, in `runner` (or one of its own); problems (errors and notes) are in each
    Strength. With a cache, a solution's verdicts on unchanged cases come from it, and Pyodide starts only if
    something must run."""
    if runner is None:
        with make_runner("trusted", project) as own:
            return verify(project, exercises, cache, own)
    return [verify_exercise(project.root, runner, ex, cache) for ex in exercises]


def verify_exercise(root: Path, runner, ex: Exercise, cache: BuildCache | None = None) -> Strength:
    runtime = runtime_files() if cache else []
    cases = json.dumps([[c.name, c.args, c.expected, c.hidden] for c in ex.cases], sort_keys=True)

    def run(source: str) -> RunResult:
        # Hidden cases judged as visible: the author needs the difference, not the learner's hint.
        if cache is None:
            return grade(ex, source, runner, reveal_hidden=True)
        key = cache.key("verdicts", source, ex.sandbox_source, ex.entry, str(ex.time_limit_seconds), cases, *runtime)
        kept = cache.get_json("verdicts", key)
        if kept is not None:
            return _result(kept)
        result = grade(ex, source, runner, reveal_hidden=True)
        cache.put_json("verdicts", key, _kept(result))
        return result

    problems = []
    yaml = rel_path(ex.dir / "exercise.yaml", root)
    result = run(ex.solution_source)
    if result.status is Status.ERROR:  # one problem, not the same load error once per case
        problems.append(reference_load_problem(root, ex, result.message))
    else:
        for case, test in zip(ex.cases, result.tests, strict=True):
            if test.status is Status.FAIL:
                why = f"expected {json.dumps(test.expected)}, got {json.dumps(test.actual)}"
                problems.append(reference_case_problem(yaml, case, why))
            elif test.status is not Status.PASS:
                problems.append(reference_case_problem(yaml, case, test.message))
    caught: list[tuple[WrongSolution, frozenset[str] | None]] = []
    for wrong in ex.wrong_solutions:
        result = run(wrong.source)
        if result.status is Status.ERROR:
            # Failing because it does not even load shows nothing about the cases.
            problems.append(
                Problem(
                    rel_path(wrong.path, root),
                    _error_line(result.message) or 1,
                    f"wrong solution cannot be loaded, so it proves nothing: {_last_line(result.message)}",
                )
            )
            caught.append((wrong, None))
            continue
        names = frozenset(test.name for test in result.tests if test.status is not Status.PASS)
        caught.append((wrong, names))
        if not names:
            problems.append(
                Problem(
                    yaml,
                    wrong.line,
                    f"wrong solution {_name(ex, wrong)} passes every case; add a case that catches it "
                    f"(`python build.py strengthen {ex.track}/{ex.slug}` proposes one): {wrong.mistake}",
                )
            )
    if not ex.wrong_solutions:
        problems.append(
            Problem(
                yaml,
                1,
                "no wrong solutions, so nothing shows that the cases catch a mistake; "
                "add a plausible one under wrong/ and list it in wrong_solutions",
                note=True,
            )
        )
    idle = [case for case in ex.cases if _catches_none(caught, case)]
    if len(idle) == 1:
        problems.append(
            Problem(yaml, idle[0].line, f"case {idle[0].name!r} catches none of the wrong solutions", note=True)
        )
    elif idle:
        others = "the one at line" if len(idle) == 2 else "those at lines"
        lines = ", ".join(str(case.line) for case in idle[1:])
        message = f"{len(idle)} cases catch none of the wrong solutions: this one, and {others} {lines}"
        problems.append(Problem(yaml, idle[0].line, message, note=True))
    if not any(case.private for case in ex.cases):
        problems.append(
            Problem(
                yaml,
                ex.cases_line,
                "no private case, so the instructors' grader checks nothing a learner cannot see and hard-code; "
                "add one (`private: true`) at least as strong as the hidden ones",
                note=True,
            )
        )
    return Strength(exercise=ex, caught=caught, problems=problems)


def _kept(result: RunResult) -> dict:
    """What verification reads of a run, to keep in the cache."""
    tests = [
        [t.name, t.status.value, t.message, *(t.to_dict().get(k) for k in ("expected", "actual"))] for t in result.tests
    ]
    return {"status": result.status.value, "message": result.message, "tests": tests}


def _result(kept: dict) -> RunResult:
    tests = [
        CaseResult(name, Status(status), message, expected=expected, actual=actual)
        for name, status, message, expected, actual in kept["tests"]
    ]
    return RunResult(kept["status"], kept["message"], tests)


def reference_load_problem(root: Path, ex: Exercise, message: str) -> Problem:
    """At the line of solution.py that the load error points at."""
    return Problem(
        rel_path(ex.dir / "solution.py", root),
        _error_line(message) or 1,
        f"reference solution cannot be loaded: {_last_line(message)}",
    )


def reference_case_problem(yaml: Path, case: Case, message: str) -> Problem:
    """At the case in exercise.yaml; a traceback is cut to its last line and the line of solution.py it names."""
    where = _error_line(message)
    return Problem(
        yaml,
        case.line,
        f"reference solution fails case {case.name!r}: {_last_line(message)}"
        + (f" (solution.py line {where})" if where else ""),
    )


def _catches_none(caught: list[tuple[WrongSolution, frozenset[str] | None]], case: Case) -> bool:
    """True if some wrong solution loads and every one that loads passes `case`; one that does not load
    proves nothing either way."""
    loaded = [names for _, names in caught if names is not None]
    return bool(loaded) and not any(case.name in names for names in loaded)


def _name(ex: Exercise, wrong: WrongSolution) -> str:
    """A wrong solution as exercise.yaml names it, e.g. wrong/no_reset.py."""
    return Path(os.path.relpath(wrong.path, ex.dir)).as_posix()


def _error_line(message: str) -> int | None:
    """The line of the solution's file that an error happened at: the last one its traceback names."""
    lines = _TRACEBACK_LINE.findall(message)
    return int(lines[-1]) if lines else None


def _last_line(message: str) -> str:
    """The exception of a traceback, so that a problem stays on one line."""
    lines = message.strip().splitlines()
    return lines[-1].strip() if lines else message
