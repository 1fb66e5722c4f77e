"""Work that travels, in real headless Chromium: everything a learner has in one browser (code, scenarios,
solved marks, hints, and keys other pages add later) is exported as one versioned file and imported in
another browser exactly; when both browsers hold different code, the learner chooses per challenge and the
other version stays recoverable; a challenge changed by a new site version says so and keeps the code."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_learner import CEL, SLOW_LOAD_MS, open_challenge, replace_code, run_and_wait
from tests.helpers import FIRST_TRACK, without_python

TRACK = "build-an-agent"
SOLVED, EDITED = "consecutive-error-limit", "malformed-json-recovery"
STORAGE = "Object.fromEntries(Object.keys(localStorage).filter(k => k.startsWith('loopcraft:')).map(k => [k, localStorage.getItem(k)]))"


@pytest.fixture
def new_page(page: Page, returning_browser):
    """The learner's browsers in turn: first the one they use, then others, as on another computer. Each next one is
    the same returning browser with the previous one's pages closed and everything they left cleared (as between
    tests): nothing of the learner's work is left in it, and its pages restore Python instead of booting it."""
    opened = []

    def make() -> Page:
        if not opened:
            opened.append(page)
            return page
        returning_browser.reset()
        opened.append(returning_browser.context.new_page())
        opened[-1].set_default_timeout(30_000)
        return opened[-1]

    return make


def export(page: Page, base: str, tmp_path) -> tuple[dict, str]:
    page.goto(base)
    with page.expect_download() as info:
        page.get_by_test_id("export").click()
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(path)
    expect(page.get_by_test_id("transfer-message")).to_contain_text("Exported")
    return json.loads(path.read_text()), str(path)


def import_file(page: Page, base: str, path) -> None:
    page.goto(base)
    picker = page.get_by_test_id("import")
    expect(picker).to_be_enabled()  # by the page's script: a file chosen before then would not be read
    picker.set_input_files(path)


@pytest.mark.page_errors(r"Failed to load resource: net::ERR_FAILED \(at .*/assets/index\.js")
def test_until_its_script_has_run_the_index_offers_no_export_or_import_that_does_nothing(page: Page, isolated_url):
    page.route("**/assets/index.js*", lambda route: route.abort())
    page.goto(isolated_url)
    expect(page.get_by_test_id("challenge-link").first).to_be_visible()  # the course is listed without it
    expect(page.get_by_test_id("export")).to_be_disabled()
    expect(page.get_by_test_id("import")).to_be_disabled()


def test_an_export_imported_into_a_fresh_browser_restores_everything_exactly(new_page, isolated_url: str, tmp_path):
    first = new_page()
    open_challenge(first, isolated_url, SOLVED)
    first.get_by_test_id("upload").set_input_files(CEL / "solution.py")
    assert set(run_and_wait(first).values()) == {"pass"}
    first.get_by_test_id("hint-button").click()
    first.get_by_test_id("scenario-args").fill("task='mine', script=['ok']")
    without_python(first)  # from here on, only edits and reads
    open_challenge(first, isolated_url, EDITED, python=False)
    replace_code(first, "def run_agent(task, script, max_steps=5):\n    return {'edited': 'yes, ünïcode'}\n")
    expect(first.get_by_test_id("saved")).to_have_text("Saved")
    # A key some later page adds travels too, without this code knowing it.
    first.evaluate("localStorage.setItem('loopcraft:lesson:build-an-agent/intro', '{\"step\": 3}')")
    before = first.evaluate(STORAGE)

    exported, path = export(first, isolated_url, tmp_path)
    assert exported["format"] == "loopcraft-progress" and exported["version"] == 1
    assert exported["entries"] == before
    assert {
        f"loopcraft:code:{TRACK}/{SOLVED}",
        f"loopcraft:solved:{TRACK}/{SOLVED}",
        f"loopcraft:unlock:{TRACK}/{SOLVED}",
        f"loopcraft:hints:{TRACK}/{SOLVED}",
        f"loopcraft:scenario:{TRACK}/{SOLVED}",
        f"loopcraft:code:{TRACK}/{EDITED}",
    } <= set(before)

    second = new_page()
    without_python(second)
    import_file(second, isolated_url, path)
    expect(second.get_by_test_id("transfer-message")).to_contain_text(f"Imported {len(before)} saved items")
    assert second.evaluate(STORAGE) == before
    # The index shows the progress at once, and the pages show the work.
    expect(second.get_by_test_id("solved-mark")).to_have_count(1)
    expect(second.locator(f'[data-slug="{EDITED}"]').get_by_test_id("started-mark")).to_have_text("Started")
    open_challenge(second, isolated_url, SOLVED, python=False)
    expect(second.locator("[data-solved-badge]")).to_be_visible()
    # Solved in the other browser: its reference solution is open here too, with no run (there is no Python).
    expect(second.get_by_test_id("solution")).to_contain_text("Reference solution (unlocked)")
    expect(second.get_by_test_id("solution").locator("code")).to_have_text((CEL / "solution.py").read_text())
    expect(second.get_by_test_id("hint")).to_have_count(1)
    expect(second.get_by_test_id("scenario-args")).to_have_value("task='mine', script=['ok']")
    expect(second.get_by_test_id("code-state")).to_have_text("Your code")
    open_challenge(second, isolated_url, EDITED, python=False)
    expect(second.locator(".cm-content")).to_contain_text("return {'edited': 'yes, ünïcode'}")
    expect(second.get_by_test_id("site-changed")).to_be_hidden()


def test_different_code_in_both_browsers_is_the_learners_choice_and_nothing_is_lost(
    new_page, isolated_url: str, tmp_path
):
    travelling = "def run_agent(task, script, max_steps=5):\n    return 'from the file'\n"
    staying = "def run_agent(task, script, max_steps=5):\n    return 'from this browser'\n"
    first = new_page()
    without_python(first)  # every page here only edits and reads
    for slug in (SOLVED, EDITED):
        open_challenge(first, isolated_url, slug, python=False)
        replace_code(first, travelling)
        expect(first.get_by_test_id("saved")).to_have_text("Saved")
    _, path = export(first, isolated_url, tmp_path)

    second = new_page()
    without_python(second)
    for slug in (SOLVED, EDITED):
        open_challenge(second, isolated_url, slug, python=False)
        replace_code(second, staying)
        expect(second.get_by_test_id("saved")).to_have_text("Saved")
    import_file(second, isolated_url, path)
    choices = second.get_by_test_id("import-choice")
    expect(choices).to_have_count(2)
    # Nothing changes until the learner has chosen for every challenge.
    second.get_by_test_id("import-apply").click()
    expect(second.get_by_test_id("transfer-message")).to_contain_text("Choose which version")
    assert second.evaluate(f"localStorage.getItem('loopcraft:code:{TRACK}/{SOLVED}')") == staying
    choices.filter(has_text="Recover From Malformed").get_by_test_id("choose-incoming").check()
    choices.filter(has_not_text="Recover From Malformed").get_by_test_id("choose-local").check()
    second.get_by_test_id("import-apply").click()
    expect(second.get_by_test_id("transfer-message")).to_contain_text("kept the code you did not choose (2 versions)")

    # The file's code where it was chosen; this browser's where it was kept; the other one a click away.
    open_challenge(second, isolated_url, SOLVED, python=False)
    expect(second.locator(".cm-content")).to_contain_text("from the file")
    second.get_by_test_id("copies").locator("summary").click()
    # Each version says where it was, not only when it was kept.
    expect(second.get_by_test_id("copy-what")).to_contain_text(
        "This browser's code, replaced by the imported file's; kept on"
    )
    second.get_by_test_id("copy-load").click()
    expect(second.locator(".cm-content")).to_contain_text("from this browser")
    open_challenge(second, isolated_url, EDITED, python=False)
    expect(second.locator(".cm-content")).to_contain_text("from this browser")
    second.get_by_test_id("copies").locator("summary").click()
    expect(second.get_by_test_id("copy-what")).to_contain_text("The imported file's code, not chosen; kept on")
    second.get_by_test_id("copy-load").click()
    expect(second.locator(".cm-content")).to_contain_text("from the file")


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json at all", "it is not JSON"),
        ('{"format": "something-else", "version": 1, "entries": {}}', 'its "format" should be "loopcraft-progress"'),
        ('{"format": "loopcraft-progress", "version": 2, "entries": {}}', "this site reads version 1"),
        ('{"format": "loopcraft-progress", "version": 1, "entries": {"other:key": "x"}}', "is damaged"),
    ],
)
def test_a_file_that_is_not_a_progress_file_is_refused_and_changes_nothing(
    new_page, isolated_url: str, tmp_path, content: str, message: str
):
    page = new_page()
    page.goto(isolated_url)
    page.evaluate(f"localStorage.setItem('loopcraft:code:{TRACK}/{SOLVED}', 'mine')")
    bad = tmp_path / "progress.json"
    bad.write_text(content)
    import_file(page, isolated_url, bad)
    expect(page.get_by_test_id("transfer-message")).to_contain_text(message)
    assert page.evaluate(STORAGE) == {f"loopcraft:code:{TRACK}/{SOLVED}": "mine"}


def test_each_challenge_says_whether_the_code_is_the_starter_and_when_the_site_changed_it(new_page, isolated_url: str):
    page = new_page()
    open_challenge(page, isolated_url, EDITED, python=False)
    state = page.get_by_test_id("code-state")
    expect(state).to_have_text("Starter code")
    replace_code(page, "def run_agent(task, script, max_steps=5):\n    return {}\n")
    expect(state).to_have_text("Your code")
    page.get_by_test_id("reset").click()
    expect(state).to_have_text("Starter code")
    page.keyboard.press("Control+z")
    expect(state).to_have_text("Your code")
    expect(page.get_by_test_id("saved")).to_have_text("Saved")
    base = page.evaluate(f"localStorage.getItem('loopcraft:base:{TRACK}/{EDITED}')")
    assert base and len(base) == 8

    # The code was saved against another version of the challenge (a new site changed its starter or cases).
    page.evaluate(f"localStorage.setItem('loopcraft:base:{TRACK}/{EDITED}', '00000000')")
    page.reload()
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_LOAD_MS)
    expect(page.get_by_test_id("site-changed")).to_contain_text("This challenge has changed since you saved your code")
    expect(page.locator(".cm-content")).to_contain_text("return {}")
    # Once the learner works on it, it is their code for this version.
    page.locator(".cm-content").click()
    page.keyboard.press("End")
    page.keyboard.type(" ")
    expect(page.get_by_test_id("site-changed")).to_be_hidden()
    page.reload()
    expect(page.get_by_test_id("site-changed")).to_be_hidden()
    assert page.evaluate(f"localStorage.getItem('loopcraft:base:{TRACK}/{EDITED}')") == base


@pytest.mark.parametrize("choice", ["incoming", "local"])
def test_a_challenge_solved_in_the_file_stays_solved_whichever_code_the_learner_keeps(
    new_page, isolated_url: str, tmp_path, choice: str
):
    """Issue 39: one conflicting challenge, solved only in the file; "Use the file's" left it "Started"."""
    first = new_page()
    without_python(first)
    first.goto(isolated_url)
    first.evaluate(
        f"""() => {{
            localStorage.setItem('loopcraft:code:{TRACK}/{SOLVED}', 'def run_agent(task, script, max_steps=5):\\n    return "solved there"\\n');
            localStorage.setItem('loopcraft:solved:{TRACK}/{SOLVED}', '2026-11-01T10:00:00.000Z');
        }}"""
    )
    _, path = export(first, isolated_url, tmp_path)

    second = new_page()
    without_python(second)
    open_challenge(second, isolated_url, SOLVED, python=False)
    replace_code(second, "def run_agent(task, script, max_steps=5):\n    return 'started here'\n")
    expect(second.get_by_test_id("saved")).to_have_text("Saved")
    import_file(second, isolated_url, path)
    expect(second.get_by_test_id("import-choice")).to_have_count(1)
    second.get_by_test_id(f"choose-{choice}").check()
    second.get_by_test_id("import-apply").click()
    expect(second.get_by_test_id("transfer-message")).to_contain_text("kept the code you did not choose (1 version)")

    link = second.locator(f'[data-slug="{SOLVED}"]')
    expect(link.get_by_test_id("solved-mark")).to_have_text("Solved")
    expect(link.get_by_test_id("started-mark")).to_have_count(0)
    expect(second.locator(FIRST_TRACK).get_by_test_id("progress").locator(".progress-count")).to_contain_text("1 of ")
    assert second.evaluate(f"localStorage.getItem('loopcraft:solved:{TRACK}/{SOLVED}')") == "2026-11-01T10:00:00.000Z"
    open_challenge(second, isolated_url, SOLVED, python=False)
    expect(second.locator("[data-solved-badge]")).to_be_visible()
    expect(second.locator(".cm-content")).to_contain_text("solved there" if choice == "incoming" else "started here")


def test_a_different_loop_lab_column_is_a_choice_that_names_the_loops(new_page, isolated_url: str, tmp_path):
    key = f"loopcraft:lab-loop:{TRACK}/lab"
    first = new_page()
    without_python(first)
    first.goto(isolated_url)
    first.evaluate(f"localStorage.setItem('{key}', JSON.stringify({{file: 'mine.py', code: 'x = 1'}}))")
    _, path = export(first, isolated_url, tmp_path)

    second = new_page()
    without_python(second)
    second.goto(isolated_url)
    second.evaluate(f"localStorage.setItem('{key}', JSON.stringify({{slug: 'repeat-guard'}}))")
    import_file(second, isolated_url, path)
    choice = second.get_by_test_id("import-choice")
    expect(choice.locator("legend")).to_have_text("The loop lab")
    expect(choice).to_contain_text("Keep this browser's (the lab's loop: Stop a Model That Repeats Itself)")
    expect(choice).to_contain_text("Use the file's (the lab's loop: mine.py)")
    second.get_by_test_id("choose-incoming").check()
    second.get_by_test_id("import-apply").click()
    expect(second.get_by_test_id("transfer-message")).to_contain_text("Imported 1 saved item")
    assert json.loads(second.evaluate(f"localStorage.getItem('{key}')")) == {"file": "mine.py", "code": "x = 1"}
