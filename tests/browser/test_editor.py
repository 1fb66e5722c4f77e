"""The editor as a learner types into it, key by key, in real headless Chromium: Enter, Tab and Backspace keep the
starter's 4-space indentation, so typed code runs with no IndentationError; Ctrl+Enter runs the code from anywhere
on the page but a text field of its own. A long line on a phone: test_phone.py."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.axe import assert_no_violations_in_either_theme
from tests.browser.test_learner import SLOW_LOAD_MS, open_challenge
from tests.helpers import ROOT, cases_of, wait_until, without_python

# Challenge 3 of the course, as the index numbers it (lessons count): the one the learner who found the bug typed in.
SLUG = "dispatch-registry"
CHALLENGE = ROOT / "exercises" / "build-an-agent" / SLUG
UNIT = 4
SAVED_CODE = f"(typed) => localStorage.getItem('loopcraft:code:build-an-agent/{SLUG}')?.trimEnd() === typed"


def indent_of_cursor_line(page: Page) -> int:
    text = page.locator(".cm-activeLine").text_content()
    return len(text) - len(text.lstrip(" "))


# The cursor line's indentation as the page draws it; a busy page draws a key's change a moment after the key.
_INDENT_IS_NOT = (
    "(was) => { const line = document.querySelector('.cm-activeLine'); "
    "return line !== null && line.textContent.match(/^ */)[0].length !== was; }"
)


_ON_A_NEW_LINE = "() => document.querySelector('.cm-activeLine')?.textContent.trim() === ''"


def indent_after(page: Page, key: str, was: int) -> int:
    """Presses `key` and gives the cursor line's indentation once the editor has drawn it changed from `was`."""
    page.keyboard.press(key)
    page.wait_for_function(_INDENT_IS_NOT, arg=was, polling=200)
    return indent_of_cursor_line(page)


def type_body(page: Page, lines: list[str]) -> None:
    """Types `lines` as a learner does: Enter, then the line's text; where Enter's indentation is not the line's,
    Backspace takes one level off and Tab puts one on. Every indentation Enter makes is a whole number of levels,
    and every Backspace at an indentation removes one level, 4 spaces."""
    for number, line in enumerate(lines):
        # A completion list may have opened on the word just typed, and Enter would take its option instead of
        # breaking the line (on a busy page the list opens before Enter); a learner closes it first. Not before the
        # first line: nothing is typed yet, and Escape would collapse a selection the first Enter is to replace.
        if number:
            page.keyboard.press("Escape")
        page.keyboard.press("Enter")
        # Enter at a line's end: the cursor's line is the new one, blank but for its indentation, once it is drawn.
        page.wait_for_function(_ON_A_NEW_LINE, polling=200)
        wanted, made = len(line) - len(line.lstrip(" ")), indent_of_cursor_line(page)
        assert made % UNIT == 0, f"Enter indented by {made} spaces before {line.strip()!r}"
        while made > wanted:
            after = indent_after(page, "Backspace", made)
            assert made - after == UNIT, f"Backspace took {made} spaces to {after}"
            made = after
        while made < wanted:
            made = indent_after(page, "Tab", made)
        page.keyboard.type(line.strip())


def test_a_solution_typed_key_by_key_into_the_starter_runs(page: Page, isolated_url: str):
    starter = (CHALLENGE / "starter.py").read_text().splitlines()
    solution = (CHALLENGE / "solution.py").read_text().splitlines()
    define = next(i for i, line in enumerate(solution) if line.startswith("def "))
    header = starter[: starter.index(solution[define]) + 1]  # the starter's comments, up to its `def` line
    body = solution[define + 1 :]
    open_challenge(page, isolated_url, SLUG)

    # The starter's body, from the end of its `def` line, is replaced by the solution's, typed.
    page.locator(".cm-line", has_text=solution[define]).click()
    page.keyboard.press("End")
    page.keyboard.press("Control+Shift+End")
    type_body(page, body)
    typed = "\n".join(header + body)
    wait_until(page, SAVED_CODE, typed, what="the typed code saved")

    page.get_by_test_id("run").click()
    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-outcome", "pass", timeout=SLOW_LOAD_MS)
    total = len(cases_of(SLUG))
    private = len(cases_of(SLUG, page=False)) - total
    expect(status).to_have_text(
        f"{total} of {total} cases passed. Well done! {private} more cases are checked only by your instructor's "
        "grader, never by this page."
    )
    expect(page.locator("body")).not_to_contain_text("IndentationError")
    assert_no_violations_in_either_theme(page, "after typing and running")


def test_tab_and_shift_tab_move_a_line_by_one_level(page: Page, isolated_url: str):
    without_python(page)
    open_challenge(page, isolated_url, SLUG, python=False)
    page.locator(".cm-line", has_text="name, args = ").click()
    page.keyboard.press("Tab")
    assert indent_of_cursor_line(page) == 2 * UNIT
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert indent_of_cursor_line(page) == 0


def test_ctrl_enter_runs_the_code_from_outside_the_editor_but_not_from_the_scenarios_box(page: Page, isolated_url: str):
    without_python(page)  # a run pressed while Python loads waits for it: started, it says so
    open_challenge(page, isolated_url, SLUG, python=False)
    status = page.get_by_test_id("status")

    # In the scenario's box, Ctrl+Enter runs the scenario, as the button beside it does, and not the cases.
    page.get_by_test_id("scenario-args").press("Control+Enter")
    expect(page.get_by_test_id("scenario-result")).to_have_text("Running your scenario…")
    expect(page.locator(".results-empty")).to_be_visible()
    page.reload()

    # On a focused button, Ctrl+Enter is the page's Run, not a press of that button.
    page.get_by_test_id("reset").focus()
    page.keyboard.press("Control+Enter")
    expect(status).to_have_text(re.compile("your run starts as soon as it is ready"))
    expect(page.get_by_test_id("stop")).to_be_enabled()
    expect(page.locator("#editor-note")).to_be_empty()  # Reset was not pressed
    expect(page.get_by_test_id("case")).to_have_count(len(cases_of(SLUG)))
