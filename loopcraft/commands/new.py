"""`loopcraft new [--lesson] [--kind KIND] TRACK/SLUG`: a challenge (or a lesson) that passes `check` as it is,
listed in its track (made if new)."""

from __future__ import annotations

import argparse

from loopcraft.authoring.scaffold import KINDS, new_challenge, new_lesson
from loopcraft.course.project import Project

HELP = "scaffold a challenge or a lesson (and its track if new)"


def add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="TRACK/SLUG", help="e.g. build-an-agent/retry-policy")
    parser.add_argument("--lesson", action="store_true", help="a lesson (lesson.yaml and lesson.md), not a challenge")
    parser.add_argument(
        "--kind",
        choices=list(KINDS),
        default="function",
        help="the challenge's shape: a function (cases by args), a class (cases by call and setup) or a program "
        "(cases by stdin and stdout)",
    )


def run(*, project: Project, name: str, lesson: bool = False, kind: str = "function") -> int:
    made = new_lesson(project.root, name) if lesson else new_challenge(project.root, name, kind)
    for path in made.created:
        print(f"created {path.as_posix()}")
    if made.listed and made.track_yaml not in made.created:
        print(f"listed {name.partition('/')[2]} in {made.track_yaml.as_posix()}")
    print(
        "Next: edit these files, then run `python build.py check` (`python build.py serve` shows the page as you edit)."
    )
    return 0
