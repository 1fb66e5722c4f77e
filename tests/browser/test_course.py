"""The course as a learner follows it, in real headless Chromium against the built site: from the index
through every challenge by their "Up next" links, with hints, traces, unlocked reference solutions and
the progress kept on the index."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.test_learner import SLOW_LOAD_MS, open_challenge, replace_code, run_and_wait
from tests.helpers import FIRST_TRACK, ROOT, cases_of, rewrite_pages, without_python

TRACK = ROOT / "exercises" / "build-an-agent"
XSS = "<img src=x onerror=alert(1)>"


def wait_ready(page: Page) -> None:
    expect(page.get_by_test_id("editor")).to_be_visible()
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_LOAD_MS)


def trace_of(page: Page, case_name: str):
    """Opens the trace of a case, as a learner clicks it (its card first, when it shows as one line: a passing
    case's does), and returns its steps."""
    card = page.locator(f'[data-testid="case"][data-name="{case_name}"]')
    if not card.locator(".case-card").evaluate("details => details.open"):
        card.locator(".case-head").click()
    trace = card.get_by_test_id("trace")
    trace.locator("summary").click()
    steps = trace.get_by_test_id("trace-step")
    count = steps.count()
    expect(trace.locator("summary")).to_have_text(f"Trace ({count} step{'' if count == 1 else 's'})")
    return steps


def check_first_trace(page: Page, slug: str) -> None:
    """The first case's trace, step by step, for the challenges of agent_sandbox.py known here; any other
    challenge's passing case at least ends with what the learner's function returned."""
    first = page.get_by_test_id("case").first.get_attribute("data-name")
    steps = trace_of(page, first)
    kinds = [steps.nth(i).get_attribute("data-kind") for i in range(steps.count())]
    assert kinds[-1] == "return", kinds
    if slug == "consecutive-error-limit":
        assert kinds == ["model", "parse_error", "model", "parse", "tool", "model", "parse", "return"]
        expect(steps.nth(0)).to_contain_text("1+2?")
        expect(steps.nth(1)).to_contain_text("invalid JSON in tool call")
        # The second model call got the loop's feedback after the broken reply.
        expect(steps.nth(2)).to_contain_text("error: could not parse your tool call (invalid JSON in tool call")
        expect(steps.nth(4)).to_contain_text("Tool call: add")
        expect(steps.nth(4).locator("dd")).to_have_text(["{'a': 1, 'b': 2}", "3"])
        expect(steps.nth(5).locator("dd").last).to_have_text("The sum is 3.")
        expect(steps.nth(7)).to_contain_text("'stop_reason': 'final_answer'")
    elif slug == "malformed-json-recovery":
        assert kinds == ["model", "parse_error", "model", "parse", "tool", "model", "parse", "return"]
        expect(steps.nth(1)).to_contain_text("invalid JSON in tool call")
        expect(steps.nth(4).locator("dd")).to_have_text(["{'a': 2, 'b': 5}", "7"])
        expect(steps.nth(7)).to_contain_text("'answer': 'It is 7.'")


def test_a_learner_walks_the_course_from_the_index(page: Page, isolated_url: str):
    page.goto(isolated_url)
    links = page.locator(FIRST_TRACK).get_by_test_id("challenge-link")
    course = [
        (
            links.nth(i).get_attribute("data-slug"),
            links.nth(i).get_attribute("data-title"),
            links.nth(i).get_attribute("data-kind"),
        )
        for i in range(links.count())
    ]
    assert {kind for *_, kind in course} == {"lesson", "challenge", "lab"} and course[-1][2] == "lab"
    # The whole track, first to last: lessons marked complete, challenges solved; the last one leads to the lab
    # (tests/browser/test_lab.py opens it).
    walk = course[:-1]
    expect(page.locator(FIRST_TRACK).get_by_test_id("progress")).to_contain_text(f"0 of {len(course)} done")
    expect(page.get_by_test_id("solved-mark")).to_have_count(0)

    # The links bring each page in with the Python the first one started (frontend/src/navigate.js): one start
    # for the whole walk.
    page.get_by_test_id("challenge-link").first.click()
    for position, (slug, title, kind) in enumerate(walk):
        expect(page).to_have_url(re.compile(f"/build-an-agent/{slug}/$"))
        expect(page.locator("h1")).to_have_text(title)
        if kind == "lesson":
            page.get_by_test_id("mark-complete").click()
            expect(page.get_by_test_id("mark-complete")).to_have_text("Completed")
            page.get_by_test_id("up-next").click()
            continue
        wait_ready(page)

        # A hint, then the next one: revealed one at a time.
        button = page.get_by_test_id("hint-button")
        total = page.locator(".hint-item").count()
        expect(button).to_have_text(f"Show a hint (1 of {total})")
        button.click()
        expect(page.get_by_test_id("hint")).to_have_count(1)
        expect(page.get_by_test_id("hint")).to_be_visible()
        expect(button).to_have_text(f"Show another hint (2 of {total})")

        expect(page.get_by_test_id("solution-locked")).to_be_visible()
        page.get_by_test_id("upload").set_input_files(TRACK / slug / "solution.py")
        statuses = run_and_wait(page)
        assert set(statuses.values()) == {"pass"}, statuses
        expect(page.get_by_test_id("status")).to_contain_text(f"{len(statuses)} of {len(statuses)} cases passed")

        check_first_trace(page, slug)
        # Hidden cases have their trace too.
        expect(page.locator('[data-testid="case"][data-hidden="true"]').first.get_by_test_id("trace")).to_have_count(1)

        solution = page.get_by_test_id("solution")
        solution.locator("summary").click()
        expect(solution.locator("code")).to_have_text((TRACK / slug / "solution.py").read_text())
        expect(page.get_by_test_id("solution-locked")).to_have_count(0)

        up_next = page.get_by_test_id("up-next")
        expect(up_next).to_be_visible()
        if position + 1 < len(course):
            expect(up_next).to_have_text(re.compile(f"^Up next: {re.escape(course[position + 1][1])}"))
        assert page.evaluate("document.documentElement.dataset.workerStarts") == "1"
        if position + 1 < len(walk):
            up_next.click()

    # The hint stays revealed on a reload.
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("hint")).to_have_count(1)

    page.goto(isolated_url)
    solved = page.locator('[data-testid="challenge-link"][data-solved="true"]')
    expect(solved).to_have_count(len(walk))
    assert [solved.nth(i).get_attribute("data-slug") for i in range(len(walk))] == [slug for slug, *_ in walk]
    expect(page.get_by_test_id("solved-mark")).to_have_count(len(walk))
    expect(page.locator(FIRST_TRACK).get_by_test_id("progress")).to_contain_text(f"{len(walk)} of {len(course)} done")
    expect(page.locator(FIRST_TRACK).get_by_role("progressbar")).to_have_attribute("aria-valuenow", str(len(walk)))


def test_a_failing_run_does_not_unlock_the_solution(page: Page, isolated_url: str):
    open_challenge(page, isolated_url, "consecutive-error-limit")
    page.get_by_test_id("upload").set_input_files(TRACK / "consecutive-error-limit" / "wrong" / "greater_than.py")
    statuses = run_and_wait(page)
    assert "pass" in statuses.values() and set(statuses.values()) != {"pass"}
    check_first_trace(page, "consecutive-error-limit")  # a case that passes has the same trace as the solution's
    expect(page.get_by_test_id("solution")).to_have_count(0)
    expect(page.get_by_test_id("solution-locked")).to_be_visible()
    expect(page.get_by_test_id("up-next")).to_be_hidden()
    # The failing case's trace shows where the loop went on: a fourth model call.
    steps = trace_of(page, "Three failures in a row stops the run")
    expect(steps.filter(has_text="Model call 4")).to_have_count(1)
    page.goto(isolated_url)
    expect(page.locator('[data-testid="challenge-link"][data-solved]')).to_have_count(0)
    expect(page.locator(FIRST_TRACK).get_by_test_id("progress")).to_contain_text("0 of")


def test_html_in_output_trace_and_case_names_is_shown_as_text(page: Page, isolated_url: str):
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))

    # A case name with markup, as a careless author might write one.
    rewrite_pages(
        page,
        "**/consecutive-error-limit/",
        lambda html: html.replace(
            '"name": "Recovers from malformed JSON"', '"name": "\\u003cimg src=x onerror=alert(6)\\u003e Recovers"'
        ),
    )
    open_challenge(page, isolated_url, "consecutive-error-limit")
    learner = (TRACK / "consecutive-error-limit" / "solution.py").read_text() + (
        "\n_solve = run_agent\n\n"
        "def run_agent(task, script, **options):\n"
        f"    print({XSS!r})\n"
        "    llm = make_llm(['<img src=x onerror=alert(2)>'])\n"
        "    llm([{'role': 'system', 'content': ''}, {'role': 'user', 'content': '<script>alert(3)</script>'}])\n"
        "    dispatch({'tool': '<b>bold</b>', 'arguments': {'<i>': '<img src=x onerror=alert(4)>'}})\n"
        "    result = _solve(task, script, **options)\n"
        "    return {**result, 'answer': '<img src=x onerror=alert(5)>'} if task == 'maths' else result\n"
    )
    replace_code(page, learner)
    statuses = run_and_wait(page)
    assert statuses.pop("A success resets the consecutive count") == "fail"
    assert set(statuses.values()) == {"pass"}

    row = page.locator('[data-testid="case"][data-status="fail"]')
    expect(row.get_by_test_id("output")).to_have_text(XSS + "\n")
    expect(row.get_by_test_id("actual")).to_contain_text("'answer': '<img src=x onerror=alert(5)>'")
    steps = trace_of(page, "A success resets the consecutive count")
    expect(steps.nth(0)).to_contain_text("<script>alert(3)</script>")
    expect(steps.nth(0)).to_contain_text("<img src=x onerror=alert(2)>")
    expect(steps.nth(1)).to_contain_text("Tool call: <b>bold</b>")
    expect(steps.nth(1)).to_contain_text("'<i>': '<img src=x onerror=alert(4)>'")
    expect(steps.last).to_contain_text("<img src=x onerror=alert(5)>")
    expect(page.get_by_test_id("case").first.locator(".case-name")).to_have_text(
        "<img src=x onerror=alert(6)> Recovers"
    )

    results = page.get_by_test_id("results")
    for tag in ("img", "script", "b", "i"):
        expect(results.locator(tag)).to_have_count(0)
    assert dialogs == []


def test_a_solved_card_and_a_complete_course_say_what_only_the_instructors_grader_checks(page: Page, isolated_url: str):
    """A green index is this browser's pages' cases: each solved challenge says how many more its instructor's
    grader runs, and so does the course once complete (issue 39)."""
    without_python(page)
    page.goto(isolated_url)
    links = page.locator(FIRST_TRACK).get_by_test_id("challenge-link")
    items = [
        (links.nth(i).get_attribute("data-slug"), links.nth(i).get_attribute("data-kind")) for i in range(links.count())
    ]
    first = next(slug for slug, kind in items if kind == "challenge")
    private = {
        slug: len(cases_of(slug, page=False)) - len(cases_of(slug)) for slug, kind in items if kind == "challenge"
    }
    assert all(private.values()), private
    page.evaluate(f"localStorage.setItem('loopcraft:solved:build-an-agent/{first}', '2026-11-01T00:00:00Z')")
    page.reload()
    card = page.locator(f'[data-testid="challenge-link"][data-slug="{first}"]')
    expect(card.get_by_test_id("private-note")).to_have_text(
        f"Solved on its page; {private[first]} more cases are checked only by your instructor's grader."
    )
    expect(page.get_by_test_id("private-note")).to_have_count(1)  # only where the card is green
    for slug, kind in items:
        mark = "solved" if kind == "challenge" else "complete"  # a lesson marked complete, the lab run
        page.evaluate(f"localStorage.setItem('loopcraft:{mark}:build-an-agent/{slug}', '2026-11-01T00:00:00Z')")
    page.reload()
    expect(page.locator(FIRST_TRACK).get_by_test_id("course-done")).to_have_text(
        f"Course complete in this browser. Well done! {sum(private.values())} more cases are checked only by your "
        "instructor's grader."
    )
