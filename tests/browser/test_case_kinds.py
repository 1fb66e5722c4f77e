"""A learner types a class-based solution and a print-based one into the editor of pages built from `build.py new
--kind class` and `--kind program`, and every case passes in the page (real Chromium, the site's own worker and
judge); a wrong one fails."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from loopcraft.authoring.scaffold import new_challenge
from tests.browser.test_editor import type_body
from tests.browser.test_learner import open_challenge, run_and_wait
from tests.helpers import ROOT
from tests.support import build_site, serve, stop


@pytest.fixture(scope="module")
def kinds_url(tmp_path_factory):
    """A course of one class challenge and one program challenge, built as `new` writes them, and served
    cross-origin isolated."""
    root = tmp_path_factory.mktemp("kinds")
    for part in ("templates", "frontend", "grader", "node_modules"):  # the real site's, for this course
        (root / part).symlink_to(ROOT / part)
    (root / "exercises").mkdir()
    new_challenge(root, "kinds/vector", "class")
    new_challenge(root, "kinds/totals", "program")
    site = build_site(root / "site", "--root", str(root), "--no-verify")
    server, url = serve(site, True)
    yield url, root / "exercises" / "kinds"
    stop(server)


def type_code(page: Page, code: str) -> None:
    """Type the code key by key into an emptied editor, as a learner does (tests/browser/test_editor.py)."""
    first, *rest = code.rstrip("\n").split("\n")
    page.locator('[data-testid="editor"] .cm-content').click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.type(first)
    type_body(page, rest)


@pytest.mark.parametrize("slug", ["vector", "totals"])
def test_a_typed_solution_passes_every_case_and_a_wrong_one_fails(page: Page, kinds_url, slug: str):
    url, folder = kinds_url
    open_challenge(page, url, slug)
    type_code(page, (folder / slug / "solution.py").read_text())
    passed = run_and_wait(page)
    assert passed and set(passed.values()) == {"pass"}, passed
    wrong = next((folder / slug / "wrong").glob("*.py"))
    type_code(page, wrong.read_text())
    failed = run_and_wait(page)
    assert "fail" in failed.values(), failed
