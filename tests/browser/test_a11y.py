"""Accessibility, as a screen-reader or keyboard user meets it, in real headless Chromium: axe-core finds no
violation on any kind of page in either theme; runs are announced; the keyboard alone solves a challenge,
with a visible focus at every stop; dark mode follows the system and the toggle; motion can be turned off."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.axe import assert_no_violations_in_either_theme
from tests.browser.test_learner import CEL, SLOW_LOAD_MS, open_challenge, replace_code, run_and_wait
from tests.helpers import cases_of, quiet_context, without_python

SLUG = "consecutive-error-limit"
CHALLENGE = f"build-an-agent/{SLUG}/"


def test_the_dark_theme_pass_finds_text_that_only_dark_makes_unreadable(page: Page, isolated_url: str):
    # The dark pass runs only axe's colour rules: a fault the dark scheme alone brings must still be found there.
    page.goto(isolated_url)
    page.add_style_tag(content="@media (prefers-color-scheme: dark) { h1 { color: #222 !important; } }")
    with pytest.raises(AssertionError, match=r"(?s)fault in dark at .*color-contrast.*h1: "):
        assert_no_violations_in_either_theme(page, "with a dark-only fault")


def upload(page: Page, path) -> None:
    page.get_by_test_id("upload").set_input_files(path)


@pytest.mark.page_errors(r"status of 404 .*/no/such/page\)$")  # the 404 page, as a browser loads it
def test_every_kind_of_page_has_no_axe_violations_in_either_theme(page: Page, isolated_url: str, tmp_path):
    page.goto(isolated_url)
    assert_no_violations_in_either_theme(page, "on the index")
    page.goto(isolated_url + "no/such/page")
    assert_no_violations_in_either_theme(page, "on the 404 page")

    open_challenge(page, isolated_url, SLUG)
    page.locator("details.sandbox summary").click()  # the provided code's highlighting, in this theme
    expect(page.locator(".sandbox-code")).to_be_visible()
    assert_no_violations_in_either_theme(page, "before a run, provided code open")
    page.get_by_test_id("hint-button").click()
    expect(page.get_by_test_id("hint")).to_have_count(1)
    assert_no_violations_in_either_theme(page, "with a hint shown")

    upload(page, CEL / "wrong" / "no_reset.py")
    statuses = run_and_wait(page)
    assert "fail" in statuses.values() and "pass" in statuses.values()
    failing = page.locator('[data-testid="case"][data-status="fail"]')
    failing.get_by_test_id("trace").locator("summary").click()
    assert_no_violations_in_either_theme(page, "after a failing run, trace open")

    broken = tmp_path / "broken.py"
    broken.write_text("def run_agent(task, script, max_steps=5:\n    pass\n")
    upload(page, broken)
    run_and_wait(page)
    expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "error")
    expect(page.locator(".cm-lintRange-error")).to_have_count(1)
    assert_no_violations_in_either_theme(page, "after a run whose code does not load")

    page.get_by_test_id("scenario-example").first.click()
    page.get_by_test_id("scenario-run").click()
    expect(page.get_by_test_id("scenario-result").get_by_test_id("message")).to_contain_text("SyntaxError")
    page.get_by_test_id("scenario-args").fill("task='never closed")
    page.get_by_test_id("scenario-run").click()
    expect(page.get_by_test_id("scenario-message")).to_contain_text("this string is never closed")
    assert_no_violations_in_either_theme(page, "with a scenario's error")

    upload(page, CEL / "solution.py")
    statuses = run_and_wait(page)
    assert set(statuses.values()) == {"pass"}
    page.get_by_test_id("solution").locator("summary").click()
    expect(page.get_by_test_id("solution").locator("pre")).to_be_visible()
    page.get_by_test_id("scenario-example").first.click()
    page.get_by_test_id("scenario-run").click()
    expect(page.get_by_test_id("scenario-value")).to_be_visible()
    assert_no_violations_in_either_theme(page, "after a passing run, solution unlocked, scenario run")


def test_lesson_and_lab_pages_have_no_axe_violations_in_either_theme_nor_on_a_phone(
    page: Page, browser: Browser, isolated_url: str
):
    from tests.browser.test_lab import open_lab
    from tests.browser.test_lessons import LESSON, open_lesson

    phone_context = quiet_context(
        browser,
        service_workers="block",
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
    )
    phone = phone_context.new_page()
    phone.set_default_timeout(30_000)
    for where, tab in (("", page), ("on a phone", phone)):
        open_lesson(tab, isolated_url, LESSON)
        assert_no_violations_in_either_theme(tab, f"on a lesson {where}")
        block = tab.get_by_test_id("live-block").first
        block.get_by_test_id("run").click()
        expect(block.get_by_test_id("output")).not_to_be_empty()
        question = tab.get_by_test_id("question").first
        question.locator("input").first.check()
        question.get_by_test_id("check").click()
        expect(question.get_by_test_id("verdict")).not_to_be_empty()
        assert_no_violations_in_either_theme(tab, f"on a lesson after a run and an answer {where}")
        open_lab(tab, isolated_url)
        assert_no_violations_in_either_theme(tab, f"on the lab {where}")
        # The chart's text is as large as the page's small print, drawn at the size it is shown (it was 9 px).
        sizes = tab.locator(".lab-svg text").evaluate_all(
            """texts => texts.map(t => parseFloat(getComputedStyle(t).fontSize)
                * t.ownerSVGElement.getBoundingClientRect().width / t.ownerSVGElement.viewBox.baseVal.width)"""
        )
        assert sizes and min(sizes) >= 12, sizes
    phone_context.close()


def test_runs_and_python_state_are_announced_politely_and_the_rows_are_not(page: Page, isolated_url: str):
    open_challenge(page, isolated_url, SLUG)
    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("role", "status")
    expect(status).to_have_attribute("aria-live", "polite")
    # One announcement per run, not one per row as each case comes in.
    assert page.locator("[aria-live]").filter(has=page.get_by_test_id("case")).count() == 0
    expect(page.get_by_test_id("results")).not_to_have_attribute("aria-live", "polite")
    upload(page, CEL / "wrong" / "no_reset.py")
    run_and_wait(page)
    # The announcement names what did not pass (the links are in the live region) and the known mistake it looks like.
    passed = rf"^\d+ of {len(cases_of(SLUG))} cases passed\. Not passing: [^.]+\."
    expect(status).to_have_text(
        re.compile(rf"{passed} This looks like a known mistake: The limit is on errors in a row: [^.]+\.$")
    )
    expect(status.get_by_test_id("failures").locator("a")).to_have_count(1)


def test_the_editors_focus_ring_is_as_strong_as_every_other(page: Page, isolated_url: str):
    without_python(page)
    open_challenge(page, isolated_url, SLUG, python=False)
    ring = lambda el: el.evaluate(  # noqa: E731 - the ring's colour and width, whichever way it is drawn
        """el => { const s = getComputedStyle(el); return s.boxShadow !== 'none' ? s.boxShadow : s.outline; }"""
    )
    page.get_by_test_id("reset").focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # by keyboard, so :focus-visible applies
    button = ring(page.get_by_test_id("reset"))
    page.locator(".cm-content").focus()
    editor = ring(page.locator(".editor"))
    # The accent's own colour at 2 px, as the buttons' outline, not the accent's pale tint.
    accent = page.evaluate("getComputedStyle(document.querySelector('.button-primary')).backgroundColor")
    assert accent in button and "2px" in button, button
    assert accent in editor and "2px" in editor, editor


FOCUS_INDICATOR = """el => {
    // The editor shows its focus on its frame; everything else with an outline of its own.
    const target = el.closest('.editor') ?? el;
    const style = getComputedStyle(target);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    return outline || style.boxShadow !== 'none';
}"""


def tab_to(page: Page, selector: str, limit: int = 80) -> list[str]:
    """Presses Tab until `selector` has the focus, checking each stop shows it; returns the stops' names."""
    stops = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.locator(":focus")
        stops.append(focused.evaluate("el => el.dataset.testid || el.className || el.tagName"))
        assert focused.evaluate(FOCUS_INDICATOR), f"no visible focus on {stops[-1]}"
        if focused.evaluate(f"el => el.matches({selector!r})"):
            return stops
    raise AssertionError(f"{selector} never took the focus; stops: {stops}")


def test_a_challenge_is_solved_with_the_keyboard_alone(page: Page, isolated_url: str):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(isolated_url)
    # The learner copied their solution from a file of theirs: it is on the clipboard.
    page.evaluate("text => navigator.clipboard.writeText(text)", (CEL / "solution.py").read_text())
    tab_to(page, f'[data-slug="{SLUG}"]')
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_LOAD_MS)

    # The hint button on the way, then the editor.
    tab_to(page, '[data-testid="hint-button"]')
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("hint")).to_have_count(1)
    stops = tab_to(page, ".cm-content")
    assert "run" in stops and "reset" in stops, stops
    page.keyboard.press("Control+a")
    page.keyboard.press("Control+v")
    page.keyboard.press("Control+Enter")
    expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "pass", timeout=SLOW_LOAD_MS * 2)
    total = len(cases_of(SLUG))
    private = len(cases_of(SLUG, page=False)) - total
    expect(page.get_by_test_id("status")).to_have_text(
        f"{total} of {total} cases passed. Well done! {private} more cases are checked only by your instructor's "
        "grader, never by this page."
    )

    # Out of the editor (Escape, then Tab) and on to the unlocked solution and the next challenge.
    page.keyboard.press("Escape")
    tab_to(page, '[data-testid="solution"] summary')
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("solution").locator("pre")).to_be_visible()
    page.keyboard.press("Shift+Tab")
    tab_back = page.locator(":focus").get_attribute("data-testid")
    assert tab_back == "up-next", tab_back
    page.keyboard.press("Enter")
    expect(page).not_to_have_url(f"{isolated_url}{CHALLENGE}")


def test_dark_mode_follows_the_system_and_the_remembered_toggle_before_the_first_paint(page: Page, isolated_url: str):
    without_python(page)
    page.emulate_media(color_scheme="dark")  # the system's scheme, before the page is opened
    # The theme as the page is parsed, before any module script runs: the stylesheets (which block the first
    # paint) then find it set, so no page shows the other theme first.
    page.add_init_script("""document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive') window.firstPaint = document.documentElement.dataset.theme ?? null;
    });""")
    page.goto(isolated_url + CHALLENGE)
    toggle = page.get_by_test_id("theme-toggle")
    # A toggle button: one name in both modes, its state announced (aria-pressed) and seen (the switch, filled when on).
    expect(page.get_by_role("button", name="Dark mode", pressed=True)).to_be_visible()
    switch = "el => getComputedStyle(el.querySelector('.theme-icon')).backgroundColor"
    on = toggle.evaluate(switch)
    assert page.evaluate("firstPaint") is None
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(15, 17, 23)"
    editor_bg = page.locator(".cm-editor").evaluate("el => getComputedStyle(el).backgroundColor")
    assert editor_bg == "rgb(23, 26, 34)"

    toggle.click()
    expect(page.get_by_role("button", name="Dark mode", pressed=False)).to_be_visible()
    assert toggle.evaluate(switch) != on, "the switch looks the same in both modes"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(247, 247, 245)"
    page.goto(isolated_url)  # another page remembers the choice, from its first paint on
    assert page.evaluate("firstPaint") == "light"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(247, 247, 245)"
    expect(page.get_by_test_id("theme-toggle")).to_have_attribute("aria-pressed", "false")
    page.get_by_test_id("theme-toggle").press("Enter")
    page.reload()
    assert page.evaluate("firstPaint") == "dark"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(15, 17, 23)"


@pytest.mark.parametrize("motion, duration", [("reduce", "0s"), ("no-preference", "0.15s, 0.15s")])
def test_motion_follows_prefers_reduced_motion(browser: Browser, isolated_url: str, motion: str, duration: str):
    context = quiet_context(browser, reduced_motion=motion, service_workers="block")
    page = context.new_page()
    page.goto(isolated_url)
    card = page.get_by_test_id("challenge-link").first
    assert card.evaluate("el => getComputedStyle(el).transitionDuration") == duration
    context.close()


# ---- Small things people notice ----


def test_the_editor_font_size_is_remembered_from_buttons_and_keys(page: Page, isolated_url: str):
    without_python(page)
    open_challenge(page, isolated_url, SLUG, python=False)
    size = lambda: page.locator(".cm-editor").evaluate("el => getComputedStyle(el).fontSize")  # noqa: E731
    assert size() == "14px"
    page.get_by_test_id("font-larger").click()
    page.get_by_test_id("font-larger").click()
    assert size() == "18px"
    page.locator(".cm-content").click()
    page.keyboard.press("Control+Equal")
    assert size() == "20px"
    page.keyboard.press("Control+Minus")
    page.keyboard.press("Control+Minus")
    assert size() == "16px"
    page.goto(isolated_url + "build-an-agent/malformed-json-recovery/")  # every challenge, after a reload
    assert size() == "16px"
    for _ in range(10):
        if page.get_by_test_id("font-smaller").is_disabled():
            break
        page.get_by_test_id("font-smaller").click()
    assert size() == "12px"


def test_a_syntax_error_is_marked_on_its_line_in_the_editor(page: Page, isolated_url: str):
    open_challenge(page, isolated_url, SLUG)
    replace_code(page, "import json\n\n\ndef run_agent(task, script, max_steps=5:\n    pass\n")
    run_and_wait(page)
    mark = page.locator(".cm-lintRange-error")
    expect(mark).to_have_count(1)
    # On line 4, where the traceback says the error is.
    line = mark.evaluate("el => [...el.closest('.cm-content').children].indexOf(el.closest('.cm-line')) + 1")
    assert line == 4
    expect(page.locator(".cm-gutter-lint .cm-lint-marker-error")).to_have_count(1)
    # Fixed and run again: the mark goes.
    replace_code(page, (CEL / "solution.py").read_text())
    run_and_wait(page)
    expect(mark).to_have_count(0)


@pytest.mark.page_errors(r"status of 404 .*/build-an-agent/no-such-challenge/\)$")
def test_an_unknown_address_shows_the_sites_404_page(page: Page, servers: dict, built_site):
    assert (built_site / "404.html").is_file()
    for base in servers.values():
        response = page.goto(base + "build-an-agent/no-such-challenge/")
        assert response.status == 404
        expect(page.get_by_role("heading", level=1)).to_have_text("This page does not exist.")
        expect(page.locator(".site-header")).to_be_visible()
        page.get_by_test_id("home-link").click()
        expect(page.get_by_test_id("challenge-link").first).to_be_visible()
