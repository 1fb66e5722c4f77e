"""A learner in real headless Chromium against the built site, as a person would use it."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from playwright.sync_api import Page, expect

from tests.helpers import ROOT, cases_of, serve_time_limit

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
    rows = page.get_by_test_id("case")
    return {
        rows.nth(i).get_attribute("data-name"): rows.nth(i).get_attribute("data-status") for i in range(rows.count())
    }


def test_index_lists_the_course_in_order(page: Page, isolated_url: str):
    from loopcraft.exercises import load_course

    (track,) = load_course(ROOT)
    page.goto(isolated_url)
    links = page.get_by_test_id("challenge-link")
    assert [links.nth(i).get_attribute("data-slug") for i in range(links.count())] == [
        item.slug for item in track.items
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


def test_an_infinite_loop_times_out_and_the_page_keeps_working(page: Page, site_url: str, servers: dict):
    # Served 1 s, not the challenge's 3 s, all of which the loop would spend (the service worker's isolation test in
    # test_offline.py runs loops at the real limit).
    serve_time_limit(page, 1)
    open_challenge(page, site_url, "consecutive-error-limit")
    # The reference solution, except that one case never ends: `while True: pass`.
    looping = (CEL / "solution.py").read_text() + (
        "\n_solve = run_agent\n\n"
        "def run_agent(task, script, **options):\n"
        "    if task == 'maths':\n"
        "        while True: pass\n"
        "    return _solve(task, script, **options)\n"
    )
    replace_code(page, looping)
    statuses = run_and_wait(page)
    assert statuses.pop("A success resets the consecutive count") == "timeout"
    assert set(statuses.values()) == {"pass"}
    row = page.locator('[data-testid="case"][data-status="timeout"]')
    expect(row.get_by_test_id("message")).to_contain_text("Stopped after 1 s")
    # Isolated, the interrupt stopped the case; plain, Python was restarted, and the page says why.
    restarted = page.get_by_test_id("status").get_attribute("data-restart-reason")
    assert restarted == (None if site_url == servers["isolated"] else "no-interrupt")
    # The editor kept the learner's text, and the next run works.
    expect(page.locator('[data-testid="editor"] .cm-content')).to_contain_text("_solve = run_agent")
    page.get_by_test_id("upload").set_input_files(CEL / "solution.py")
    assert set(run_and_wait(page).values()) == {"pass"}


def test_code_is_saved_restored_on_reload_and_reset_is_undoable(page: Page, isolated_url: str):
    open_challenge(page, isolated_url, "malformed-json-recovery")
    starter = page.locator('[data-testid="editor"] .cm-content').inner_text()
    replace_code(page, "def run_agent(task, script, max_steps=5):\n    return {'mine': True}\n")
    expect(page.get_by_test_id("saved")).to_have_text("Saved")
    page.reload()
    expect(page.locator('[data-testid="editor"] .cm-content')).to_contain_text("{'mine': True}")
    page.get_by_test_id("reset").click()
    expect(page.locator('[data-testid="editor"] .cm-content')).not_to_contain_text("{'mine': True}")
    assert page.locator('[data-testid="editor"] .cm-content').inner_text() == starter
    page.keyboard.press("Control+z")
    expect(page.locator('[data-testid="editor"] .cm-content')).to_contain_text("{'mine': True}")


def test_a_syntax_error_is_shown_with_the_learners_line_number(page: Page, isolated_url: str):
    open_challenge(page, isolated_url, "malformed-json-recovery")
    replace_code(page, "import json\n\ndef run_agent(task, script, max_steps=5:\n    pass\n")
    page.keyboard.press("Control+Enter")
    expect(page.get_by_test_id("run")).to_be_enabled(timeout=SLOW_LOAD_MS)
    rows = page.get_by_test_id("case")
    expect(rows.first).to_have_attribute("data-status", "error")
    expect(rows.first.get_by_test_id("message")).to_contain_text('File "solution.py", line 3')
    expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "error")


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


@pytest.mark.first_visit  # a restore from a kept snapshot would not ask for the standard library
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


def test_a_worker_that_fails_before_the_page_script_listens_is_reported(page: Page, isolated_url: str):
    # The worker is spawned by an inline script before app.js loads; an error it raises meanwhile is kept.
    page.route("**/assets/worker.js*", lambda route: route.fulfill(status=404, body="not found"))
    page.goto(isolated_url + "build-an-agent/consecutive-error-limit/")
    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-state", "error", timeout=SLOW_LOAD_MS)
    expect(status).to_contain_text("Python failed to load")
