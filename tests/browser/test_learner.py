"""A learner in real headless Chromium against the built site, as a person would use it."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from playwright.sync_api import Page, expect

from tests.helpers import FIRST_TRACK, ROOT, cases_of, serve_time_limit, the_track, wait_for_snapshot, without_python
from tests.support import FIRST_VISIT_START

CEL = ROOT / "exercises" / "build-an-agent" / "consecutive-error-limit"
SLOW_LOAD_MS = 90_000  # Pyodide loads in seconds; a restarted worker loads again


def open_challenge(page: Page, base: str, slug: str, *, python: bool = True) -> None:
    """Follow the index's link, as a learner would, and wait until Python is ready (or, `python=False`, only the
    editor: a test that only edits need not pay for Python's start, which leaving the page cuts short)."""
    page.goto(base)
    page.locator(f'[data-testid="challenge-link"][data-slug="{slug}"]').click()
    expect(page.get_by_test_id("editor")).to_be_visible()
    if python:
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_LOAD_MS)


def replace_code(page: Page, code: str) -> None:
    page.locator('[data-testid="editor"] .cm-content').click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(code)


def run_and_wait(page: Page) -> dict[str, str]:
    page.get_by_test_id("run").click()
    expect(page.get_by_test_id("run")).to_be_enabled(timeout=SLOW_LOAD_MS * 2)
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready")
    return statuses(page)


def statuses(page: Page) -> dict[str, str]:
    """{case name: status} of the result cards, in order."""
    rows = page.get_by_test_id("case")
    return {
        rows.nth(i).get_attribute("data-name"): rows.nth(i).get_attribute("data-status") for i in range(rows.count())
    }


def looping_on(task: str) -> str:
    """The reference solution, except that the cases of `task` never end: `while True: pass`."""
    return (CEL / "solution.py").read_text() + (
        "\n_solve = run_agent\n\n"
        "def run_agent(task, script, **options):\n"
        f"    if task == {task!r}:\n"
        "        while True: pass\n"
        "    return _solve(task, script, **options)\n"
    )


def test_index_lists_the_course_in_order(page: Page, isolated_url: str):
    track = the_track()
    page.goto(isolated_url)
    links = page.locator(FIRST_TRACK).get_by_test_id("challenge-link")
    # The loop lab closes the course.
    assert [links.nth(i).get_attribute("data-slug") for i in range(links.count())] == [
        *(item.slug for item in track.items),
        "lab",
    ]
    expect(page.locator("body")).to_contain_text("Build an Agent")
    expect(page.locator("body")).to_contain_text(re.compile("medium", re.IGNORECASE))
    expect(page.locator("body")).to_contain_text("20 min")


def test_a_correct_solution_passes_every_case(page: Page, site_url: str):
    open_challenge(page, site_url, "consecutive-error-limit")
    page.get_by_test_id("upload").set_input_files(CEL / "solution.py")
    statuses = run_and_wait(page)
    cases = cases_of("consecutive-error-limit")
    assert len(statuses) == len(cases) and set(statuses.values()) == {"pass"}
    expect(page.get_by_test_id("status")).to_contain_text(f"{len(cases)} of {len(cases)} cases passed")
    hidden = page.locator('[data-testid="case"][data-hidden="true"]')
    expect(hidden).to_have_count(sum(c.hidden for c in cases))
    # A hidden case shows its name and verdict, never its input or expected value.
    expect(hidden.first.get_by_test_id("expected")).to_have_count(0)


# Chooses a file and presses Run in one task, before the browser has read the file: the quickest a learner (or a
# test on a loaded machine) can be.
CHOOSE_AND_RUN = """(text) => {
  const files = new DataTransfer();
  files.items.add(new File([text], "mine.py", { type: "text/x-python" }));
  const upload = document.querySelector('[data-testid="upload"]');
  upload.files = files.files;
  upload.dispatchEvent(new Event("change"));
  document.querySelector('[data-testid="run"]').click();
}"""


def test_run_pressed_at_once_after_choosing_a_file_runs_that_file(page: Page, isolated_url: str):
    open_challenge(page, isolated_url, "consecutive-error-limit")
    page.evaluate(CHOOSE_AND_RUN, (CEL / "solution.py").read_text())
    expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "pass", timeout=SLOW_LOAD_MS)


def test_a_wrong_solution_fails_the_case_that_catches_it_and_shows_the_difference(page: Page, isolated_url: str):
    open_challenge(page, isolated_url, "consecutive-error-limit")
    page.get_by_test_id("upload").set_input_files(CEL / "wrong" / "no_reset.py")
    statuses = run_and_wait(page)
    failing = [name for name, status in statuses.items() if status != "pass"]
    assert failing == ["A success resets the consecutive count"]
    row = page.locator('[data-testid="case"][data-status="fail"]')
    expect(row.get_by_test_id("message")).to_have_text("Differs from expected at: answer, errors, steps, stop_reason.")
    expect(row.get_by_test_id("expected")).to_contain_text("'stop_reason': 'final_answer'")
    expect(row.get_by_test_id("actual")).to_contain_text("'stop_reason': 'too_many_errors'")
    expect(row.get_by_test_id("actual").locator("mark")).to_have_count(4)


def test_a_run_ends_at_its_first_case_that_times_out_and_the_page_keeps_working(
    page: Page, site_url: str, servers: dict
):
    # Served 1 s, not the challenge's 3 s, all of which the loop would spend (the service worker's isolation test in
    # test_offline.py runs loops at the real limit).
    serve_time_limit(page, 1)
    open_challenge(page, site_url, "consecutive-error-limit")
    # Every case whose task is "maths" would loop: the fourth is the first, and the run ends there.
    replace_code(page, looping_on("maths"))
    names = [case.name for case in cases_of("consecutive-error-limit")]
    looping = names.index("A success resets the consecutive count")
    assert list(run_and_wait(page).values()) == (
        ["pass"] * looping + ["timeout"] + ["not-run"] * (len(names) - looping - 1)
    )
    row = page.locator('[data-testid="case"][data-status="timeout"]')
    expect(row.get_by_test_id("message")).to_contain_text("Stopped after 1 s")
    # Why the rest were not run, said once, above the cases; the cards that were not run say no more.
    note = page.get_by_test_id("run-note")
    expect(note).to_contain_text(f"{len(names) - looping - 1} cases not run: the run ended at {names[looping]}")
    expect(page.locator('[data-testid="case"][data-status="not-run"]').get_by_test_id("message")).to_have_count(0)
    expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "fail")
    expect(page.get_by_test_id("failures").locator("a")).to_have_text([names[looping]])
    # Isolated, the interrupt stopped the case; plain, Python was restarted, and the page says why.
    restarted = page.get_by_test_id("status").get_attribute("data-restart-reason")
    assert restarted == (None if site_url == servers["isolated"] else "no-interrupt")
    # The editor kept the learner's text, and the next run works.
    expect(page.locator('[data-testid="editor"] .cm-content')).to_contain_text("_solve = run_agent")
    page.get_by_test_id("upload").set_input_files(CEL / "solution.py")
    assert set(run_and_wait(page).values()) == {"pass"}
    expect(note).to_be_hidden()


@pytest.mark.parametrize("how", ["button", "escape"])
def test_stop_ends_a_run_at_once_and_says_so(page: Page, site_url: str, servers: dict, how: str):
    # A limit no run here comes near: only Stop can end the loop before the test gives up.
    serve_time_limit(page, 600)
    open_challenge(page, site_url, "consecutive-error-limit")
    stop = page.get_by_test_id("stop")
    expect(stop).to_be_disabled()
    replace_code(page, looping_on("1+2?"))  # the first case loops
    page.keyboard.press("Control+Enter")
    expect(page.get_by_test_id("status")).to_have_text(re.compile("Running case 1 of"))
    expect(stop).to_be_enabled()
    if how == "button":
        stop.click()
    else:
        page.keyboard.press("Escape")  # from the editor, where the run was started
    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-outcome", "stopped", timeout=SLOW_LOAD_MS)
    total = len(cases_of("consecutive-error-limit"))
    expect(status).to_have_text(f"You stopped the run: 0 of {total} cases passed, {total} not run.")
    assert set(statuses(page).values()) == {"not-run"}
    expect(page.get_by_test_id("run-note")).to_have_text(f"{total} cases not run: you stopped the run.")
    expect(stop).to_be_disabled()
    # Isolated, the loop was interrupted; plain, Python was restarted for it, and the page says why.
    restarted = status.get_attribute("data-restart-reason")
    assert restarted == (None if site_url == servers["isolated"] else "stopped")
    # Python is sound afterwards: the next run passes.
    page.get_by_test_id("upload").set_input_files(CEL / "solution.py")
    assert set(run_and_wait(page).values()) == {"pass"}


@pytest.mark.first_visit
def test_a_first_visit_keeps_pythons_snapshot_though_the_page_is_never_idle(page: Page, isolated_url: str):
    # This page may do background work (the tests' pages are quiet): the snapshot is such work.
    page.add_init_script("localStorage.removeItem('loopcraft.background')")
    serve_time_limit(page, 600)
    open_challenge(page, isolated_url, "consecutive-error-limit", python=False)
    # Busy from the start: Run pressed while Python loads, on a loop no limit here ends. A snapshot made only once the
    # page had been idle for a moment (as it was) would never be made.
    replace_code(page, looping_on("1+2?"))
    page.keyboard.press("Control+Enter")
    expect(page.get_by_test_id("status")).to_have_text(re.compile("Running case 1 of"), timeout=SLOW_LOAD_MS)
    # Restored from the snapshot the site ships (kept as this browser's own), or booted where that one is refused.
    assert page.locator("body").get_attribute("data-python-start") == FIRST_VISIT_START
    assert page.locator("body").get_attribute("data-snapshot-keeping") == "true"
    wait_for_snapshot(page)
    page.get_by_test_id("stop").click()
    page.close()
    # The next page, in the same browser, restores Python from it instead of booting it.
    second = page.context.new_page()
    second.goto(isolated_url + "build-an-agent/consecutive-error-limit/")
    expect(second.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_LOAD_MS)
    assert second.locator("body").get_attribute("data-python-start") == "restored"


# The reference solution, wrong on two cases: a visible one in the middle and the hidden last one.
TWO_WRONG = (CEL / "solution.py").read_text() + (
    "\n_solve = run_agent\n\n"
    "def run_agent(task, script, **options):\n"
    "    if task == 'Add 2 and 3.' or script[-1].startswith('Search is down'):\n"
    "        return {}\n"
    "    return _solve(task, script, **options)\n"
)


def test_a_failing_run_names_its_failing_cases_and_shows_the_first(page: Page, isolated_url: str):
    open_challenge(page, isolated_url, "consecutive-error-limit")
    replace_code(page, TWO_WRONG)
    page.keyboard.press("Control+Home")
    page.keyboard.press("Control+Enter")
    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-outcome", "fail", timeout=SLOW_LOAD_MS)
    cases = cases_of("consecutive-error-limit")
    failing = [c.name for c in cases if c.args["task"] == "Add 2 and 3." or c.args["script"][-1].startswith("Search")]
    assert len(failing) == 2 and failing[-1] == cases[-1].name
    assert [name for name, status in statuses(page).items() if status != "pass"] == failing
    expect(status).to_have_text(f"{len(cases) - 2} of {len(cases)} cases passed. Not passing: {' and '.join(failing)}.")
    links = page.get_by_test_id("failures").locator("a")
    expect(links).to_have_text(failing)
    # The first failing card is open and in view; passing ones are one line each, opened on request.
    first = page.locator(f'[data-testid="case"][data-name="{failing[0]}"]')
    expect(first.get_by_test_id("message")).to_be_visible()
    expect(first).to_be_in_viewport()
    passing = page.locator('[data-testid="case"][data-status="pass"]').first
    expect(passing.get_by_test_id("expected")).to_be_hidden()
    # The keyboard stayed in the editor through the run: showing the card did not take it.
    expect(page.locator('[data-testid="editor"] .cm-content')).to_be_focused()
    passing.locator(".case-head").click()
    expect(passing.get_by_test_id("expected")).to_be_visible()
    # A name in the status takes the learner to its card, opened, the keyboard's focus on it.
    links.nth(1).click()
    last = page.locator(f'[data-testid="case"][data-name="{failing[1]}"]')
    expect(last.locator(".case-head")).to_be_focused()
    expect(last).to_be_in_viewport()
    expect(last.get_by_test_id("message")).to_have_text("Hidden case: your result differs from the expected one.")
    assert page.evaluate("window.loopcraft.lastResult.status") == "fail"


def test_code_is_saved_restored_on_reload_and_reset_is_undoable(page: Page, isolated_url: str):
    without_python(page)
    open_challenge(page, isolated_url, "malformed-json-recovery", python=False)
    code_state = page.get_by_test_id("code-state")  # the page's word on whether the editor holds the starter
    expect(code_state).to_have_text("Starter code")
    replace_code(page, "def run_agent(task, script, max_steps=5):\n    return {'mine': True}\n")
    expect(page.get_by_test_id("saved")).to_have_text("Saved")
    page.reload()
    expect(page.locator('[data-testid="editor"] .cm-content')).to_contain_text("{'mine': True}")
    page.get_by_test_id("reset").click()
    expect(page.locator('[data-testid="editor"] .cm-content')).not_to_contain_text("{'mine': True}")
    expect(code_state).to_have_text("Starter code")
    page.keyboard.press("Control+z")
    expect(page.locator('[data-testid="editor"] .cm-content')).to_contain_text("{'mine': True}")


def test_a_syntax_error_is_said_once_above_the_cases_and_the_editor_shows_its_line(page: Page, isolated_url: str):
    open_challenge(page, isolated_url, "malformed-json-recovery")
    # Line 60, far below what the editor shows at once; the learner is at the top when they press Run.
    replace_code(page, "import json\n" + "\n" * 58 + "def run_agent(task, script, max_steps=5:\n    pass\n")
    page.keyboard.press("Control+Home")
    page.keyboard.press("Control+Enter")
    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-outcome", "error", timeout=SLOW_LOAD_MS)
    expect(status).to_have_text("Your code could not be loaded, so no case ran: see the error below.")
    note = page.get_by_test_id("run-note")
    expect(note.get_by_test_id("load-error")).to_contain_text('File "solution.py", line 60')
    # Said once: no card repeats it, every case is "not run".
    results = page.locator("#panel-results")
    expect(results.get_by_text("SyntaxError")).to_have_count(1)
    assert set(statuses(page).values()) == {"not-run"}
    expect(page.get_by_test_id("case").get_by_test_id("message")).to_have_count(0)
    # The editor scrolled to the line and marked it (it only draws the lines in view).
    mark = page.locator(".cm-lintRange-error")
    expect(mark).to_be_in_viewport()
    expect(mark).to_have_text("def run_agent(task, script, max_steps=5:")
    assert page.evaluate("window.loopcraft.lastResult.status") == "error"
    # "Show line 60" puts the cursor there.
    note.get_by_test_id("show-error-line").click()
    expect(page.locator('[data-testid="editor"] .cm-content')).to_be_focused()
    page.keyboard.type("#")
    expect(page.locator(".cm-line", has_text="#def run_agent")).to_have_count(1)


def test_the_tasks_code_wraps_rather_than_hide_the_end_of_a_line(page: Page, isolated_url: str):
    # The exact message to send back to the model is in the task: at 1280 px its end was cut off.
    page.set_viewport_size({"width": 1280, "height": 800})
    without_python(page)
    open_challenge(page, isolated_url, "consecutive-error-limit", python=False)
    message = page.locator(".task pre", has_text="could not parse your tool call")
    expect(message).to_contain_text("Reply with a JSON tool call or a final answer.")
    for block in [message, page.locator(".signature")]:
        assert block.evaluate("el => el.scrollWidth <= el.clientWidth"), block.inner_text()


def test_the_hints_end_at_the_last_one(page: Page, isolated_url: str):
    from loopcraft.course.load import find_exercise

    total = len(find_exercise(ROOT, "consecutive-error-limit").hints)
    without_python(page)
    open_challenge(page, isolated_url, "consecutive-error-limit", python=False)
    button = page.get_by_test_id("hint-button")
    for shown in range(1, total + 1):
        expect(button).to_have_text(f"Show {'another' if shown > 1 else 'a'} hint ({shown} of {total})")
        button.click()
        expect(page.get_by_test_id("hint")).to_have_count(shown)
    # No "(4 of 3)": the button is gone, and a press on it by script changes nothing (and throws nothing).
    expect(button).to_be_hidden()
    button.dispatch_event("click")
    expect(page.get_by_test_id("hint")).to_have_count(total)
    page.reload()
    expect(page.get_by_test_id("hint")).to_have_count(total)
    expect(button).to_be_hidden()


def test_browser_and_command_line_give_identical_results(page: Page, isolated_url: str, tmp_path):
    # A solution with a bit of everything: passes, fails, an error, printed output.
    solution = (CEL / "wrong" / "greater_than.py").read_text() + (
        "\n_solve = run_agent\n\n"
        "def run_agent(task, script, **options):\n"
        "    print('task:', task)\n"
        "    if task == 'maths':\n"
        "        raise RuntimeError('boom')\n"
        "    return _solve(task, script, **options)\n"
    )
    path = tmp_path / "mixed.py"
    path.write_text(solution)
    open_challenge(page, isolated_url, "consecutive-error-limit")
    page.get_by_test_id("upload").set_input_files(path)
    run_and_wait(page)
    in_browser = page.evaluate("window.loopcraft.lastResult")

    cli = subprocess.run(
        [sys.executable, "-m", "grader", "consecutive-error-limit", str(path), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    on_command_line = json.loads(cli.stdout)
    on_command_line.pop("file")
    # The command line also grades the private cases, which the page never has.
    private = {case.name for case in cases_of("consecutive-error-limit", page=False) if case.private}
    assert private and {t["name"] for t in on_command_line["tests"]} >= private
    on_command_line["tests"] = [t for t in on_command_line["tests"] if t["name"] not in private]
    assert {t["status"] for t in in_browser["tests"]} == {"pass", "fail", "error"}
    assert in_browser == on_command_line


@pytest.mark.first_visit  # Python from the snapshot the site ships, or booted where it is refused
@pytest.mark.page_errors("Failed to fetch", "installing the standard library")  # Pyodide's own, in the worker
@pytest.mark.parametrize("missing", ["pyodide.asm.wasm", "python_stdlib.zip"])
def test_python_that_cannot_start_says_so_and_keeps_the_editor(page: Page, isolated_url: str, missing: str):
    # A file of Pyodide's never arrives (a proxy, a broken deploy): the page must say so, not load forever
    # (Pyodide itself only logs a failed WebAssembly download, and never settles).
    page.route(f"**/pyodide/{missing}*", lambda route: route.abort())
    page.goto(isolated_url + "build-an-agent/consecutive-error-limit/")
    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-state", "error", timeout=SLOW_LOAD_MS)
    expect(status).to_contain_text("Python failed to load")
    expect(page.get_by_test_id("run")).to_be_disabled()
    replace_code(page, "def run_agent(task):\n    return {}\n")
    expect(page.get_by_test_id("saved")).to_have_text("Saved")


@pytest.mark.first_visit
@pytest.mark.page_errors("Failed to fetch dynamically imported module")  # the first start's, on purpose
def test_a_start_that_fails_once_is_tried_again_and_python_gets_ready(page: Page, isolated_url: str):
    # Pyodide's loader fails to arrive once (a dropped connection, a reload while the service worker caches the site):
    # the page starts Python once more, and says so in the console only.
    dropped = []

    def once(route):
        if dropped:
            return route.continue_()
        dropped.append(route.request.url)
        return route.abort()

    warnings = []
    page.on("console", lambda message: message.type == "warning" and warnings.append(message.text))
    page.route("**/pyodide/pyodide.mjs", once)
    page.goto(isolated_url + "build-an-agent/consecutive-error-limit/")
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_LOAD_MS)
    assert len(dropped) == 1
    assert [w for w in warnings if w.startswith("Python failed to start (")] == [
        f"Python failed to start (Failed to fetch dynamically imported module: {dropped[0]}); trying once more"
    ]
    expect(page.get_by_test_id("run")).to_be_enabled()


def test_a_worker_that_fails_before_the_page_script_listens_is_reported(page: Page, isolated_url: str):
    # The worker is spawned by an inline script before app.js loads; an error it raises meanwhile is kept.
    page.route("**/assets/worker.js*", lambda route: route.fulfill(status=404, body="not found"))
    page.goto(isolated_url + "build-an-agent/consecutive-error-limit/")
    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-state", "error", timeout=SLOW_LOAD_MS)
    expect(status).to_contain_text("Python failed to load")
