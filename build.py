#!/usr/bin/env python3
"""Loopcraft's command line.

    python build.py [build] [--out site] [--no-verify]    build the site
    python build.py check [--no-verify]                    load, validate and verify; write nothing
    python build.py serve [--host H] [--port P] [--no-isolation] [--no-build] [--out site]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from loopcraft.build import build, check
from loopcraft.errors import ExerciseError, LoopcraftError
from loopcraft.serve import make_server, url

ROOT = Path(__file__).resolve().parent
NO_VERIFY_WARNING = "warning: --no-verify: solutions were not run; do not publish this build"


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="build.py", description="Build, check or serve the Loopcraft site.")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--root", type=Path, default=ROOT, help="project root (default: the folder of build.py)")
    common.add_argument("--no-verify", action="store_true", help="skip running the solutions (local iteration only)")
    site = argparse.ArgumentParser(add_help=False)
    site.add_argument("--out", type=Path, help="site folder (default: site/ in the project root)")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("build", parents=[common, site], help="build the site (the default command)")
    commands.add_parser("check", parents=[common], help="load, validate and verify the exercises; write nothing")
    serve = commands.add_parser("serve", parents=[common, site], help="build, then serve the site locally")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--no-isolation", action="store_true",
                       help="leave out the COOP/COEP headers, to try the page without cross-origin isolation")
    serve.add_argument("--no-build", action="store_true", help="serve the existing site folder as it is")
    if not argv or argv[0] not in [*commands.choices, "-h", "--help"]:
        argv = ["build", *argv]  # `build` is the default command
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    root = args.root.resolve()
    try:
        if args.command == "check":
            if args.no_verify:
                print(NO_VERIFY_WARNING, file=sys.stderr)
            tracks = check(root, verify=not args.no_verify)
            print(f"OK: {_count(tracks)}" + ("" if args.no_verify else ", all verified"))
            return 0
        out = (args.out or root / "site").resolve()
        if not getattr(args, "no_build", False):
            if args.no_verify:
                print(NO_VERIFY_WARNING, file=sys.stderr)
            tracks = build(root, out, verify=not args.no_verify)
            print(f"Built {out}: {_count(tracks)}")
        if args.command == "serve":
            if not out.is_dir():
                raise LoopcraftError(f"no site at {out}; build it first")
            _serve(out, args.host, args.port, isolation=not args.no_isolation)
    except ExerciseError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"{len(exc.problems)} problem(s); nothing was written", file=sys.stderr)
        return 1
    except LoopcraftError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def _serve(site: Path, host: str, port: int, isolation: bool) -> None:
    try:
        server = make_server(site, host, port, isolation)
    except OSError as exc:
        raise LoopcraftError(f"cannot serve on {host}:{port}: {exc.strerror}") from exc
    print(f"Serving {site} at {url(server)} ({'cross-origin isolated' if isolation else 'no isolation'}); "
          "Ctrl+C to stop", flush=True)
    with server:
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


def _count(tracks) -> str:
    challenges = sum(len(t.exercises) for t in tracks)
    return f"{len(tracks)} track(s), {challenges} challenge(s)"


if __name__ == "__main__":
    sys.exit(main())
