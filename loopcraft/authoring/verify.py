"""Prove the exercises right: every reference solution passes every case, every wrong solution fails one.

Solutions run in Pyodide under Node, the interpreter learners use, so a verdict here is the learner's verdict.
Each exercise also gets a case-strength table: which cases catch which wrong solutions.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from grader.canonical import canonical_json, encode
from grader.execute import SOLUTION_FILE
from grader.results import CaseResult, RunResult, Status
from loopcraft.course.cache import BuildCache
from loopcraft.course.cases import Catalogue, case_key
from loopcraft.course.course import MISSING, Case, Exercise, WrongSolution
from loopcraft.course.errors import Problem, did_you_mean
from loopcraft.course.paths import rel_path
from loopcraft.course.project import Project
from loopcraft.running.grading import grade
from loopcraft.running.runners import Runner, make_runner

from .mistakes import catalogue, wrong_file
from .mutate import runtime_files
from .progress import progress

# Every solution runs as solution.py (grader/execute.py), so its tracebacks name that file.
_TRACEBACK_LINE = re.compile(rf'File "{re.escape(SOLUTION_FILE)}", line (\d+)')


@dataclass(frozen=True)
class Strength:
    """One exercise's verification: its problems, and the names of the cases that fail each wrong solution
    (None for a wrong solution that does not even load)."""

    exercise: Exercise
    caught: list[tuple[WrongSolution, frozenset[str] | None]]
    problems: list[Problem]
    catalogue: Catalogue | None = (
        None  # what each named wrong solution returns where it fails (loopcraft/authoring/mistakes.py)
    )

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
          secret (private)   x
          1 wrong/subtract.py  caught by 2 cases
        """
        ex = self.exercise
        title = f"{ex.track}/{ex.slug}"
        if not self.caught:
            return f"{title}: no wrong solutions, so no case is shown to catch anything"
        labels = [c.name + (" (private)" if c.private else " (hidden)" if c.hidden else "") for c in ex.cases]
        width = max(map(len, ["case", *labels]))
        numbers = "".join(f"{i:>3}" for i in range(1, len(self.caught) + 1))
        lines = [f"{title}: which case catches which wrong solution (x)", f"  {'case':<{width}}{numbers}"]
        for case, label in zip(ex.cases, labels, strict=True):
            marks = "".join(
                f"{'?' if names is None else 'x' if case.name in names else '.':>3}" for _, names in self.caught
            )
            lines.append(f"  {label:<{width}}{marks}{'  catches none' if _catches_none(self.caught, case) else ''}")
        files = [wrong_file(ex, wrong) for wrong, _ in self.caught]
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
    exercises = list(exercises)
    strengths = []
    with progress(len(exercises), "verifying solutions", "challenge") as bar:
        for ex in exercises:
            strengths.append(verify_exercise(project.root, runner, ex, cache))
            bar.update()
    return strengths


def verify_exercise(root: Path, runner, ex: Exercise, cache: BuildCache | None = None) -> Strength:
    """Run the exercise's reference and wrong solutions and apply each policy to what they did."""
    yaml = rel_path(ex.dir / "exercise.yaml", root)
    reference = verdict(runner, ex, ex.solution_source, cache)
    runs = [(wrong, verdict(runner, ex, wrong.source, cache)) for wrong in ex.wrong_solutions]
    caught = [(wrong, _caught_by(result)) for wrong, result in runs]
    # A reference that defines no function named `entry`: the wrong solutions fail to load on the same, one
    # problem at `entry:` says it.
    lacks_entry = reference.status is Status.ERROR and _lacks_entry(ex, reference.message)
    problems = [
        *reference_passes(root, yaml, ex, reference),
        *([] if lacks_entry else wrong_solutions_caught(root, yaml, ex, runs)),
        *idle_cases(yaml, ex, caught),
        *private_case_exists(yaml, ex),
        *private_values_published(yaml, ex),
    ]
    return Strength(exercise=ex, caught=caught, problems=problems, catalogue=catalogue(ex, runs))


def verdict(runner, ex: Exercise, source: str, cache: BuildCache | None = None) -> RunResult:
    """`source` graded on every case, hidden ones judged as visible (the author needs the difference, not the
    learner's hint), as `RunResult.to_dict` writes it and `from_dict` reads it back: private cases with what they
    returned, no traces, printed output only where a case checks printed text (known mistakes are told by it there:
    mistakes.did; nothing here reads the rest), every part bounded as in any written verdict
    (a value cut short says so in `truncated`). So a verdict is the same whether it was just made or read from
    `cache`, where it is looked for first and kept."""
    key = None
    if cache is not None:
        cases = json.dumps([case_key(c, ex.entry) for c in ex.cases], sort_keys=True)
        parts = (source, ex.sandbox_source, json.dumps(ex.entry), str(ex.time_limit_seconds), cases, *runtime_files())
        key = cache.key("verdicts", "printed output kept", *parts)
        kept = cache.get_json("verdicts", key)
        if kept is not None:
            return RunResult.from_dict(kept)
    result = grade(ex, source, runner, reveal_hidden=True)
    printed = {case.name for case in ex.cases if case.stdout is not None}
    tests = [dataclasses.replace(t, trace=[], output=t.output if t.name in printed else "") for t in result.tests]
    written = RunResult(result.status, result.message, tests).to_dict(private_details=True, hidden_actual=True)
    if cache is not None:
        cache.put_json("verdicts", key, written)
    return RunResult.from_dict(written)


def _caught_by(result: RunResult) -> frozenset[str] | None:
    """The names of the cases a wrong solution fails; None if it does not even load."""
    if result.status is Status.ERROR:
        return None
    return frozenset(test.name for test in result.tests if test.status is not Status.PASS)


def reference_passes(root: Path, yaml: Path, ex: Exercise, result: RunResult) -> list[Problem]:
    """The reference solution loads and passes every case: one problem for a load error, else one per case."""
    if result.status is Status.ERROR:  # one problem, not the same load error once per case
        return [reference_load_problem(root, ex, result.message)]
    problems = []
    for case, test in zip(ex.cases, result.tests, strict=True):
        if test.status is Status.FAIL:
            if case.expected is MISSING:  # it expects a raise or printed text: the judge's message says how it differs
                why = test.message
            else:
                why = f"expected {json.dumps(json.loads(canonical_json(case.expected)))}, got {json.dumps(_returned(test))}"
            problems.append(reference_case_problem(yaml, case, why))
        elif test.status is not Status.PASS:
            problems.append(reference_case_problem(yaml, case, test.message))
    return problems


def _returned(test: CaseResult):
    """What a case returned: its `actual`, or what a private case (written without values but its own) kept."""
    return json.loads(test.actual_json) if test.actual_json is not None else test.actual


def wrong_solutions_caught(
    root: Path, yaml: Path, ex: Exercise, runs: list[tuple[WrongSolution, RunResult]]
) -> list[Problem]:
    """Each wrong solution loads (failing because it does not is no proof of the cases) and fails a case; a
    challenge without any gets a note."""
    if not runs:
        return [
            Problem(
                yaml,
                1,
                "no wrong solutions, so nothing shows that the cases catch a mistake; "
                "add a plausible one under wrong/ and list it in wrong_solutions",
                note=True,
            )
        ]
    problems = []
    for wrong, result in runs:
        names = _caught_by(result)
        if names is None:
            problems.append(
                Problem(
                    rel_path(wrong.path, root),
                    error_line(result.message) or 1,
                    f"wrong solution cannot be loaded, so it proves nothing: {_last_line(result.message)}",
                )
            )
        elif not names:
            problems.append(
                Problem(
                    yaml,
                    wrong.line,
                    f"wrong solution {wrong_file(ex, wrong)} passes every case; add a case that catches it "
                    f"(`python build.py strengthen {ex.track}/{ex.slug}` proposes one): {wrong.mistake}",
                )
            )
    return problems


def idle_cases(yaml: Path, ex: Exercise, caught: list[tuple[WrongSolution, frozenset[str] | None]]) -> list[Problem]:
    """A note at the first case that catches none of the wrong solutions, naming the lines of the others."""
    idle = [case for case in ex.cases if _catches_none(caught, case)]
    if len(idle) == 1:
        return [Problem(yaml, idle[0].line, f"case {idle[0].name!r} catches none of the wrong solutions", note=True)]
    if not idle:
        return []
    others = "the one at line" if len(idle) == 2 else "those at lines"
    lines = ", ".join(str(case.line) for case in idle[1:])
    message = f"{len(idle)} cases catch none of the wrong solutions: this one, and {others} {lines}"
    return [Problem(yaml, idle[0].line, message, note=True)]


def private_case_exists(yaml: Path, ex: Exercise) -> list[Problem]:
    """A note when no case is private: then the instructors' grader checks only what a learner can see."""
    if any(case.private for case in ex.cases):
        return []
    return [
        Problem(
            yaml,
            ex.cases_line,
            "no private case, so the instructors' grader checks nothing a learner cannot see and hard-code; "
            "add one (`private: true`) at least as strong as the hidden ones",
            note=True,
        )
    ]


def private_values_published(yaml: Path, ex: Exercise) -> list[Problem]:
    """An error at each private case whose expected value a published case shows, as its expected value (a hidden
    one's too: its digest is made of the value alone) or as one of its arguments: a learner who reads the page
    could guess it, so the case would check nothing secret."""
    shown: dict[str, str] = {}  # value text: where a published case shows it, the first place only
    for case in ex.cases:
        if case.private:
            continue
        kind = "hidden case" if case.hidden else "case"  # a hidden case's value is in the page as its digest
        if case.expected is not MISSING:
            shown.setdefault(
                canonical_json(case.expected), f"the expected value of {kind} {case.name!r} (line {case.line})"
            )
        arguments = case.args.items() if isinstance(case.args, dict) else enumerate(case.args or [])
        for name, value in arguments:
            shown.setdefault(canonical_json(value), f"argument `{name}` of case {case.name!r} (line {case.line})")
    problems = []
    for case in ex.cases:
        if case.private and case.expected is not MISSING and (where := shown.get(canonical_json(case.expected))):
            problems.append(
                Problem(
                    yaml,
                    case.line,
                    f"private case {case.name!r} expects {encode(case.expected)[1]}, which the page gives away as "
                    f"{where}; choose a value no published case shows",
                )
            )
    return problems


def reference_load_problem(root: Path, ex: Exercise, message: str) -> Problem:
    """At the line of solution.py that the load error points at; at `entry:` in exercise.yaml when the solution
    defines no function of that name, which is as likely a misspelt entry."""
    if _lacks_entry(ex, message):
        functions = _functions(ex.solution_source)
        return Problem(
            rel_path(ex.dir / "exercise.yaml", root),
            ex.entry_line,
            f"entry: solution.py defines no function {ex.entry}(){did_you_mean(ex.entry, functions)}",
        )
    return Problem(
        rel_path(ex.dir / "solution.py", root),
        error_line(message) or 1,
        f"reference solution cannot be loaded: {_last_line(message)}",
    )


def reference_case_problem(yaml: Path, case: Case, message: str) -> Problem:
    """At the case in exercise.yaml; a traceback is cut to its last line and the line of solution.py it names."""
    where = error_line(message)
    return Problem(
        yaml,
        case.line,
        f"reference solution fails case {case.name!r}: {_last_line(message)}"
        + (f" (solution.py line {where})" if where else ""),
    )


def _lacks_entry(ex: Exercise, message: str) -> bool:
    """A load error saying that the solution defines no `entry` (grader/execute.py's `_load` words it so)."""
    return f"does not define {ex.entry}()" in message


def _functions(source: str) -> list[str]:
    """The names of the functions a solution defines at its top level (none if the host cannot parse it)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _catches_none(caught: list[tuple[WrongSolution, frozenset[str] | None]], case: Case) -> bool:
    """True if some wrong solution loads and every one that loads passes `case`; one that does not load
    proves nothing either way."""
    loaded = [names for _, names in caught if names is not None]
    return bool(loaded) and not any(case.name in names for names in loaded)


def error_line(message: str) -> int | None:
    """The line of the solution's file that an error happened at: the last one its traceback names."""
    lines = _TRACEBACK_LINE.findall(message)
    return int(lines[-1]) if lines else None


def _last_line(message: str) -> str:
    """The exception of a traceback, so that a problem stays on one line."""
    lines = message.strip().splitlines()
    return lines[-1].strip() if lines else message


def catalogues(
    project: Project, exercises: list[Exercise], runner: Runner | None = None
) -> dict[tuple[str, str], Catalogue]:
    """{(track, slug): the known mistakes of each of `exercises` (loopcraft/authoring/mistakes.py), from the verdicts the build keeps in the project's build cache; a
    wrong solution whose verdict it does not hold runs in `runner` (or a trusted runner of its own, started only
    then), and its verdict is kept for the next build."""
    if runner is None:
        with make_runner("trusted", project) as own:
            return catalogues(project, exercises, own)
    cache = BuildCache(project.root)
    return {
        (ex.track, ex.slug): catalogue(
            ex, [(wrong, verdict(runner, ex, wrong.source, cache)) for wrong in ex.wrong_solutions if wrong.named]
        )
        for ex in exercises
    }
