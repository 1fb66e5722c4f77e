#!/usr/bin/env python3
"""Loopcraft's command line.

python build.py [build] [--out site] [--no-verify]    build the site
python build.py check [--no-verify]                    load, validate and verify; write nothing
python build.py serve [--host H] [--port P] [--no-isolation] [--no-build] [--out site]
python build.py new TRACK/SLUG                         scaffold a challenge that passes `check`
python build.py record SLUG                            fill in the cases' missing `expected` values
python build.py gradescope SLUG... [--out autograder.zip]   a Gradescope autograder for these challenges
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path

from loopcraft import gradescope
from loopcraft.build import build, check
from loopcraft.errors import ExerciseError, LoopcraftError, raise_errors
from loopcraft.record import record
from loopcraft.scaffold import new_challenge
from loopcraft.serve import make_server, url
from loopcraft.watch import DevServer

ROOT = Path(__file__).resolve().parent
NO_VERIFY_WARNING = "warning: --no-verify: solutions were not run; do not publish this build"


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="build.py",
        description="Build, check or serve the Loopcraft site; scaffold challenges and record their expected values.",
    )
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--root", type=Path, default=ROOT, help="project root (default: the folder of build.py)")
    verify = argparse.ArgumentParser(add_help=False)
    verify.add_argument("--no-verify", action="store_true", help="skip running the solutions (local iteration only)")
    site = argparse.ArgumentParser(add_help=False)
    site.add_argument("--out", type=Path, help="site folder (default: site/ in the project root)")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("build", parents=[common, verify, site], help="build the site (the default command)")
    commands.add_parser(
        "check",
        parents=[common, verify],
        help="load, validate and verify the exercises, show which cases catch which wrong solutions; write nothing",
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
    new = commands.add_parser("new", parents=[common], help="scaffold a challenge (and its track if new)")
    new.add_argument("name", metavar="TRACK/SLUG", help="e.g. build-an-agent/retry-policy")
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
    if not argv or argv[0] not in [*commands.choices, "-h", "--help"]:
        argv = ["build", *argv]  # `build` is the default command
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    root = args.root.resolve()
    if getattr(args, "no_verify", False) and not getattr(args, "no_build", False):
        print(NO_VERIFY_WARNING, file=sys.stderr)
    try:
        if args.command == "new":
            _new(root, args.name)
        elif args.command == "record":
            _record(root, args.exercise)
        elif args.command == "gradescope":
            count = gradescope.build(root, args.challenges, args.out)
            print(f"Wrote {args.out}: {count} files; upload it as the assignment's autograder (docs/teachers.md)")
        elif args.command == "check":
            report = check(root, verify=not args.no_verify)
            for strength in report.strengths:
                print(strength.table(), end="\n\n")
            for score in report.scores:
                print(score.summary())
            raise_errors(report.problems)
            _print(report.problems)
            print(
                ("\n" if report.scores else "")
                + f"OK: {_count(report.tracks)}"
                + ("" if args.no_verify else ", all verified")
            )
        elif args.command == "serve" and not args.no_build:
            _serve_dev(root, (args.out or root / "site").resolve(), args)
        elif args.command == "serve":
            _serve(args.out or root / "site", args.host, args.port, isolation=not args.no_isolation)
        else:
            out = (args.out or root / "site").resolve()
            report = build(root, out, verify=not args.no_verify)
            for score in report.scores:
                print(score.summary())
            _print(report.problems)
            print(f"Built {out}: {_count(report.tracks)}")
    except ExerciseError as exc:
        _print(exc.problems)
        print(f"{len(exc.errors)} problem(s); nothing was written", file=sys.stderr)
        return 1
    except LoopcraftError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def _new(root: Path, name: str) -> None:
    made = new_challenge(root, name)
    for path in made.created:
        print(f"created {path.as_posix()}")
    if made.listed and made.track_yaml not in made.created:
        print(f"listed {name.partition('/')[2]} in {made.track_yaml.as_posix()}")
    print(
        "Next: edit these files, then run `python build.py check` (`python build.py serve` shows the page as you edit)."
    )


def _record(root: Path, name: str) -> None:
    yaml, recorded = record(root, name)
    for case in recorded:
        print(f"{yaml.as_posix()}:{case.line}: case {case.name!r}: expected {json.dumps(case.expected)}")
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


def _serve_dev(root: Path, out: Path, args: argparse.Namespace) -> None:
    isolation = not args.no_isolation
    with DevServer(root, out, args.host, args.port, isolation=isolation, verify=not args.no_verify) as dev:
        watched = ", ".join(f"{path.relative_to(root).as_posix()}/" for path in dev.watched)
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


if __name__ == "__main__":
    sys.exit(main())
