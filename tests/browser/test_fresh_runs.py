"""Each Run on a page starts from the interpreter as it was ready (reset in place, frontend/src/reset.js): what one Run
leaves, the next cannot see, as the grader's run of the same code would not; and a Run after one that grew Python's
memory past the reset starts Python afresh and still passes; and the warm-ups a page's worker runs while idle leave
nothing either."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.test_learner import open_challenge, replace_code, run_and_wait
from tests.helpers import LEAVE_TRACES_SLUG, leave_trace_pairs, wait_until

PAIRS = leave_trace_pairs()
WARMED_UP = "() => document.documentElement.dataset.pythonWarmedUp === 'yes'"
# What Python on a page can leave, with two the guard takes for tampering (a reset follows each of their cases, as
# it follows a Run), and one that grows memory past what a reset can put back.
ON_A_PAGE = [
    "builtins",
    "tracing",
    "files",
    "environment",
    "sys_modules",
    "import_machinery",
    "open_files",
    "working_directory",
    "memory_grown",
]


@pytest.fixture
def challenge(page: Page, isolated_url: str) -> Page:
    open_challenge(page, isolated_url, LEAVE_TRACES_SLUG)
    return page


def leave_and_probe(page: Page, name: str) -> dict:
    """Run the code that leaves trace `name`, then the code that looks for it: the probe's verdicts."""
    leaver, probe = PAIRS[name]
    replace_code(page, leaver)
    run_and_wait(page)
    replace_code(page, probe)
    return run_and_wait(page)


def test_a_run_sees_nothing_an_earlier_run_on_the_page_left(challenge: Page):
    for name in ON_A_PAGE:
        seen = leave_and_probe(challenge, name)
        assert seen and set(seen.values()) == {"pass"}, (name, seen)


def test_a_page_that_warms_python_up_while_idle_still_runs_every_run_in_the_interpreter_as_it_was_ready(
    browser: Browser, isolated_url: str
):
    # Background work on, as for a learner: between runs the worker grades warm-ups of its own and resets
    # (frontend/src/worker-state.js, IDLE_WARM_UPS). Runs come at once, amid the warm-ups, and after the last.
    context = browser.new_context()
    try:
        page = context.new_page()
        open_challenge(page, isolated_url, LEAVE_TRACES_SLUG)
        amid = ["sys_modules", "files", "builtins"]
        for names, when in ((amid, "amid the warm-ups"), (["environment", "tracing"], "after them")):
            if when == "after them":
                wait_until(page, WARMED_UP, what="the worker's idle warm-ups done")
            for name in names:
                seen = leave_and_probe(page, name)
                assert seen and set(seen.values()) == {"pass"}, (name, when, seen)
        assert page.evaluate("document.documentElement.dataset.workerStarts") == "1"
    finally:
        context.close()
