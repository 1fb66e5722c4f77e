"""Try your own scenario, as a learner would in real headless Chromium: their own arguments, prefilled from
an example in one click, run on their code through the page's Python session; they see the value, the
printed output and the trace; it is never graded, counted or unlocking; bad input gets a clear message;
the scenario is kept with their code."""

from __future__ import annotations

import ast

from playwright.sync_api import Page, expect

from tests.browser.test_learner import CEL, open_challenge, replace_code
from tests.helpers import the_track

SLUG = "consecutive-error-limit"
MY_OWN = "task='my own',\nscript=['All done, no tools.']"


def call_args(text: str) -> dict:
    """The box's text read by Python itself, as the arguments of a call."""
    call = ast.parse(f"f({text})", mode="eval").body
    assert not call.args
    return {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords}


def run_scenario(page: Page) -> None:
    page.get_by_test_id("scenario-run").click()
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=60_000)
    expect(page.get_by_test_id("scenario-run")).to_be_enabled()


def test_a_scenario_of_the_learners_own_shows_value_output_and_trace_and_is_never_graded(page: Page, isolated_url: str):
    track = the_track()
    exercise = next(ex for ex in track.exercises if ex.slug == SLUG)
    examples = [case for case in exercise.cases if not case.hidden]
    open_challenge(page, isolated_url, SLUG)
    args = page.get_by_test_id("scenario-args")
    # Prefilled from the first example; one click takes another.
    assert call_args(args.input_value()) == examples[0].args
    page.get_by_test_id("scenario-example").nth(2).click()
    assert call_args(args.input_value()) == examples[2].args

    # The reference solution, printing as it goes, on an example: it returns that example's expected value.
    source = (
        (CEL / "solution.py").read_text().replace("    for step in", "    print('starting', task)\n    for step in", 1)
    )
    assert "print('starting'" in source
    replace_code(page, source)
    run_scenario(page)
    result = page.get_by_test_id("scenario-result")
    value = result.get_by_test_id("scenario-value")
    expect(value).to_contain_text(f"'stop_reason': '{examples[2].expected['stop_reason']}'")
    expect(result.get_by_test_id("output")).to_have_text(f"starting {examples[2].args['task']}\n")
    trace = result.get_by_test_id("trace")
    expect(trace).to_have_attribute("open", "")
    kinds = trace.get_by_test_id("trace-step").evaluate_all("steps => steps.map(s => s.dataset.kind)")
    assert kinds[0] == "model" and kinds[-1] == "return", kinds
    expect(page.get_by_test_id("status")).to_contain_text("not graded")

    # A scenario of their own making: arguments no case has, run with Ctrl+Enter in the box (the page's own
    # Ctrl+Enter, which runs the cases, leaves the box alone).
    args.fill(MY_OWN)
    args.press("Control+Enter")
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=60_000)
    expect(value).to_contain_text("'answer': 'All done, no tools.'")
    expect(result.get_by_test_id("output")).to_have_text("starting my own\n")

    # By position, as in a call: the same arguments.
    args.fill("'my own', ['By position.']")
    run_scenario(page)
    expect(value).to_contain_text("'answer': 'By position.'")

    # Arguments that cannot be read take the result of the last ones away: it is not theirs.
    args.fill("task='my own', script=[")
    page.get_by_test_id("scenario-run").click()
    expect(page.get_by_test_id("scenario-message")).to_have_text(
        "The arguments cannot be read. Line 1, column 23: this “[” is never closed: end the list with “]”."
    )
    expect(result).to_be_empty()
    args.fill(MY_OWN)

    # Never graded, counted, or unlocking: no verdict, no solved mark, the solution stays locked.
    expect(page.get_by_test_id("case")).to_have_count(0)
    expect(page.locator("[data-solved-badge]")).to_be_hidden()
    expect(page.get_by_test_id("solution-locked")).to_be_visible()
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('loopcraft:solved:'))") == []
    assert page.evaluate("window.loopcraft") is None

    # Kept with the code: a reload brings the scenario back.
    page.reload()
    expect(page.get_by_test_id("scenario-args")).to_have_value(MY_OWN)


BAD_INPUT = [
    ('task="x", script=["y", true]', "Line 1, column 24: true is not Python: write True."),
    ("task: 'x'", "Line 1, column 1: write task=value, not task: value."),
    ("task='x', script=[], steps=3", "run_agent has no argument named steps. Its arguments: task, script"),
    (
        "'x', ['y'], 5, 3, 9",
        "5 positional arguments, but the function takes 4 (task, script, max_steps, max_consecutive",
    ),
    ("task='x'", "Missing argument: script."),
    ('{"task": "x", "script": []}', "Missing argument: script."),  # a dict is one positional argument: task
]


def test_bad_scenario_input_gets_a_clear_message_and_runs_nothing(page: Page, isolated_url: str):
    open_challenge(page, isolated_url, SLUG)  # one page for every input: a refused one leaves nothing behind
    for text, message in BAD_INPUT:
        page.get_by_test_id("scenario-args").fill(text)
        page.get_by_test_id("scenario-run").click()
        expect(page.get_by_test_id("scenario-message"), text).to_contain_text(message)
        expect(page.get_by_test_id("scenario-result"), text).to_be_empty()
        expect(page.get_by_test_id("status"), text).to_have_text("Python is ready. Press Run to check your code.")
        # The learner's text is never replaced: they fix it where it is.
        expect(page.get_by_test_id("scenario-args"), text).to_have_value(text)


def test_a_scenario_that_raises_shows_the_learners_traceback(page: Page, isolated_url: str):
    open_challenge(page, isolated_url, SLUG)
    replace_code(
        page,
        "def run_agent(task, script, max_steps=5, max_consecutive_errors=3):\n"
        "    print('about to fail')\n    return script[99]\n",
    )
    run_scenario(page)
    result = page.get_by_test_id("scenario-result")
    expect(result.get_by_test_id("message")).to_contain_text("IndexError")
    expect(result.get_by_test_id("message")).to_contain_text('File "solution.py", line 3')
    expect(result.get_by_test_id("output")).to_have_text("about to fail\n")
    expect(page.get_by_test_id("status")).to_contain_text("ended with an error")


def test_a_scenario_kept_as_json_by_an_earlier_page_comes_back_as_a_call(page: Page, isolated_url: str):
    open_challenge(page, isolated_url, SLUG)
    kept = '{"task": "kept", "script": ["Done."]}'
    page.evaluate(
        "(text) => localStorage.setItem('loopcraft:scenario:build-an-agent/consecutive-error-limit', text)", kept
    )
    page.reload()
    expect(page.get_by_test_id("scenario-args")).to_have_value("task='kept',\nscript=['Done.']")
    assert call_args(page.get_by_test_id("scenario-args").input_value()) == {"task": "kept", "script": ["Done."]}
