"""The second course, Python Basics, as a learner meets it in real headless Chromium: on three of its challenges (a
class checked by calls, a program checked by what it prints, a function that must raise) the learner types a
plausible wrong solution key by key, runs it and sees the cases that catch it fail, then opens the right one and sees
every case pass; each page has no axe violation in either theme, and the class's page works on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.axe import assert_no_violations_in_either_theme
from tests.browser.test_editor import type_body
from tests.browser.test_learner import SLOW_LOAD_MS, open_challenge, run_and_wait
from tests.browser.test_phone import assert_fits
from tests.helpers import FIRST_TRACK, ROOT, cases_of, quiet_context, the_track

TRACK = "python-basics"
COURSE = ROOT / "exercises" / TRACK

# Each challenge, the wrong solution typed first, and the cases of its page that catch it.
WRONG_THEN_RIGHT = {
    "money": ("wrong/no_carry.py", ["Cents carry over into euros", "Adding keeps both amounts as they were"]),
    "receipt": (
        "wrong/prices_unformatted.py",
        [
            "Two items and a skipped line",
            "A price that is not a number is skipped",
            "Spaces around the words and around done",
        ],
    ),
    "parse-age": (
        "wrong/lets_int_complain.py",
        [
            "A word is no whole number",
            "A negative number is no whole number",
            "A decimal number, with spaces, is no whole number",
        ],
    ),
}


def type_code(page: Page, code: str) -> None:
    """Empty the editor, then type `code` as a learner does, key by key (the editor's own indentation kept)."""
    page.locator('[data-testid="editor"] .cm-content').click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    first, *rest = code.rstrip("\n").splitlines()
    page.keyboard.type(first)
    type_body(page, rest)


@pytest.mark.parametrize("slug", list(WRONG_THEN_RIGHT))
def test_a_typed_wrong_solution_fails_the_cases_that_catch_it_and_the_right_one_passes_them_all(
    page: Page, isolated_url: str, slug: str
):
    wrong, caught_by = WRONG_THEN_RIGHT[slug]
    open_challenge(page, isolated_url, slug)
    assert_no_violations_in_either_theme(page, f"on {slug} before a run")
    published = [case.name for case in cases_of(slug)]

    type_code(page, (COURSE / slug / wrong).read_text())
    statuses = run_and_wait(page)
    assert list(statuses) == published
    assert [name for name, status in statuses.items() if status != "pass"] == caught_by
    # A program's failed case shows what input() read in it, beside the printed text expected and printed.
    fed = [case for case in cases_of(slug) if case.stdin is not None]
    if fed:
        first = page.locator(f'.case[data-name="{caught_by[0]}"]')
        stdin = next(case.stdin for case in fed if case.name == caught_by[0])
        expect(first.get_by_test_id("stdin")).to_have_text(stdin.rstrip("\n"))
        # Printed text against printed text: neither the return value it does not check nor the same text twice.
        expect(first.get_by_test_id("actual-stdout")).to_be_visible()
        expect(first.get_by_test_id("actual")).to_have_count(0)
        expect(first.get_by_test_id("output")).to_have_count(0)
    assert_no_violations_in_either_theme(page, f"on {slug} after a failing run")

    # Opened from a file, as the editor's "Open" does: typing it too would prove again what the typing above and
    # the phone's test below prove, at a few CPU-seconds of keystrokes a challenge.
    page.get_by_test_id("upload").set_input_files(COURSE / slug / "solution.py")
    expect(page.locator("#editor-note")).to_contain_text("Loaded")
    statuses = run_and_wait(page)
    assert statuses == dict.fromkeys(published, "pass")
    expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "pass")
    assert_no_violations_in_either_theme(page, f"on {slug} after a passing run")

    # The index counts it in the second course's progress, not the first's.
    page.goto(isolated_url)
    track = page.locator('section.track[data-track="python-basics"]')
    expect(track.locator(f'[data-slug="{slug}"]').get_by_test_id("solved-mark")).to_have_text("Solved")
    expect(track.get_by_test_id("progress")).to_contain_text(f"of {len(the_track(TRACK).items)} done")
    expect(page.locator(FIRST_TRACK).get_by_test_id("solved-mark")).to_have_count(0)


def test_the_class_challenge_is_solved_by_typing_on_a_phone(browser: Browser, isolated_url: str):
    context = quiet_context(
        browser, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, service_workers="block"
    )
    page = context.new_page()
    page.goto(isolated_url)
    page.locator('[data-testid="challenge-link"][data-slug="money"]').tap()
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_LOAD_MS)
    assert_fits(page, "money, task panel")
    page.get_by_role("tab", name="Code").tap()
    type_code(page, (COURSE / "money" / "solution.py").read_text())
    statuses = run_and_wait(page)
    assert statuses == dict.fromkeys((case.name for case in cases_of("money")), "pass")
    expect(page.get_by_role("tab", name="Results")).to_have_attribute("aria-selected", "true")
    assert_fits(page, "money, results panel")
    assert_no_violations_in_either_theme(page, "on a phone, money's results")
    context.close()
