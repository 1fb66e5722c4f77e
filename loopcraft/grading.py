"""The one grading core on the host: a learner's source and an exercise in, a verdict out.

Every host-side verdict comes from `grade`: the instructors' CLI (one file, a folder, a whole class), the
build's checks (reference and wrong solutions), `build.py record`, and the tests. The source runs in Pyodide
(the runner: Node.js, the interpreter learners use); the outcomes are judged here, in host CPython, by
grader.judge, out of the learner code's reach. The page judges with frontend/src/judge.js, which a property
test holds to the same messages (tests/test_judge_agreement.py).
"""

from __future__ import annotations

from pathlib import Path

from grader.canonical import canonical_json
from grader.judge import judge_run
from grader.results import RunResult

from .exercises import MISSING, Case, Exercise

ROOT = Path(__file__).resolve().parent.parent
# Host-side entry points of the grader package: Pyodide never loads them.
_HOST_ONLY = {"__main__.py"}


def grader_files(root: Path = ROOT) -> list[str]:
    """The grader package as Pyodide loads it (browser and Node alike), e.g. ["grader/__init__.py", ...]."""
    package = root / "grader"
    return sorted(
        path.relative_to(root).as_posix()
        for path in package.rglob("*.py")
        if "__pycache__" not in path.parts and path.relative_to(package).as_posix() not in _HOST_ONLY
    )


def judged_case(case: Case, *, reveal_hidden: bool = False) -> dict:
    """A case as grader.judge takes it. A case with no expected value yet (`record`) passes on any value."""
    judged = {"name": case.name, "hidden": case.hidden and not reveal_hidden}
    if case.expected is not MISSING:
        judged["expected_json"] = canonical_json(case.expected)
    return judged


def grade(
    exercise: Exercise, source: str, runner, *, cases: list[Case] | None = None, reveal_hidden: bool = False
) -> RunResult:
    """Run `source` on the exercise's cases (or `cases`) in the runner's Pyodide and judge the outcomes.

    `reveal_hidden`: judge hidden cases as visible, with expected and actual values (for authors only).
    """
    cases = exercise.cases if cases is None else cases
    outcomes = runner.run(
        source=source,
        sandbox=exercise.sandbox_source,
        entry=exercise.entry,
        cases=[{"name": c.name, "args": c.args} for c in cases],
        time_limit=exercise.time_limit_seconds,
    )
    judged = [judged_case(c, reveal_hidden=reveal_hidden) for c in cases]
    return judge_run(judged, outcomes, exercise.time_limit_seconds)
