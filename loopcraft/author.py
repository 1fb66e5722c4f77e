"""The authors' commands (and the Gradescope autograder's build): `loopcraft build|check|serve|new|record|
gradescope|strengthen` (loopcraft/command.py), or `python build.py ...` from the project's folder.

python build.py [build] [--out site] [--no-verify]    build the site
python build.py check [SLUG|PATH] [--no-verify]        load, validate and verify (one challenge or lesson); write nothing
python build.py serve [--host H] [--port P] [--no-isolation] [--no-build] [--out site]
python build.py new [--lesson] TRACK/SLUG              scaffold a challenge (or a lesson) that passes `check`
python build.py record SLUG                            fill in the cases' missing `expected` values
python build.py gradescope SLUG... [--out autograder.zip]   a Gradescope autograder for these challenges
python build.py strengthen SLUG [--accept [--private]] search generated scenarios for the cases a challenge misses
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

from loopcraft.authoring.record import record
from loopcraft.authoring.scaffold import KINDS, new_challenge, new_lesson
from loopcraft.authoring.scenarios import GeneratorError
from loopcraft.authoring.strengthen import SEED, STRENGTHEN_SCENARIOS, accept, proposal_text, strengthen, unreached_text
from loopcraft.course.cases import expected_text
from loopcraft.course.course import MISSING
from loopcraft.course.errors import ExerciseError, LoopcraftError, raise_errors
from loopcraft.course.project import INSTALL, Project
from loopcraft.running.grading import Runners, runner_for
from loopcraft.site.build import build, check
from loopcraft.site.serve import make_server, url
from loopcraft.site.watch import DevServer

from .classroom import gradescope

NO_VERIFY_WARNING = "warning: --no-verify: solutions were not run; do not publish this build"


def parse_args(argv: list[str], prog: str = "build.py") -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Build, check or serve the Loopcraft site; scaffold challenges and record their expected values.",
    )
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--root", type=Path, default=INSTALL, help="project root (default: the folder of build.py)")
    verify = argparse.ArgumentParser(add_help=False)
    verify.add_argument("--no-verify", action="store_true", help="skip running the solutions (local iteration only)")
    site = argparse.ArgumentParser(add_help=False)
    site.add_argument("--out", type=Path, help="site folder (default: site/ in the project root)")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("build", parents=[common, verify, site], help="build the site (the default command)")
    check = commands.add_parser(
        "check",
        parents=[common, verify],
        help="load and validate the course, verify the exercises (or one challenge or lesson), show which cases "
        "catch which wrong solutions; write nothing",
    )
    check.add_argument(
        "item",
        metavar="SLUG|PATH",
        nargs="?",
        help="check only this challenge or lesson: its slug, TRACK/SLUG, or a path to its folder or a file in it",
    )
    serve = commands.add_parser(
        "serve",
        parents=[common, verify, site],
        help="build, serve the site locally, rebuild on changes and reload the page",
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--no-isolation",
        action="store_true",
        help="leave out the security headers (COOP/COEP, CSP), as a host that sends none would",
    )
    serve.add_argument(
        "--no-build",
        action="store_true",
        help="serve the existing site folder as it is: no build, no watching, no reloading",
    )
    new = commands.add_parser("new", parents=[common], help="scaffold a challenge or a lesson (and its track if new)")
    new.add_argument("name", metavar="TRACK/SLUG", help="e.g. build-an-agent/retry-policy")
    new.add_argument("--lesson", action="store_true", help="a lesson (lesson.yaml and lesson.md), not a challenge")
    new.add_argument(
        "--kind",
        choices=list(KINDS),
        default="function",
        help="the challenge's shape: a function (cases by args), a class (cases by call and setup) or a program "
        "(cases by stdin and stdout)",
    )
    record = commands.add_parser(
        "record",
        parents=[common],
        help="run the reference solution on the cases that have no `expected` and "
        "write what it returns into exercise.yaml",
    )
    record.add_argument("exercise", metavar="SLUG", help="a challenge: SLUG, TRACK/SLUG or its folder")
    gradescope = commands.add_parser(
        "gradescope",
        parents=[common],
        help="write a Gradescope autograder (setup.sh, run_autograder, the grader) for one challenge or several",
    )
    gradescope.add_argument("challenges", nargs="+", metavar="SLUG", help="e.g. consecutive-error-limit")
    gradescope.add_argument("--out", type=Path, default=Path("autograder.zip"), help="default: autograder.zip")
    strengthen = commands.add_parser(
        "strengthen",
        parents=[common],
        help="run generated scenarios on the reference and on what the cases miss (surviving mutants, wrong "
        "solutions), and propose the cases that catch them",
    )
    strengthen.add_argument("exercise", metavar="SLUG", help="a challenge: SLUG, TRACK/SLUG or its folder")
    strengthen.add_argument("--seed", type=int, default=SEED, help=f"the scenarios' seed (default {SEED})")
    strengthen.add_argument(
        "--scenarios",
        type=int,
        default=STRENGTHEN_SCENARIOS,
        help=f"how many scenarios to generate (default {STRENGTHEN_SCENARIOS})",
    )
    strengthen.add_argument("--accept", action="store_true", help="write the proposed cases into exercise.yaml")
    strengthen.add_argument("--private", action="store_true", help="with --accept: as private cases, not hidden ones")
    if not argv or argv[0] not in [*commands.choices, "-h", "--help"]:
        argv = ["build", *argv]  # `build` is the default command
    return parser.parse_args(argv)


def main(argv: list[str] | None = None, prog: str = "build.py", *, runners: Runners | None = None) -> int:
    """The author's command line. `runners`: trusted runners (loopcraft.running.grading.Runners) that `check`, `build` and
    `strengthen` borrow instead of starting their own, for a caller that runs many commands in one process."""
    args = parse_args(sys.argv[1:] if argv is None else argv, prog)
    project = Project(args.root)
    root = project.root
    if getattr(args, "no_verify", False) and not getattr(args, "no_build", False):
        print(NO_VERIFY_WARNING, file=sys.stderr)
    try:
        if args.command == "new":
            _new(root, args.name, lesson=args.lesson, kind=args.kind)
        elif args.command == "record":
            _record(project, args.exercise)
        elif args.command == "gradescope":
            count = gradescope.build(project, args.challenges, args.out)
            print(f"Wrote {args.out}: {count} files; upload it as the assignment's autograder (docs/teachers.md)")
        elif args.command == "strengthen":
            _strengthen(project, args, runners)
        elif args.command == "check":
            _check(project, args, runners)
        elif args.command == "serve" and not args.no_build:
            _serve_dev(project, (args.out or root / "site").resolve(), args)
        elif args.command == "serve":
            _serve(args.out or root / "site", args.host, args.port, isolation=not args.no_isolation)
        else:
            out = (args.out or root / "site").resolve()
            report = build(project, out, verify=not args.no_verify, runners=runners)
            print(f"Built {out}: {_count(report.tracks)}{report.notes_aside()}")
    except ExerciseError as exc:
        _print(exc.problems)
        print(f"{len(exc.errors)} problem(s); nothing was written", file=sys.stderr)
        return 1
    except LoopcraftError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def _check(project: Project, args: argparse.Namespace, runners: Runners | None) -> None:
    report = check(project, verify=not args.no_verify, only=args.item, runners=runners)
    # Tables only where they explain an error, or for the one challenge checked: the course's fit on one screen.
    for strength in report.strengths:
        if report.only is not None or strength.failed:
            print(strength.table(), end="\n\n")
    for score in report.scores:
        name = f"{score.exercise.track}/{score.exercise.slug}"
        print(score.summary(report.scenarios.get(name)))
    raise_errors(report.problems)
    _print(report.problems)
    checked = _count(report.tracks) if report.only is None else f"{report.only.track}/{report.only.slug}"
    print(("\n" if report.scores else "") + f"OK: {checked}" + ("" if args.no_verify else ", all verified"))


def _strengthen(project: Project, args: argparse.Namespace, runners: Runners | None) -> None:
    try:
        with runner_for(project, "trusted", runners) as runner:
            result = strengthen(project, args.exercise, seed=args.seed, count=args.scenarios, runner=runner)
    except GeneratorError as exc:
        raise ExerciseError([exc.problem]) from None
    ex = result.exercise
    name = f"{ex.track}/{ex.slug}"
    told = len(result.missed) - len(result.untold)
    print(
        f"{name}: {result.scenarios} generated scenarios (seed {result.seed}) against the {len(result.missed)} "
        f"program(s) the cases miss ({_missed(result.missed)})."
    )
    if result.invalid:
        print(f"The reference solution does not answer {result.invalid} of them: `check` shows one.")
    if result.proposals:
        print(
            f"{told} of them differ from the reference on some scenario; these {len(result.proposals)} case(s) catch them:\n"
        )
        for proposal in result.proposals:
            print(proposal_text(proposal, private=args.private))
    if result.untold:
        print("No scenario tells these apart from the reference (equivalent, or beyond what the generator makes):")
        for program in result.untold:
            print(f"  {program.describe()}")
        if unreached := unreached_text(result):
            print(unreached, end="")
    if not result.proposals:
        print("Nothing to propose.")
    elif args.accept:
        yaml = accept(project.root, result, private=args.private)
        kind = "private" if args.private else "hidden"
        print(
            f"Wrote {len(result.proposals)} {kind} case(s) into {yaml.as_posix()}: review their names, then run "
            f"`python build.py check {name}`."
        )
    else:
        print(
            f"Write them into exercise.yaml with `python build.py strengthen {name} --accept` (as hidden cases; "
            "`--private` for private ones), then give them names that say the rule they check."
        )


def _missed(programs) -> str:
    mutants = sum(program.kind == "mutant" for program in programs)
    return f"{mutants} mutant(s), {len(programs) - mutants} wrong solution(s)"


def _new(root: Path, name: str, *, lesson: bool = False, kind: str = "function") -> None:
    made = new_lesson(root, name) if lesson else new_challenge(root, name, kind)
    for path in made.created:
        print(f"created {path.as_posix()}")
    if made.listed and made.track_yaml not in made.created:
        print(f"listed {name.partition('/')[2]} in {made.track_yaml.as_posix()}")
    print(
        "Next: edit these files, then run `python build.py check` (`python build.py serve` shows the page as you edit)."
    )


def _record(project: Project, name: str) -> None:
    yaml, recorded = record(project, name)
    for case in recorded:
        said = ("expected " if case.expected is not MISSING else "") + expected_text(case)
        print(f"{yaml.as_posix()}:{case.line}: case {case.name!r}: {said}")
    if recorded:
        print(
            f"Recorded {len(recorded)} expected value(s) from the reference solution: review them, then run "
            "`python build.py check`."
        )
    else:
        print(f"Nothing to record: every case in {yaml.as_posix()} has an expected value.")


def _print(problems) -> None:
    for problem in problems:
        print(problem, file=sys.stderr)


def _serve_dev(project: Project, out: Path, args: argparse.Namespace) -> None:
    isolation = not args.no_isolation
    with DevServer(project, out, args.host, args.port, isolation=isolation, verify=not args.no_verify) as dev:
        watched = ", ".join(f"{path.relative_to(project.root).as_posix()}/" for path in dev.watched)
        print(
            f"{_serving(out, url(dev.server), isolation)}; rebuilding when {watched} change; Ctrl+C to stop", flush=True
        )
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass


def _serve(site: Path, host: str, port: int, isolation: bool) -> None:
    if not site.is_dir():
        raise LoopcraftError(f"no site at {site}; build it first")
    server = make_server(site.resolve(), host, port, isolation)
    print(f"{_serving(site, url(server), isolation)}; Ctrl+C to stop", flush=True)
    with server:
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


def _serving(site: Path, address: str, isolation: bool) -> str:
    return f"Serving {site} at {address} ({'cross-origin isolated' if isolation else 'no isolation'})"


def _count(tracks) -> str:
    challenges = sum(len(t.exercises) for t in tracks)
    return f"{len(tracks)} track(s), {challenges} challenge(s)"
