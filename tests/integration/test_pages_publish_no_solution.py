"""The real course rendered with its lessons' code run in Pyodide, as a build does: no page publishes a reference
solution or the key that decrypts it. Rendering itself is tests/unit/test_render_course.py."""

from __future__ import annotations

import base64

import pytest

from loopcraft.authoring.lessons import run_lessons
from loopcraft.course.load import load_course
from loopcraft.course.project import Project
from loopcraft.site.render import render_pages, solution_key
from tests.helpers import ROOT
from tests.unit.test_render_course import decrypt, page_data


@pytest.fixture(scope="module")
def course(runners):
    """The real course, rendered with the real templates (its lessons' code run in Pyodide, as a build does)."""
    tracks = load_course(ROOT)
    with runners.lent(Project()) as runner:
        runs, _ = run_lessons(Project(), [lesson for track in tracks for lesson in track.lessons], runner=runner)
    return tracks, render_pages(ROOT / "templates", tracks, "test", lesson_runs=runs)


def test_no_page_publishes_a_solution_or_its_key(course):
    tracks, pages = course
    html = "\n".join(pages.values())
    exercises = [ex for track in tracks for ex in track.exercises]
    # Code the pages show on purpose: a solution may share a line with any of it.
    shown = {
        line.strip()
        for ex in exercises
        for text in (ex.starter_source, ex.sandbox_source, ex.task)
        for line in text.splitlines()
    }
    for ex in exercises:
        page = pages[f"{ex.track}/{ex.slug}/index.html"]
        secret = page_data(page)["solution"]
        key = solution_key(secret["salt"], [case for case in ex.cases if not case.private])
        assert decrypt(secret, key) == ex.solution_source
        assert ex.solution_source.strip() not in html
        own = {line.strip() for line in ex.solution_source.splitlines()} - shown
        leaked = [line for line in own if len(line) > 30 and line in html]
        assert leaked == [], f"{ex.slug}: solution lines in the pages: {leaked}"
        for encoded in (key.hex(), base64.b64encode(key).decode()):
            assert encoded not in html
