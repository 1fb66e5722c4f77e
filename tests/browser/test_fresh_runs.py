"""Each Run on a page starts from the interpreter as it was ready (reset in place, frontend/src/reset.js): what one Run
leaves, the next cannot see, as the grader's run of the same code would not; and a Run after one that grew Python's
memory past the reset starts Python afresh and still passes."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.test_learner import open_challenge, replace_code, run_and_wait
from tests.helpers import LEAVE_TRACES_SLUG, leave_trace_pairs

PAIRS = leave_trace_pairs()
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


def test_a_run_sees_nothing_an_earlier_run_on_the_page_left(challenge: Page):
    for name in ON_A_PAGE:
        leaver, probe = PAIRS[name]
        replace_code(challenge, leaver)
        run_and_wait(challenge)
        replace_code(challenge, probe)
        seen = run_and_wait(challenge)
        assert seen and set(seen.values()) == {"pass"}, (name, seen)
