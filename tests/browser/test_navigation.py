"""Moving between the course's pages keeps the running Python (frontend/src/navigate.js): a course link swaps the next
page in, with the same worker, reset in place, so nothing of the last page remains; the address, back and forward,
focus and the screen reader's announcement behave as on an ordinary navigation; a reload, and anything the swap
cannot do, is an ordinary navigation; offline, the swap comes from the service worker's copy."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import assert_no_violations_in_either_theme
from tests.browser.test_learner import looping_on, replace_code, run_and_wait
from tests.browser.test_lessons import block_code, run_block
from tests.browser.test_offline import cached_after_visiting, go_offline, served
from tests.helpers import ROOT, wait_until, without_python

SLOW_MS = 120_000
AGENT = ROOT / "exercises/build-an-agent"
LESSON, FIRST, SECOND = "the-action-contract", "parse-action-contract", "dispatch-registry"
TITLES = {
    LESSON: "The Action Contract · Build an Agent · Loopcraft",
    FIRST: "Parse the Action Contract · Build an Agent · Loopcraft",
    SECOND: "Dispatch From a Registry · Build an Agent · Loopcraft",
}
# What a page leaves in Python: an environment variable (as tests/leave_traces/environment.py's leaver does) and, on
# a lesson, whose blocks may, a name in builtins; each looked for on the next page.
LEAVE = 'import os\nos.environ["TRACE_LEFT"] = "1"\n'
LEAVE_A_NAME = (
    LEAVE + "import builtins\nbuiltins.TRACE_LEFT = True\nprint(builtins.TRACE_LEFT, os.environ['TRACE_LEFT'])\n"
)
PROBE = (
    'import os\nassert "TRACE_LEFT" not in os.environ, "TRACE_LEFT is still set"\n'
    'import builtins\nassert not hasattr(builtins, "TRACE_LEFT"), "builtins.TRACE_LEFT is still there"\n'
)
WORKER_STARTS = "document.documentElement.dataset.workerStarts"
ANNOUNCED = "() => document.querySelector('[data-testid=\"page-announcer\"]')?.textContent"


def solution(slug: str) -> str:
    return (AGENT / slug / "solution.py").read_text(encoding="utf-8")


def arrived(page: Page, base: str, slug: str, *, start: str = "kept") -> None:
    """The page of `slug` is shown at its own address, Python is ready on it, and it started as `start` says ("kept":
    with the worker of the page before it)."""
    expect(page).to_have_url(f"{base}build-an-agent/{slug}/")
    expect(page).to_have_title(TITLES[slug])
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
    expect(page.locator("body")).to_have_attribute("data-python-start", start)


def test_the_course_walked_by_its_links_keeps_one_python_and_nothing_of_a_page_reaches_the_next(
    page: Page, isolated_url: str
):
    page.goto(f"{isolated_url}build-an-agent/{LESSON}/")
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
    assert page.evaluate(WORKER_STARTS) == "1"
    block = page.get_by_test_id("live-block").first
    block_code(page, block, LEAVE_A_NAME)
    assert "True 1" in run_block(block)

    # Lesson -> challenge: the same worker, the focus on the new page's heading, its title announced.
    page.locator(".pager-next").click()
    arrived(page, isolated_url, FIRST)
    assert page.evaluate(WORKER_STARTS) == "1"
    expect(page.locator("h1")).to_be_focused()
    assert wait_until(page, ANNOUNCED, what="the announcement") == TITLES[FIRST]
    expect(page.get_by_test_id("live-block")).to_have_count(0)  # none of the lesson's page is left
    assert page.evaluate("scrollY") == 0
    # What the lesson left in Python is gone; this page leaves it again.
    replace_code(page, PROBE + solution(FIRST))
    assert set(run_and_wait(page).values()) == {"pass"}
    replace_code(page, LEAVE + solution(FIRST))
    assert set(run_and_wait(page).values()) == {"pass"}
    assert_no_violations_in_either_theme(page, "a challenge swapped in")

    # Challenge -> next challenge, left scrolled down (the link pressed where it is, not scrolled to): gone again; an
    # edit made just before leaving is saved, not lost in a debounce.
    page.evaluate(
        "() => { scrollTo({ top: 400, behavior: 'instant' }); document.querySelector('.pager-next').click(); }"
    )
    arrived(page, isolated_url, SECOND)
    assert page.evaluate("scrollY") == 0
    replace_code(page, PROBE + solution(SECOND))
    assert set(run_and_wait(page).values()) == {"pass"}
    page.locator('[data-testid="editor"] .cm-content').click()
    page.keyboard.press("Control+Home")
    page.keyboard.insert_text("# written just before leaving\n")
    page.go_back()

    # Back, then forward: each page as it was left, scroll included, still the one worker.
    arrived(page, isolated_url, FIRST)
    assert page.evaluate("scrollY") == 400
    expect(page.get_by_test_id("editor")).to_contain_text('os.environ["TRACE_LEFT"] = "1"')
    expect(page.locator("h1")).to_be_focused()
    page.go_forward()
    arrived(page, isolated_url, SECOND)
    expect(page.get_by_test_id("editor")).to_contain_text("# written just before leaving")
    assert page.evaluate(WORKER_STARTS) == "1"

    # A reload is an ordinary navigation: a new document, its own worker, Python restored from the snapshot.
    page.reload()
    arrived(page, isolated_url, SECOND, start="restored")
    assert page.evaluate(WORKER_STARTS) == "1"
    expect(page.get_by_test_id("editor")).to_contain_text("# written just before leaving")


def test_a_page_opened_afresh_takes_a_run_while_python_loads(page: Page, isolated_url: str):
    # The page hears the session's first state as the session is made: Run waits for Python, it is not refused.
    without_python(page)
    page.goto(f"{isolated_url}build-an-agent/{FIRST}/")
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "loading")
    expect(page.get_by_test_id("run")).to_be_enabled()


def test_a_run_in_progress_is_stopped_before_the_next_page_comes_in(page: Page, isolated_url: str):
    page.goto(f"{isolated_url}build-an-agent/consecutive-error-limit/")
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
    replace_code(page, looping_on("1+2?"))  # the first case loops
    page.get_by_test_id("run").click()
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "running")
    page.locator(".pager-next").click()
    expect(page).to_have_title("Give Parse Retries Their Own Budget · Build an Agent · Loopcraft")
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
    # The loop was interrupted, not the worker replaced; the next page's Run gets a fresh interpreter.
    assert page.evaluate(WORKER_STARTS) == "1"
    replace_code(page, solution("parse-retry-budget"))
    assert set(run_and_wait(page).values()) == {"pass"}


# The swap's fetch of the next page is refused on purpose.
@pytest.mark.page_errors(r"Failed to load resource")
def test_a_page_the_swap_cannot_fetch_is_loaded_the_ordinary_way(page: Page, isolated_url: str):
    page.goto(f"{isolated_url}build-an-agent/{FIRST}/")
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)

    def refused(route):
        return route.abort() if route.request.resource_type == "fetch" else route.continue_()

    page.route(f"**/build-an-agent/{SECOND}/", refused)
    page.locator(".pager-next").click()
    arrived(page, isolated_url, SECOND, start="restored")


def test_offline_the_next_page_comes_from_the_service_worker_with_python_kept(browser, built_site):
    with served(browser, built_site, isolation=True) as (server, base, context):
        page = context.new_page()
        cached_after_visiting(page, f"{base}build-an-agent/{LESSON}/")
        go_offline(context, server)
        page.locator(".pager-next").click()
        arrived(page, base, FIRST)
        page.get_by_test_id("upload").set_input_files(AGENT / FIRST / "solution.py")
        assert set(run_and_wait(page).values()) == {"pass"}
        page.locator(".pager-next").click()
        arrived(page, base, SECOND)
        assert page.evaluate(WORKER_STARTS) == "1"
