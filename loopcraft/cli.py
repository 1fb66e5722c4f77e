"""`python -m grader`: the instructors' grader (grader/__main__.py hands over to `main`).

    python -m grader EXERCISE SOLUTION.py|FOLDER [--json] [--private-details]
                                                             one challenge: a file, or a folder of files
    python -m grader class SUBMISSIONS/|SUBMISSIONS.zip --out DIR [--jobs N] [--shard K/N | --shards N]
                     [--challenge SLUG] [--key FILE] [--lms canvas|moodle --roster FILE [--assignment NAME]
                     [--points N] [--missing blank|zero]]
                                                             a whole class: a folder per learner, SLUG.py each, or a
                                                             zip of that, or Canvas's or Moodle's download
    python -m grader merge DIR1 DIR2 ... --out DIR [--key FILE] [--regrade] [--lms canvas|moodle --roster FILE]
                                                             join the gradebooks of shards

Solutions run in Pyodide under Node.js, the interpreter learners run; verdicts come from loopcraft.running.grading, the one
grading core. What a report shows of each case is grader/results.py's rule: a private case's name and status only
(unless --private-details, the instructor's own copy), every part bounded. Exit codes: 0 every case passes (for
`class` and `merge`: everything is written and every learner graded and, with --lms, matched), 1 any case fails,
errs or times out, 2 bad input (for `merge`: a verdict or gradebook the verdict key did not sign as it is, too),
3 (`class`, `merge`) everything is written, but a learner or a file of the download was not graded, or a learner is
not in the LMS's import: the run's last lines list each, with why. `class` signs every verdict and gradebook with the
teacher's verdict key (loopcraft/classroom/signing.py), and keeps, as `merge` takes, only what that key signed.

`main(argv, runners)` grades in runners lent by the caller (loopcraft.running.grading.Runners) instead of starting its own:
a process that runs many commands (the tests) pays for a runner's start once.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from grader.results import VERSION, RunResult, failed_submission
from loopcraft.authoring.mistakes import said
from loopcraft.authoring.verify import catalogues
from loopcraft.classroom.printable import lines, one_line
from loopcraft.course.cases import Catalogue
from loopcraft.course.course import Exercise
from loopcraft.course.errors import LoopcraftError
from loopcraft.course.load import find_exercise
from loopcraft.course.project import Project
from loopcraft.running.grading import Grader, Runners

from .classroom.intake import Source, read_solutions
from .classroom.lms import LMSS, MISSING_RULES

MARKS = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "timeout": "TIMEOUT"}


def format_text(origin: str, result: RunResult, *, private_details: bool = False) -> str:
    """A submission's report for a terminal, from its result as written (bounded, private cases name and status
    only unless `private_details`): the file name on one line whatever it holds, every message indented under its
    case, then each known mistake the verdict names (RunResult.mistakes)."""
    doc = result.to_dict(private_details=private_details)
    out = [f"{one_line(origin)}:"]
    for test in doc["tests"]:
        label = (
            f"{one_line(test['name'])} ({'private' if test.get('private') else 'hidden'})"
            if test.get("hidden")
            else one_line(test["name"])
        )
        out.append(f"  {MARKS[test['status']]:<7} {label}")
        out.extend(f"          {line}" for line in lines(test.get("message", "")).splitlines())
    out.extend(f"  {one_line(said(hint))}" for hint in result.mistakes)
    out.append(f"  {result.passed_count} of {result.total} cases passed: {result.status.value}")
    return "\n".join(out)


def _verdict(grader: Grader, exercise: Exercise, source: Source, known: Catalogue) -> RunResult:
    if source.error is not None:
        return failed_submission(exercise.cases, source.error)
    return grader.grade(exercise, source.text, catalogue=known)


def _grade_one_exercise(args: argparse.Namespace, project: Project, runners: Runners | None) -> int:
    exercise = find_exercise(project.root, args.exercise)
    sources = read_solutions(args.solution)
    # Sent with the cases, so that the judge names the mistakes a failing submission looks like: from the build cache,
    # where `check` or `build` left the wrong solutions' verdicts (else they run once, and are kept there).
    known = catalogues(project, [exercise])[exercise.track, exercise.slug]
    with Grader(project, runners) as grader:
        results = [(source, _verdict(grader, exercise, source, known)) for source in sources]
    for failure in grader.failures:
        print(f"warning: a submission stopped the runner twice; it said: {one_line(failure)[:2000]}", file=sys.stderr)
    if args.json:
        files = [{"file": s.origin, **r.to_dict(private_details=args.private_details)} for s, r in results]
        one = len(files) == 1 and not args.solution.is_dir()
        print(json.dumps(files[0] if one else {"version": VERSION, "submissions": files}, separators=(",", ":")))
    else:
        texts = [format_text(s.origin, r, private_details=args.private_details) for s, r in results]
        print("\n\n".join(texts))
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


def shard_of(shard: tuple[int, int] | None, shards: int | None, env: dict[str, str]) -> tuple[tuple[int, int], str]:
    """Which share of the learners this run grades, and whence that came: `--shard K/N`, else the index of a job
    array's task (Slurm's SLURM_ARRAY_TASK_ID and _MIN, _STEP, _COUNT; a Kubernetes Indexed Job's
    JOB_COMPLETION_INDEX, with `--shards N`; GitLab CI's parallel jobs' CI_NODE_INDEX and CI_NODE_TOTAL), else all."""
    if shard is not None:
        if shards is not None and shards != shard[1]:
            raise LoopcraftError(f"--shard {shard[0]}/{shard[1]} and --shards {shards} disagree")
        return shard, ""

    def number(name: str) -> int:
        value = env.get(name, "").strip()
        if not value.isdigit():
            raise LoopcraftError(f"{name}={env.get(name)!r} is not a whole number (is this a job array's task?)")
        return int(value)

    if "SLURM_ARRAY_TASK_ID" in env:
        task, first = number("SLURM_ARRAY_TASK_ID"), number("SLURM_ARRAY_TASK_MIN")
        step = number("SLURM_ARRAY_TASK_STEP") if "SLURM_ARRAY_TASK_STEP" in env else 1
        count = number("SLURM_ARRAY_TASK_COUNT")
        k, n, whence = (task - first) // max(step, 1) + 1, count, f"SLURM_ARRAY_TASK_ID={task}"
        if (task - first) % max(step, 1) or not 1 <= k <= n:
            raise LoopcraftError(
                f"Slurm's array task {task} (from {first}, step {step}, {count} tasks) is not one of a range: "
                "submit the array as --array=0-(N-1), or give --shard K/N"
            )
    elif "JOB_COMPLETION_INDEX" in env:
        if shards is None:
            raise LoopcraftError("JOB_COMPLETION_INDEX is set: give --shards N, N being the Job's completions")
        k, n, whence = number("JOB_COMPLETION_INDEX") + 1, shards, f"JOB_COMPLETION_INDEX={env['JOB_COMPLETION_INDEX']}"
    elif "CI_NODE_INDEX" in env and "CI_NODE_TOTAL" in env:
        k, n, whence = number("CI_NODE_INDEX"), number("CI_NODE_TOTAL"), f"CI_NODE_INDEX={env['CI_NODE_INDEX']}"
    elif shards is not None:
        raise LoopcraftError(
            "--shards N needs the index of a job array's task (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX); "
            "outside one, give --shard K/N"
        )
    else:
        return (1, 1), ""
    if shards is not None and shards != n:
        raise LoopcraftError(f"--shards {shards}, but {whence} is one of {n}")
    if not 1 <= k <= n:
        raise LoopcraftError(f"{whence}: shard {k} of {n} does not exist")
    return (k, n), whence


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number, 1 or more")
    return int(text)


def _points(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1e6:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of points above 0")
    return value


def _jobs(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of runners, 1 or more")
    return int(text)


def _lms_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lms", choices=LMSS, help="also write DIR/LMS-import.csv, the scores in that LMS's gradebook import layout"
    )
    parser.add_argument(
        "--roster",
        type=Path,
        metavar="FILE",
        help="the LMS's gradebook export (Canvas: Grades > Export; Moodle: the assignment's grading worksheet or "
        "the gradebook's plain text export), to match learners with",
    )
    parser.add_argument(
        "--assignment",
        metavar="NAME",
        help="the roster's column to fill with the whole score (its title, with or without Canvas's ' (id)', or "
        "the id); default: a column per challenge, named as the export names an assignment of its title",
    )
    parser.add_argument(
        "--points",
        type=_points,
        metavar="N",
        help="what the column is worth in the LMS (default: the export's Points Possible or Maximum Grade, else "
        "the challenges' points)",
    )
    parser.add_argument(
        "--missing",
        choices=MISSING_RULES,
        default="blank",
        help="a roster learner with nothing handed in: blank, so the LMS keeps what it has (default), or zero",
    )


def _key_option(parser: argparse.ArgumentParser, does: str) -> None:
    parser.add_argument(
        "--key",
        type=Path,
        metavar="FILE",
        help=f"the verdict key that {does}: 32 or more random bytes that only you can read, outside every class "
        "folder; one file for every machine of a job array (default: $XDG_CONFIG_HOME/loopcraft/verdict-key, "
        "else ~/.config/loopcraft/verdict-key, made on first use)",
    )


def _parser(command: str | None, name: str) -> argparse.ArgumentParser:
    prog = name + (f" {command}" if command else "")
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
        parser.add_argument(
            "submissions",
            type=Path,
            help="a folder with a folder per learner, or a zip: of such a folder, or Canvas's or Moodle's download",
        )
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
            default=None,
            metavar="K/N",
            help="grade only the K-th of N equal shares of the learners (default: from a Slurm job array's, a "
            "Kubernetes Indexed Job's or GitLab's parallel job's variables, else all)",
        )
        parser.add_argument(
            "--shards",
            type=_count,
            default=None,
            metavar="N",
            help="in a job array whose system does not say how many tasks it has (a Kubernetes Indexed Job): N",
        )
        parser.add_argument(
            "--challenge",
            metavar="SLUG",
            help="an assignment of one challenge: each learner's one Python file is its solution, whatever its name",
        )
        _key_option(parser, "signs each verdict (a verdict in --out that it did not sign is graded again)")
        _lms_options(parser)
    elif command == "merge":
        parser = argparse.ArgumentParser(
            prog=prog, parents=[common], description="Join the gradebooks of shards into one."
        )
        parser.add_argument("shards", type=Path, nargs="+", help="the --out folders of `class --shard` runs")
        parser.add_argument("--out", type=Path, required=True)
        _key_option(parser, "signed the shards' verdicts (the one their `class` runs were given)")
        parser.add_argument(
            "--regrade",
            action="store_true",
            help="grade again, from the source it holds, every verdict the key did not sign (edited, or graded with "
            "another key) instead of refusing the merge; the shards are then trusted for what was handed in, and by "
            "whom, but not for any verdict",
        )
        _lms_options(parser)
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


def main(argv: list[str] | None = None, runners: Runners | None = None, prog: str = "python -m grader") -> int:
    # Learner text may hold anything, lone surrogates included: a report prints it escaped rather than crash.
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(errors="backslashreplace")
    argv = sys.argv[1:] if argv is None else argv
    command = argv[0] if argv and argv[0] in ("class", "merge") else None
    args = _parser(command, prog).parse_args(argv[1:] if command else argv)
    project = Project() if args.root is None else Project(args.root)
    try:
        if command is None:
            return _grade_one_exercise(args, project, runners)
        from . import classroom

        lms = {name: getattr(args, name) for name in ("lms", "roster", "assignment", "points", "missing")}
        if command == "class":
            shard, whence = shard_of(args.shard, args.shards, dict(os.environ))
            if whence:
                print(f"shard {shard[0]}/{shard[1]}, from {whence}", file=sys.stderr)
            return classroom.grade_class(
                project=project, submissions=args.submissions, out=args.out, jobs=args.jobs, shard=shard,
                challenge=args.challenge, runners=runners, key_file=args.key, **lms,
            )  # fmt: skip
        return classroom.merge_shards(
            project=project, shards=args.shards, out=args.out, key_file=args.key, regrade=args.regrade,
            runners=runners, **lms,
        )  # fmt: skip
    except LoopcraftError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
