"""`loopcraft check [SLUG|PATH]`: load, validate and verify the course (or one challenge or lesson), write nothing."""

from __future__ import annotations

import argparse
import sys

from loopcraft.commands import options
from loopcraft.commands.build import tracks_text
from loopcraft.course.errors import raise_errors
from loopcraft.course.project import Project
from loopcraft.running.grading import Runners
from loopcraft.site.build import check

HELP = (
    "load and validate the course, verify the exercises (or one challenge or lesson), show which cases catch which "
    "wrong solutions; write nothing"
)


def add(parser: argparse.ArgumentParser) -> None:
    options.verify(parser)
    parser.add_argument(
        "item",
        metavar="SLUG|PATH",
        nargs="?",
        help="check only this challenge or lesson: its slug, TRACK/SLUG, or a path to its folder or a file in it",
    )


def run(*, project: Project, item: str | None = None, verify: bool = True, runners: Runners | None = None) -> int:
    """Every problem at once (an ExerciseError, which the tree prints), else what was checked."""
    options.warn_unverified(verify)
    report = check(project, verify=verify, only=item, runners=runners)
    # Tables only where they explain an error, or for the one challenge checked: the course's fit on one screen.
    for strength in report.strengths:
        if report.only is not None or strength.failed:
            print(strength.table(), end="\n\n")
    for score in report.scores:
        name = f"{score.exercise.track}/{score.exercise.slug}"
        print(score.summary(report.scenarios.get(name)))
    raise_errors(report.problems)
    for problem in report.problems:  # notes only, past raise_errors
        print(problem, file=sys.stderr)
    checked = tracks_text(report.tracks) if report.only is None else f"{report.only.track}/{report.only.slug}"
    print(("\n" if report.scores else "") + f"OK: {checked}" + (", all verified" if verify else ""))
    return 0
