"""`python -m grader`: the instructors' grader (grader/__main__.py hands over to `main`).

    python -m grader EXERCISE SOLUTION.py|FOLDER [--json] [--private-details]
                                                             one challenge: a file, or a folder of files
    python -m grader class SUBMISSIONS/ --out DIR [--jobs N] [--shard K/N]
                                                             a whole class: a folder per learner, SLUG.py each
    python -m grader merge DIR1 DIR2 ... --out DIR           join the gradebooks of shards

Solutions run in Pyodide under Node.js, the interpreter learners run; verdicts come from loopcraft.grading, the one
grading core. What a report shows of each case is grader/results.py's rule: a private case's name and status only
(unless --private-details, the instructor's own copy), every part bounded. Exit codes: 0 every case passes (for
`class` and `merge`: the gradebook is written), 1 any case fails, errs or times out, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from grader.results import RunResult, failed_submission

from .classroom.intake import Source, read_solutions
from .errors import LoopcraftError
from .exercises import Exercise, find_exercise
from .grading import Grader
from .printable import lines, one_line
from .project import Project

MARKS = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "timeout": "TIMEOUT"}


def format_text(origin: str, doc: dict) -> str:
    """A submission's report for a terminal, from its written result (bounded, private cases name and status only):
    the file name on one line whatever it holds, every message indented under its case."""
    out = [f"{one_line(origin)}:"]
    for test in doc["tests"]:
        label = (
            f"{one_line(test['name'])} ({'private' if test.get('private') else 'hidden'})"
            if test.get("hidden")
            else one_line(test["name"])
        )
        out.append(f"  {MARKS[test['status']]:<7} {label}")
        out.extend(f"          {line}" for line in lines(test.get("message", "")).splitlines())
    passed = sum(t["status"] == "pass" for t in doc["tests"])
    out.append(f"  {passed} of {len(doc['tests'])} cases passed: {doc['status']}")
    return "\n".join(out)


def _verdict(grader: Grader, exercise: Exercise, source: Source) -> RunResult:
    if source.error is not None:
        private = {c.name for c in exercise.cases if c.private}
        return failed_submission([c.name for c in exercise.cases], source.error, private=private)
    return grader.grade(exercise, source.text)


def _grade_one_exercise(args: argparse.Namespace, project: Project) -> int:
    exercise = find_exercise(project.root, args.exercise)
    sources = read_solutions(args.solution)
    with Grader(project) as grader:
        results = [(source, _verdict(grader, exercise, source)) for source in sources]
    for failure in grader.failures:
        print(f"warning: a submission stopped the runner twice; it said: {one_line(failure)[:2000]}", file=sys.stderr)
    docs = [(source.origin, result.to_dict(private_details=args.private_details)) for source, result in results]
    if args.json:
        files = [{"file": origin, **doc} for origin, doc in docs]
        one = len(files) == 1 and not args.solution.is_dir()
        print(json.dumps(files[0] if one else {"version": 3, "submissions": files}, separators=(",", ":")))
    else:
        print("\n\n".join(format_text(origin, doc) for origin, doc in docs))
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
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--root",
        type=Path,
        default=None,
        help="the course's project folder, holding exercises/ (default: this installation's)",
    )
    if command == "class":
        parser = argparse.ArgumentParser(
            prog=prog,
            parents=[common],
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
        parser = argparse.ArgumentParser(
            prog=prog, parents=[common], description="Join the gradebooks of shards into one."
        )
        parser.add_argument("shards", type=Path, nargs="+", help="the --out folders of `class --shard` runs")
        parser.add_argument("--out", type=Path, required=True)
    else:
        parser = argparse.ArgumentParser(
            prog=prog,
            parents=[common],
            description="Grade Loopcraft solutions in Pyodide.",
            epilog="Also: `python -m grader class --help`, `python -m grader merge --help`.",
        )
        parser.add_argument(
            "exercise", help="a challenge slug (e.g. consecutive-error-limit) or the path of its folder"
        )
        parser.add_argument("solution", type=Path, help="a solution .py file, or a folder of them")
        parser.add_argument("--json", action="store_true", help="print an Exercism-style results.json document")
        parser.add_argument(
            "--private-details",
            action="store_true",
            help="show private cases in full (messages, output, values): for the instructor only, never to be "
            "handed to learners, whose private cases it would make public",
        )
    return parser


def main(argv: list[str] | None = None) -> int:
    # Learner text may hold anything, lone surrogates included: a report prints it escaped rather than crash.
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(errors="backslashreplace")
    argv = sys.argv[1:] if argv is None else argv
    command = argv[0] if argv and argv[0] in ("class", "merge") else None
    args = _parser(command).parse_args(argv[1:] if command else argv)
    project = Project() if args.root is None else Project(args.root)
    try:
        if command is None:
            return _grade_one_exercise(args, project)
        from . import classroom

        if command == "class":
            return classroom.main_class(args, project)
        return classroom.main_merge(args, project)
    except LoopcraftError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
