"""`loopcraft gradescope SLUG... --out autograder.zip`: a Gradescope autograder (setup.sh, run_autograder, the grader)
for one challenge or several (loopcraft/classroom/gradescope.py; its `run` is what run_autograder calls)."""

from __future__ import annotations

import argparse
from pathlib import Path

from loopcraft.classroom.gradescope import build
from loopcraft.course.project import Project

HELP = "write a Gradescope autograder (setup.sh, run_autograder, the grader) for one challenge or several"


def add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("challenges", nargs="+", metavar="SLUG", help="e.g. consecutive-error-limit")
    parser.add_argument("--out", type=Path, default=Path("autograder.zip"), help="default: autograder.zip")


def run(*, project: Project, challenges: list[str], out: Path = Path("autograder.zip")) -> int:
    count = build(project, challenges, out)
    print(f"Wrote {out}: {count} files; upload it as the assignment's autograder (docs/teachers.md)")
    return 0
