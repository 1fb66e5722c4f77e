"""`python -m grader SLUG_OR_PATH SOLUTION.py|FOLDER [--json]`: the instructors' grader.

Runs on the host (it reads the exercise's YAML), executes solutions in Pyodide under Node.js, the
interpreter learners run, and judges in this process, out of the learner code's reach.
Exit codes: 0 every case passes, 1 any case fails, errs or times out, 2 bad input.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .canonical import canonical_json
from .judge import judge_run
from .results import RunResult

ROOT = Path(__file__).resolve().parent.parent

MARKS = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "timeout": "TIMEOUT"}


def _solutions(path: Path) -> list[Path]:
    if path.is_dir():
        files = sorted(p for p in path.glob("*.py") if p.is_file())
        if not files:
            raise FileNotFoundError(f"{path}: no .py files in this folder")
        return files
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    return [path]


def grade_file(runner, exercise, path: Path) -> RunResult:
    try:
        source = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        source = path.read_text(encoding="utf-8", errors="replace")
    cases = [{"name": c.name, "args": c.args} for c in exercise.cases]
    outcomes = runner.run(
        source=source, sandbox=exercise.sandbox_source, entry=exercise.entry, cases=cases, time_limit=exercise.time_limit_seconds
    )
    judged = [{"name": c.name, "hidden": c.hidden, "expected_json": canonical_json(c.expected)} for c in exercise.cases]
    return judge_run(judged, outcomes, exercise.time_limit_seconds)


def format_text(path: Path, result: RunResult) -> str:
    lines = [f"{path}:"]
    for test in result.tests:
        label = f"{test.name} (hidden)" if test.hidden else test.name
        lines.append(f"  {MARKS[test.status.value]:<7} {label}")
        if test.message:
            lines.extend(f"          {line}" for line in test.message.splitlines())
    passed = sum(t.status.value == "pass" for t in result.tests)
    lines.append(f"  {passed} of {len(result.tests)} cases passed: {result.status}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader", description="Grade Loopcraft solutions in Pyodide.")
    parser.add_argument("exercise", help="a challenge slug (e.g. consecutive-error-limit) or the path of its folder")
    parser.add_argument("solution", type=Path, help="a solution .py file, or a folder of them")
    parser.add_argument("--json", action="store_true", help="print an Exercism-style results.json document")
    args = parser.parse_args(argv)

    # Host-only imports: the rest of this package also runs inside Pyodide, which has no loopcraft.
    from loopcraft.errors import LoopcraftError
    from loopcraft.exercises import find_exercise
    from loopcraft.pyodide import PyodideRunner

    try:
        exercise = find_exercise(ROOT, args.exercise)
        files = _solutions(args.solution)
    except (LoopcraftError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        with PyodideRunner() as runner:
            results = [(path, grade_file(runner, exercise, path)) for path in files]
    except LoopcraftError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    if args.json:
        docs = [{"file": str(path), **result.to_dict()} for path, result in results]
        print(json.dumps(docs[0] if len(docs) == 1 and args.solution.is_file() else {"version": 3, "submissions": docs}, indent=2))
    else:
        print("\n\n".join(format_text(path, result) for path, result in results))
        if len(results) > 1:
            print(f"\n{sum(r.passed for _, r in results)} of {len(results)} submissions pass every case")
    return 0 if all(result.passed for _, result in results) else 1
