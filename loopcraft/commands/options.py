"""The options that several commands share, each defined once: the site folder and `--no-verify` (build, serve,
check), the verdict key and the LMS's files (class, merge). `--root`, which every command takes, is the tree's
(loopcraft/commands/__init__.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from loopcraft.classroom.lms import LMSS, MISSING_RULES
from loopcraft.course.project import Project

NO_VERIFY_WARNING = "warning: --no-verify: solutions were not run; do not publish this build"


def verify(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-verify",
        dest="verify",
        action="store_false",
        help="skip running the solutions (local iteration only)",
    )


def warn_unverified(verify: bool) -> None:
    """Said first, before any problem: a site made without running the solutions must not be published."""
    if not verify:
        print(NO_VERIFY_WARNING, file=sys.stderr)


def site(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, help="site folder (default: site/ in the project root)")


def site_folder(project: Project, out: Path | None) -> Path:
    return out or project.root / "site"


def key(parser: argparse.ArgumentParser, does: str) -> None:
    parser.add_argument(
        "--key",
        dest="key_file",
        type=Path,
        metavar="FILE",
        help=f"the verdict key that {does}: 32 or more random bytes that only you can read, outside every class "
        "folder; one file for every machine of a job array (default: $XDG_CONFIG_HOME/loopcraft/verdict-key, "
        "else ~/.config/loopcraft/verdict-key, made on first use)",
    )


def _points(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1e6:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of points above 0")
    return value


def lms(parser: argparse.ArgumentParser) -> None:
    """The LMS's files, as loopcraft.classroom.grade_class and merge_shards take them (their keyword names)."""
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
