"""`python -m grader`: the instructors' grader (grader/__main__.py hands over to `main`).

    python -m grader EXERCISE SOLUTION.py|FOLDER [--json]     one challenge: a file, or a folder of files
    python -m grader class SUBMISSIONS/ --out DIR [--jobs N] [--shard K/N]
                                                             a whole class: a folder per learner, SLUG.py each
    python -m grader merge DIR1 DIR2 ... --out DIR           join the gradebooks of shards

Solutions run in Pyodide under Node.js, the interpreter learners run; verdicts come from loopcraft.grading.grade,
the one grading core. Exit codes: 0 every case passes (for `class` and `merge`: the gradebook is written),
1 any case fails, errs or times out, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from grader.results import RunResult

from .errors import LoopcraftError
from .exercises import find_exercise
from .grading import ROOT, grade
from .pyodide import PyodideRunner

MARKS = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "timeout": "TIMEOUT"}


def read_source(path: Path) -> str:
    """A submission's text; bytes that are not UTF-8 become U+FFFD, so a bad file is a verdict, not a crash."""
    return path.read_bytes().decode("utf-8", errors="replace")


def _solutions(path: Path) -> list[Path]:
    if path.is_dir():
        files = sorted(p for p in path.glob("*.py") if p.is_file())
        if not files:
            raise FileNotFoundError(f"{path}: no .py files in this folder")
        return files
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    return [path]


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


def _grade_one_exercise(args: argparse.Namespace) -> int:
    try:
        exercise = find_exercise(ROOT, args.exercise)
        files = _solutions(args.solution)
    except (LoopcraftError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    with PyodideRunner() as runner:
        results = [(path, grade(exercise, read_source(path), runner)) for path in files]

    if args.json:
        docs = [{"file": str(path), **result.to_dict()} for path, result in results]
        one = len(docs) == 1 and args.solution.is_file()
        print(json.dumps(docs[0] if one else {"version": 3, "submissions": docs}, indent=2))
    else:
        print("\n\n".join(format_text(path, result) for path, result in results))
        if len(results) > 1:
            print(f"\n{sum(r.passed for _, r in results)} of {len(results)} submissions pass every case")
    return 0 if all(result.passed for _, result in results) else 1


def _shard(text: str) -> tuple[int, int]:
    try:
        k, n = (int(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N (e.g. 1/4)") from None
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(f"{text!r}: K must be between 1 and N")
    return k, n


def _jobs(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of runners, 1 or more")
    return int(text)


def _parser(command: str | None) -> argparse.ArgumentParser:
    prog = "python -m grader" + (f" {command}" if command else "")
    if command == "class":
        parser = argparse.ArgumentParser(
            prog=prog,
            description="Grade a whole class: SUBMISSIONS holds a folder per "
            "learner, with one SLUG.py per challenge (or a progress export).",
        )
        parser.add_argument("submissions", type=Path, help="a folder with a folder per learner")
        parser.add_argument(
            "--out",
            type=Path,
            required=True,
            help="where gradebook.csv, gradebook.json and each verdict go; grading again with the same --out resumes",
        )
        parser.add_argument("--jobs", type=_jobs, default=None, help="runners in parallel (default: the cores)")
        parser.add_argument(
            "--shard",
            type=_shard,
            default=(1, 1),
            metavar="K/N",
            help="grade only the K-th of N equal shares of the learners",
        )
    elif command == "merge":
        parser = argparse.ArgumentParser(prog=prog, description="Join the gradebooks of shards into one.")
        parser.add_argument("shards", type=Path, nargs="+", help="the --out folders of `class --shard` runs")
        parser.add_argument("--out", type=Path, required=True)
    else:
        parser = argparse.ArgumentParser(
            prog=prog,
            description="Grade Loopcraft solutions in Pyodide.",
            epilog="Also: `python -m grader class --help`, `python -m grader merge --help`.",
        )
        parser.add_argument(
            "exercise", help="a challenge slug (e.g. consecutive-error-limit) or the path of its folder"
        )
        parser.add_argument("solution", type=Path, help="a solution .py file, or a folder of them")
        parser.add_argument("--json", action="store_true", help="print an Exercism-style results.json document")
    return parser


def main(argv: list[str] | None = None) -> int:
    # Learner text may hold anything, lone surrogates included: a report prints it escaped rather than crash.
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(errors="backslashreplace")
    argv = sys.argv[1:] if argv is None else argv
    command = argv[0] if argv and argv[0] in ("class", "merge") else None
    args = _parser(command).parse_args(argv[1:] if command else argv)
    try:
        if command is None:
            return _grade_one_exercise(args)
        from . import classroom

        if command == "class":
            return classroom.main_class(args)
        return classroom.main_merge(args)
    except LoopcraftError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
