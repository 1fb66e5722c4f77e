""" "Start from my code for challenge N" in real headless Chromium, on a wide screen and on a 390 px phone: the learner
types a loop into challenge 3 (Write the Stage-4 Loop) key by key and runs it; challenge 4, which builds on it
(`builds_on` in its exercise.yaml), then offers that code, puts it in the editor, and says so in its live region. The
learner's own work there is replaced only once they confirm, and is kept as a version and one undo away."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.axe import assert_no_violations
from tests.browser.test_editor import type_body
from tests.browser.test_learner import SLOW_LOAD_MS
from tests.browser.test_phone import assert_fits, assert_tappable
from tests.helpers import ROOT, quiet_context, wait_until, without_python

TRACK = "build-an-agent"
EARLIER, LATER, UNRELATED = "stage-4-loop", "malformed-json-recovery", "consecutive-error-limit"
# The stage-4 loop as a learner types it: one statement a line, so the editor's indentation is all it takes.
BODY = [
    "    llm = make_llm(script)",
    '    messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": task}]',
    "    tools_called = []",
    "    for step in range(1, max_steps + 1):",
    "        reply = llm(messages)",
    '        messages.append({"role": "assistant", "content": reply})',
    "        call = parse_tool_call(reply)",
    "        if call is None:",
    '            return {"answer": reply, "steps": step, "tools_called": tools_called, "stop_reason": "final_answer"}',
    '        tools_called.append(call["tool"])',
    '        messages.append({"role": "tool", "content": dispatch(call)})',
    '    return {"answer": None, "steps": max_steps, "tools_called": tools_called, "stop_reason": "max_steps"}',
]
SAVED = "([key, text]) => localStorage.getItem(key)?.trimEnd() === text"
COPIES = "(prefix) => Object.keys(localStorage).filter((key) => key.startsWith(prefix)).length"


def code_key(slug: str) -> str:
    return f"loopcraft:code:{TRACK}/{slug}"


@pytest.fixture(params=["wide", "phone"])
def learner(request, page: Page, browser: Browser):
    """The returning learner's page on a wide screen, or a phone's (390x844, touch) in a context of its own."""
    if request.param == "wide":
        yield page, False
        return
    context = quiet_context(
        browser, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, service_workers="block"
    )
    phone = context.new_page()
    phone.set_default_timeout(30_000)
    yield phone, True
    context.close()


def show_code(page: Page, phone: bool) -> None:
    """On a phone the toolbar and the editor are in the Code tab."""
    if phone:
        page.get_by_role("tab", name="Code").click()


def test_a_later_challenge_starts_from_the_code_typed_into_the_earlier_one(learner, isolated_url: str):
    page, phone = learner
    starter = (ROOT / "exercises" / TRACK / EARLIER / "starter.py").read_text().splitlines()
    define = next(i for i, line in enumerate(starter) if line.startswith("def "))
    typed = "\n".join([*starter[: define + 1], *BODY])

    # Challenge 5: the loop typed key by key over the starter's body, saved, and run.
    page.goto(isolated_url)
    page.locator(f'[data-testid="challenge-link"][data-slug="{EARLIER}"]').click()
    expect(page.get_by_test_id("start-from")).to_have_count(0)  # it builds on nothing
    show_code(page, phone)
    page.locator(".cm-line", has_text=starter[define]).click()
    page.keyboard.press("End")
    page.keyboard.press("Control+Shift+End")
    type_body(page, BODY)
    wait_until(page, SAVED, [code_key(EARLIER), typed], what="the typed loop saved")
    page.get_by_test_id("run").click()
    expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "pass", timeout=SLOW_LOAD_MS * 2)

    # Challenge 8 builds on challenge 7, for which this browser holds nothing: no button.
    without_python(page)  # the later pages only edit
    page.goto(f"{isolated_url}{TRACK}/{UNRELATED}/")
    expect(page.get_by_test_id("start-from")).to_be_hidden()

    # Challenge 4 builds on challenge 3: over the starter, a press puts the typed loop in the editor at once.
    page.goto(isolated_url)
    page.locator(f'[data-testid="challenge-link"][data-slug="{LATER}"]').click()
    show_code(page, phone)
    button = page.get_by_test_id("start-from")
    expect(button).to_be_visible()
    expect(button).to_have_accessible_name("Start from my code for challenge 3: Write the Stage-4 Loop")
    if phone:
        assert_fits(page, "code panel with the start-from button")
        assert_tappable(page, "code panel with the start-from button")
    assert_no_violations(page, "with the start-from button")
    button.click()
    note = page.locator("#editor-note")
    expect(note).to_have_attribute("aria-live", "polite")
    expect(note).to_have_text(
        "The editor now holds your code for challenge 3 (Write the Stage-4 Loop). Ctrl+Z brings back the starter code."
    )
    expect(page.locator(".cm-content")).to_contain_text(BODY[-1].strip())
    wait_until(page, SAVED, [code_key(LATER), typed], what="the later challenge's editor holding the typed loop")
    expect(page.get_by_test_id("copies")).to_have_count(0)  # the starter is no work of the learner's: nothing kept

    # Work of the learner's own: a press asks first, and "no" keeps it as it is.
    page.locator(".cm-line", has_text=BODY[-1].strip()).click()
    page.keyboard.press("Control+Home")
    page.keyboard.type("# my own work on challenge 7\n")
    own = f"# my own work on challenge 7\n{typed}"
    wait_until(page, SAVED, [code_key(LATER), own], what="the learner's own work saved")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    button.click()
    expect(note).to_have_text("Nothing was replaced: the editor keeps your code.")
    assert asked and "challenge 3 (Write the Stage-4 Loop)" in asked[0], asked
    expect(page.locator(".cm-content")).to_contain_text("# my own work on challenge 7")

    # "Yes": replaced, the work kept as a version of this challenge's code, and one undo away.
    page.once("dialog", lambda dialog: dialog.accept())
    button.click()
    expect(note).to_contain_text('Your previous code is kept under "Other versions of your code"')
    wait_until(page, SAVED, [code_key(LATER), typed], what="the typed loop back in the editor")
    expect(page.locator(".cm-content")).not_to_contain_text("# my own work on challenge 7")
    assert page.evaluate(COPIES, f"loopcraft:copy:{TRACK}/{LATER}:") == 1
    expect(page.get_by_test_id("copies").locator("summary")).to_have_text("Other versions of your code (1)")
    page.keyboard.press("Control+z")
    wait_until(page, SAVED, [code_key(LATER), own], what="the learner's own work back after Ctrl+Z")
