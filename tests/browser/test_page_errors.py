"""The browser tests' own guard: an uncaught error or a console error in any page fails the test that caused it
(tests/browser/conftest.py, `no_page_errors`), unless the test names it as provoked on purpose."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import PAGE_ERRORS

PROVOKE = """() => {
  setTimeout(() => { throw new TypeError("thrown on purpose"); });
  console.error("said on purpose");
}"""


@pytest.mark.page_errors("thrown on purpose", "said on purpose")
def test_an_uncaught_error_and_a_console_error_are_seen(page: Page, isolated_url: str):
    page.goto(isolated_url + "404.html")
    page.evaluate(PROVOKE)
    expected = ["console error: said on purpose", "uncaught error: TypeError: thrown on purpose"]
    seen = lambda: [any(e.startswith(start) for e in PAGE_ERRORS.seen) for start in expected]  # noqa: E731
    for _ in range(200):
        if all(seen()):
            break
        page.wait_for_timeout(50)
    assert all(seen()), PAGE_ERRORS.seen
