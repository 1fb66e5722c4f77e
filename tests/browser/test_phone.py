"""A learner on a phone (390x844, touch), in real headless Chromium: the challenge page shows Task, Code and
Results one at a time under ARIA tabs, Run stays in reach, a run switches to Results, every button is big
enough to tap, a long line of code wraps, and nothing is wider than the screen, the index with progress shown
included."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.axe import assert_no_violations_in_either_theme
from tests.browser.test_learner import CEL, SLOW_LOAD_MS
from tests.helpers import cases_of, quiet_context, the_track, without_python
from tests.hostile_corpus import CORPUS

SLUG = "consecutive-error-limit"
TOUCH_PX = 44


@pytest.fixture
def phone(browser: Browser):
    context = quiet_context(
        browser,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
        service_workers="block",
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


def assert_fits(page: Page, where: str) -> None:
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(el => el.getClientRects().length && el.getBoundingClientRect().right > innerWidth + 1
                      && !el.closest('.cm-scroller, pre, .visually-hidden'))
        .map(el => el.className || el.tagName).slice(0, 5)""")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, f"{where}: the page scrolls sideways: {wide}"
    assert not wide, f"{where}: wider than the screen: {wide}"


def assert_tappable(page: Page, where: str) -> None:
    small = page.evaluate(f"""() => [...document.querySelectorAll('button, .button, [role=tab]')]
        .filter(el => el.getClientRects().length && el.getBoundingClientRect().height < {TOUCH_PX})
        .map(el => (el.dataset.testid || el.textContent.trim()) + ': ' + el.getBoundingClientRect().height)""")
    assert not small, f"{where}: buttons under {TOUCH_PX} px tall: {small}"


def assert_run_in_reach(page: Page) -> None:
    box = page.get_by_test_id("run").bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= 844, box


def test_a_phone_learner_solves_a_challenge_by_tapping(phone: Page, isolated_url: str):
    page = phone
    page.goto(isolated_url)
    assert_fits(page, "index")
    assert_tappable(page, "index")
    page.locator(f'[data-testid="challenge-link"][data-slug="{SLUG}"]').tap()
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_LOAD_MS)

    tabs = page.get_by_role("tab")
    expect(tabs).to_have_text(["Task", "Code", "Results"])
    expect(page.get_by_role("tab", name="Task")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("tabpanel")).to_have_count(1)
    expect(page.get_by_role("tabpanel")).to_have_attribute("aria-labelledby", "tab-task")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.locator(".cm-editor")).to_be_hidden()
    assert_run_in_reach(page)
    # Scrolled to the end of a long task, Run is still on the screen.
    page.mouse.wheel(0, 20_000)
    assert_run_in_reach(page)
    assert_fits(page, "task panel")
    assert_tappable(page, "task panel")
    assert_no_violations_in_either_theme(page, "on a phone, task panel")

    page.get_by_role("tab", name="Code").tap()
    expect(page.get_by_role("tabpanel")).to_have_attribute("aria-labelledby", "tab-code")
    expect(page.locator(".task-panel")).to_be_hidden()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    # The editor takes a tap and the on-screen keyboard's typing, and the dock never covers it.
    page.locator(".cm-content").tap()
    page.keyboard.type("# mine\n")
    expect(page.locator(".cm-content")).to_contain_text("# mine")
    editor, dock = page.locator(".cm-editor").bounding_box(), page.locator(".dock").bounding_box()
    assert editor["y"] + editor["height"] <= dock["y"], (editor, dock)
    assert_fits(page, "code panel")
    assert_tappable(page, "code panel")
    assert_no_violations_in_either_theme(page, "on a phone, code panel")

    # An error's long line wraps: it is read on a phone without scrolling sideways.
    page.get_by_test_id("upload").set_input_files(CORPUS / "returns_deep_value.py")
    page.get_by_test_id("run").tap()
    expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "fail", timeout=SLOW_LOAD_MS * 2)
    message = page.get_by_test_id("case").first.get_by_test_id("message")
    expect(message).to_contain_text("nested more than 100 levels deep")
    assert message.evaluate("(el) => el.scrollWidth <= el.clientWidth"), "the error scrolls sideways"
    # The status names the failing cases; the first one's card is open and in view, above the dock.
    expect(page.get_by_test_id("failures").locator("a").first).to_be_visible()
    expect(message).to_be_in_viewport()
    assert_fits(page, "results panel after a failing run")
    page.get_by_role("tab", name="Code").tap()

    page.get_by_test_id("upload").set_input_files(CEL / "solution.py")
    page.get_by_test_id("run").tap()
    # The run shows its results at once.
    expect(page.get_by_role("tab", name="Results")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "pass", timeout=SLOW_LOAD_MS * 2)
    total = len(cases_of("consecutive-error-limit"))
    expect(page.get_by_test_id("case")).to_have_count(total)
    expect(page.locator('[data-testid="case"][data-status="pass"]')).to_have_count(total)
    expect(page.get_by_test_id("stop")).to_be_hidden()  # in Run's place in the dock during a run only
    # Passing cards are one line each; a tap opens one.
    first = page.get_by_test_id("case").first
    expect(first.get_by_test_id("trace")).to_be_hidden()
    first.locator(".case-head").tap()
    first.get_by_test_id("trace").locator("summary").tap()
    assert_run_in_reach(page)
    assert_fits(page, "results panel")
    assert_tappable(page, "results panel")
    assert_no_violations_in_either_theme(page, "on a phone, results panel")


def test_a_tab_tapped_before_the_script_has_loaded_waits_for_it_instead_of_being_lost(phone: Page, isolated_url: str):
    page = phone
    without_python(page)
    held: list = []
    # The page's script, held back as a slow phone's network would.
    page.route("**/assets/app.js*", lambda route: held.append(route))
    # A module script runs before DOMContentLoaded, so the page is waited for only until it is being read.
    page.goto(f"{isolated_url}build-an-agent/{SLUG}/", wait_until="commit")
    for _ in range(150):  # 30 s
        if held:
            break
        page.wait_for_timeout(200)
    assert held, "the page never asked for its script"
    code = page.get_by_role("tab", name="Code")
    expect(code).to_be_disabled()  # a tap now would do nothing, and the first layout would then show Task
    expect(page.get_by_test_id("run")).to_be_disabled()  # and so would Run and Reset
    expect(page.get_by_test_id("reset")).to_be_disabled()
    held[0].continue_()
    code.tap()
    expect(code).to_have_attribute("aria-selected", "true")
    expect(page.locator("#panel-code")).to_be_visible()


def test_tabs_follow_the_aria_keys(phone: Page, isolated_url: str):
    page = phone
    without_python(page)  # a first visit's Python would boot, for a test of the tabs alone
    page.goto(f"{isolated_url}build-an-agent/{SLUG}/")
    expect(page.get_by_role("tab", name="Task")).to_be_enabled()  # the page's script has taken the tabs over
    page.get_by_role("tab", name="Task").focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("tab", name="Code")).to_be_focused()
    expect(page.get_by_role("tab", name="Code")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("tab", name="Code")).to_have_attribute("tabindex", "0")
    expect(page.get_by_role("tab", name="Task")).to_have_attribute("tabindex", "-1")
    page.keyboard.press("End")
    expect(page.get_by_role("tab", name="Results")).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("tab", name="Task")).to_have_attribute("aria-selected", "true")
    # On a wide screen again, every panel shows and no tab is announced.
    page.set_viewport_size({"width": 1280, "height": 900})
    expect(page.get_by_role("tablist")).to_be_hidden()
    expect(page.get_by_role("tabpanel")).to_have_count(0)
    expect(page.locator(".cm-editor")).to_be_visible()
    expect(page.locator(".task-panel")).to_be_visible()


def test_the_index_fits_a_phone_with_progress_shown(phone: Page, isolated_url: str):
    page = phone
    page.goto(isolated_url)
    # A lesson complete, a challenge solved and one started: each card then carries a mark beside its labels.
    page.evaluate("""() => {
        localStorage.setItem('loopcraft:complete:build-an-agent/the-action-contract', '2025-01-01T00:00:00Z');
        localStorage.setItem('loopcraft:solved:build-an-agent/parse-action-contract', '2025-01-01T00:00:00Z');
        localStorage.setItem('loopcraft:code:build-an-agent/dispatch-registry', 'def dispatch(call): ...');
    }""")
    page.reload()
    expect(page.get_by_test_id("solved-mark")).to_have_count(2)
    expect(page.get_by_test_id("started-mark")).to_have_count(1)
    assert_fits(page, "index with progress")
    assert_no_violations_in_either_theme(page, "on a phone, index with progress")


LONG_LINE = 'note = "' + "a long line, " * 12 + '"'
# Where the rows of a wrapped line start (px): the first row, the rows after it; and the width of one column.
ROWS = """line => {
    const range = document.createRange();
    range.selectNodeContents(line);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    const top = Math.min(...rects.map((r) => r.top));
    const column = document.createRange();
    column.setStart(line.firstChild, 0);
    column.setEnd(line.firstChild, 1);
    return { rows: new Set(rects.map((r) => Math.round(r.top))).size,
             first: Math.min(...rects.filter((r) => r.top < top + 2).map((r) => r.left)),
             rest: Math.min(...rects.filter((r) => r.top >= top + 2).map((r) => r.left)),
             column: column.getBoundingClientRect().width };
}"""


def assert_hangs(line, indent: int) -> None:
    """The rows after the first of a wrapped line start 2 columns past its indentation: they never read as a line of
    their own, nor (2 columns being no indent unit) as a nested block."""
    rows = line.evaluate(ROWS)
    assert rows["rows"] > 1, rows
    assert rows["rest"] - rows["first"] == pytest.approx((indent + 2) * rows["column"], abs=1), rows


def test_long_lines_of_code_and_of_values_wrap_under_their_indentation(phone: Page, isolated_url: str):
    page = phone
    without_python(page)
    page.goto(f"{isolated_url}build-an-agent/dispatch-registry/")
    # An example's value, wrapped (the widest of them): its rest hangs under it.
    values = page.locator(".example-io pre .line")
    widest = values.nth(max(range(values.count()), key=lambda i: values.nth(i).evaluate("el => el.offsetHeight")))
    text = widest.text_content()
    assert_hangs(widest, len(text) - len(text.lstrip()))

    page.get_by_role("tab", name="Code").tap()
    page.locator(".cm-line", has_text="name, args = ").tap()
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    page.keyboard.type(LONG_LINE)
    # Wrapped, never cut off: the editor does not scroll sideways, and the page fits the screen.
    assert page.locator(".cm-scroller").evaluate("el => el.scrollWidth <= el.clientWidth"), (
        "the editor scrolls sideways"
    )
    assert_fits(page, "code panel with a long line")
    assert_hangs(page.locator(".cm-activeLine"), 4)


def test_every_lesson_and_the_lab_fit_a_phone_and_a_deep_line_wraps_into_a_readable_column(
    phone: Page, isolated_url: str
):
    page = phone
    without_python(page)
    track = the_track()
    for slug in [lesson.slug for lesson in track.lessons] + ["lab"]:
        page.goto(f"{isolated_url}{track.slug}/{slug}/")
        assert_fits(page, slug)
    # A line 24 columns deep in a live block (at the editor's code size no line of the lessons is deep enough to
    # reach the cap on a phone): its rows hang under it only as far as a third of the editor's width, so what is
    # left of the line is still a column of words, not one word.
    page.goto(f"{isolated_url}{track.slug}/recite-the-loop/")
    block = page.get_by_test_id("live-block").first
    block.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(
        "if True:\n" + " " * 24 + "words = 'a line deep enough to wrap into a column a word wide, uncapped'\n"
    )
    line = block.locator(".cm-line", has_text="words =").first
    rows = line.evaluate(ROWS)
    width = block.locator(".cm-editor").evaluate("el => el.clientWidth")
    assert rows["rows"] > 1 and (24 + 2) * rows["column"] > 0.33 * width, (rows, width)  # deeper than the cap
    assert rows["rest"] - rows["first"] == pytest.approx(0.33 * width, abs=1), (rows, width)


def test_on_a_phone_the_breadcrumb_keeps_the_way_back_and_live_code_is_the_editors_size(phone: Page, isolated_url: str):
    page = phone
    without_python(page)
    track = the_track()
    sizes = {}
    for slug, editor in ((SLUG, ".editor .cm-editor"), ("recite-the-loop", ".live-block .cm-editor")):
        page.goto(f"{isolated_url}{track.slug}/{slug}/")
        back = page.locator(".crumbs a")
        expect(back).to_be_visible()
        expect(back).to_have_text(track.title)
        # Whole, not cut to "B…": nothing of it is hidden by its ellipsis.
        assert back.evaluate("el => el.scrollWidth <= el.clientWidth"), slug
        back_box, toggle_box = back.bounding_box(), page.get_by_test_id("theme-toggle").bounding_box()
        assert back_box["x"] + back_box["width"] <= toggle_box["x"], slug
        expect(page.get_by_test_id("theme-toggle")).to_have_accessible_name("Dark mode")
        sizes[slug] = page.locator(editor).first.evaluate("el => getComputedStyle(el).fontSize")
    # A lesson's live code is no larger than the challenge editor's (it inherited the page's text size).
    assert sizes[SLUG] == sizes["recite-the-loop"], sizes
