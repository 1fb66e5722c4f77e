"""`loopcraft build` (`python build.py`, whose default command it is): verify every challenge and write the site."""

from __future__ import annotations

import argparse
from pathlib import Path

from loopcraft.commands import options
from loopcraft.course.project import Project
from loopcraft.running.grading import Runners
from loopcraft.site.build import build

HELP = "verify every challenge and build the site"


def add(parser: argparse.ArgumentParser) -> None:
    options.verify(parser)
    options.site(parser)


def run(*, project: Project, out: Path | None = None, verify: bool = True, runners: Runners | None = None) -> int:
    """Build into `out` (default: the project's site/); `runners`: trusted runners to borrow (loopcraft.running.grading)."""
    options.warn_unverified(verify)
    site = options.site_folder(project, out).resolve()
    report = build(project, site, verify=verify, runners=runners)
    print(f"Built {site}: {tracks_text(report.tracks)}{report.notes_aside()}")
    return 0


def tracks_text(tracks) -> str:
    challenges = sum(len(t.exercises) for t in tracks)
    return f"{len(tracks)} track(s), {challenges} challenge(s)"
