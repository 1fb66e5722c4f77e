"""`loopcraft record SLUG`: run the reference solution on the cases that expect nothing yet and write what it does
(`expected`, `raises` or `stdout`) into exercise.yaml, comments kept (loopcraft/authoring/record.py)."""

from __future__ import annotations

import argparse

from loopcraft.authoring.record import record
from loopcraft.course.cases import expected_text
from loopcraft.course.course import MISSING
from loopcraft.course.project import Project

HELP = "run the reference solution on the cases that have no `expected` and write what it returns into exercise.yaml"


def add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("exercise", metavar="SLUG", help="a challenge: SLUG, TRACK/SLUG or its folder")


def run(*, project: Project, exercise: str) -> int:
    yaml, recorded = record(project, exercise)
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
    return 0
