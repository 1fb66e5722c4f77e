"""A learner in headless Chromium on the built site's lessons: live blocks, questions, completion, progress."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.helpers import FIRST_TRACK, serve_time_limit, the_track, wait_until, without_python

SLOW_MS = 120_000
LESSON = "recite-the-loop"
# The colour a custom property of the page's stylesheet stands for, as computed where `node` is.
COLOUR = """(node, name) => {
  const probe = document.createElement("span");
  probe.style.color = `var(${name})`;
  node.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}"""


def lesson_data():
    track = the_track()
    return track, {lesson.slug: lesson for lesson in track.lessons}


def open_lesson(page: Page, base: str, slug: str) -> None:
    """From the index, as a learner would, then wait for Python."""
    page.goto(base)
    link = page.locator(f'[data-testid="challenge-link"][data-slug="{slug}"]')
    expect(link).to_have_attribute("data-kind", "lesson")
    link.click()
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)


def block_code(page: Page, block, code: str) -> None:
    block.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(code)


def run_block(block) -> str:
    block.get_by_test_id("run").click()
    output = block.get_by_test_id("output")
    expect(output).to_have_attribute("data-state", "ran", timeout=SLOW_MS)
    return output.inner_text()


def test_a_live_block_shows_its_recorded_output_then_runs_and_edits(page: Page, isolated_url: str):
    open_lesson(page, isolated_url, LESSON)
    block = page.get_by_test_id("live-block").first
    recorded = block.get_by_test_id("output")
    # Before Run: what the build recorded, in the page itself.
    expect(recorded).to_have_attribute("data-state", "recorded")
    expect(recorded).to_contain_text("STATUS: ok ANSWER: Paris is 18C and cloudy.")
    assert "STATUS: ok ANSWER: cannot: unknown city" in run_block(block)
    # The run is over, and the lesson's status says so (it stayed on "Running…").
    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-state", "ready")
    expect(status).to_have_text("Python is ready: edit any live block and press Run.")

    block_code(page, block, 'print("edited")\n40 + 2\n')
    out = run_block(block)
    assert "edited" in out and "42" in out
    # A traceback shows the block's own lines, never the grader's.
    block_code(page, block, "def f():\n    return 1 / 0\n\nf()\n")
    out = run_block(block)
    assert 'File "block.py", line 2, in f' in out and "ZeroDivisionError" in out
    assert "grader" not in out and "sandbox.py" not in out
    # Reset brings back the lesson's code and the output recorded for it, not the error of the edited code.
    block.get_by_test_id("reset").click()
    expect(recorded).to_have_attribute("data-state", "recorded")
    expect(recorded).to_contain_text("STATUS: ok ANSWER: Paris is 18C and cloudy.")
    expect(recorded).not_to_contain_text("ZeroDivisionError")
    block_code(page, block, "def f():\n    return 1 / 0\n\nf()\n")
    # Edits are saved per block: a reload keeps them; Reset brings the lesson's code back.
    wait_until(
        page,
        "() => Object.keys(localStorage).some((k) => k.startsWith('loopcraft:live:') && localStorage[k].includes('1 / 0'))",
        what="the edited block saved",
    )
    page.reload()
    block = page.get_by_test_id("live-block").first
    expect(block.locator(".cm-content")).to_contain_text("return 1 / 0")
    block.get_by_test_id("reset").click()
    expect(block.locator(".cm-content")).to_contain_text("fake_model")


def test_a_loop_that_never_ends_is_stopped_by_the_time_limit(page: Page, site_url: str):
    serve_time_limit(page, 1)  # a lesson's blocks have 5 s, all spent here on each page
    open_lesson(page, site_url, "what-to-retry")
    block = page.get_by_test_id("live-block").first
    block_code(page, block, 'print("before")\nwhile True:\n    pass\n')
    out = run_block(block)
    # A lesson's wording: it has blocks, not cases.
    assert (
        "Stopped after 1 s, the time limit for running a block. Look for a loop that never ends, or press Stop." in out
    )
    assert "case" not in out
    # An interrupted block keeps what it printed; a worker terminated (no isolation) takes it along.
    assert ("before" in out) == page.evaluate("crossOriginIsolated")
    # Python is usable again afterwards (interrupted, or restarted on a page without isolation).
    block_code(page, block, "6 * 7\n")
    assert "42" in run_block(block)


def test_stop_ends_a_live_block_that_never_ends_and_python_runs_the_next(page: Page, site_url: str):
    open_lesson(page, site_url, "what-to-retry")
    block = page.get_by_test_id("live-block").first
    stop = block.get_by_test_id("stop")
    expect(stop).to_be_disabled()
    block_code(page, block, 'print("before")\nwhile True:\n    pass\n')
    block.get_by_test_id("run").click()
    expect(stop).to_be_enabled()
    stop.click()
    output = block.get_by_test_id("output")
    expect(output).to_have_attribute("data-state", "ran", timeout=SLOW_MS)
    expect(output).to_have_text("Stopped: you pressed Stop before the block ended.")
    expect(stop).to_be_disabled()
    # Python is usable again afterwards (interrupted, or restarted on a page without isolation).
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
    block_code(page, block, "6 * 7\n")
    assert "42" in run_block(block)


@pytest.mark.page_errors(r"Failed to load resource: net::ERR_FAILED \(at .*/lesson\.js")
def test_without_its_script_a_lesson_reads_fine_and_offers_no_button_that_does_nothing(page: Page, isolated_url: str):
    # As a page is until its module script has run: "Mark complete" clicked then would have been lost, and "Check"
    # would have sent its form, reloading the page.
    page.route("**/assets/lesson.js*", lambda route: route.abort())
    without_python(page)  # the page's inline script would start it, for no one
    page.goto(f"{isolated_url}build-an-agent/{LESSON}/")
    expect(page.locator("h1")).to_have_text(lesson_data()[1][LESSON].title)
    expect(page.get_by_test_id("live-block").first.get_by_test_id("output")).not_to_be_empty()  # recorded at build
    expect(page.get_by_test_id("mark-complete")).to_be_disabled()
    checks = page.get_by_test_id("check")
    assert checks.count() == len(lesson_data()[1][LESSON].questions) > 0
    for check in checks.all():
        expect(check).to_be_disabled()


def test_a_question_answered_wrong_then_right_then_the_lesson_marked_complete(page: Page, isolated_url: str):
    track, lessons = lesson_data()
    lesson = lessons[LESSON]
    single = lesson.questions[0]
    right = next(o for o in single.options if o.correct)
    wrong = next(o for o in single.options if not o.correct)
    open_lesson(page, isolated_url, LESSON)
    html = page.content()
    # Neither the right option nor its feedback is readable in the page before answering.
    assert right.feedback not in html and wrong.feedback not in html

    question = page.get_by_test_id("question").first
    question.get_by_label(wrong.text).check()
    question.get_by_test_id("check").click()
    expect(question.get_by_test_id("verdict")).to_contain_text("Not right")
    expect(question.get_by_text(wrong.feedback)).to_be_visible()
    question.get_by_label(right.text).check()
    question.get_by_test_id("check").click()
    expect(question.get_by_test_id("verdict")).to_have_text("Right.")
    # Answered right, every option's feedback shows, the right one marked so.
    expect(question.get_by_text(right.feedback)).to_be_visible()
    expect(question.get_by_text(wrong.feedback)).to_be_visible()
    expect(question.locator('[data-verdict="right"]')).to_have_count(1)

    # "What does this print?": the right option is what Pyodide printed at build time.
    output_q = page.get_by_test_id("question").nth(1)
    output_q.locator("label", has=page.locator("pre", has_text=re.compile(r"^finish 2$"))).click()
    output_q.get_by_test_id("check").click()
    expect(output_q.get_by_test_id("verdict")).to_have_text("Right.")
    expect(page.get_by_test_id("questions-progress")).to_contain_text("2 of 2 questions answered")

    page.get_by_test_id("mark-complete").click()
    expect(page.get_by_test_id("mark-complete")).to_have_text("Completed")
    # Answers and completion survive a reload.
    page.reload()
    expect(page.get_by_test_id("question").first.get_by_test_id("verdict")).to_have_text("Right.")
    expect(page.get_by_test_id("mark-complete")).to_be_disabled()

    # Up next runs across both kinds: from this lesson into the challenge it prepares.
    page.get_by_test_id("up-next").click()
    expect(page).to_have_url(re.compile(r"/build-an-agent/stage-4-loop/$"))
    expect(page.get_by_test_id("editor")).to_be_visible()
    expect(page.locator(".pager-prev")).to_contain_text(lesson.title)

    # The index counts lessons and challenges, per part.
    page.goto(isolated_url)
    total = len(track.items) + (track.lab is not None)  # the lab is the course's last item
    expect(page.locator(FIRST_TRACK).get_by_test_id("progress")).to_contain_text(f"1 of {total} done")
    part_one = len(track.parts[0].items)
    expect(page.get_by_test_id("part-progress").first).to_have_text(f"1 / {part_one}")
    done = page.locator(f'[data-testid="challenge-link"][data-slug="{LESSON}"]')
    expect(done).to_have_attribute("data-solved", "true")
    expect(done.get_by_test_id("solved-mark")).to_have_text("Complete")
    kinds = page.locator(FIRST_TRACK).get_by_test_id("kind").all_inner_texts()
    assert kinds.count("Lesson") == len(track.lessons) and kinds.count("Challenge") == len(track.exercises)


def test_feedback_shows_code_as_code(page: Page, isolated_url: str):
    _, lessons = lesson_data()
    question_data = lessons["the-action-contract"].questions[1]
    option = next(o for o in question_data.options if "`execute`" in o.feedback)
    without_python(page)  # questions are answered without it
    page.goto(f"{isolated_url}build-an-agent/the-action-contract/")
    question = page.get_by_test_id("question").nth(1)
    question.get_by_label(option.text.strip("`")).check()
    question.get_by_test_id("check").click()
    feedback = question.get_by_test_id("feedback").filter(has_text="smuggle")
    expect(feedback).to_have_text(option.feedback.replace("`", ""))
    expect(feedback.locator("code")).to_have_text(["execute"])


def test_a_multiple_choice_question_needs_every_right_option(page: Page, isolated_url: str):
    _, lessons = lesson_data()
    question_data = lessons["what-to-retry"].questions[0]
    assert question_data.kind == "multiple"
    open_lesson(page, isolated_url, "what-to-retry")
    question = page.get_by_test_id("question").first
    first_right = next(o for o in question_data.options if o.correct)
    question.get_by_label(first_right.text.strip("`")).check()
    question.get_by_test_id("check").click()
    expect(question.get_by_test_id("verdict")).to_contain_text("Not quite: what you ticked is right")
    # A right tick in an answer not yet whole is shown as right (green), never as a wrong one (red).
    ticked = question.locator(".option").filter(has=page.get_by_label(first_right.text.strip("`")))
    expect(ticked).to_have_attribute("data-verdict", "right")
    feedback = ticked.get_by_test_id("feedback")
    border = feedback.evaluate("node => getComputedStyle(node).borderLeftColor")
    assert border == feedback.evaluate(COLOUR, "--pass") != feedback.evaluate(COLOUR, "--fail")
    first_wrong = next(o for o in question_data.options if not o.correct)
    question.get_by_label(first_wrong.text.strip("`")).check()
    question.get_by_test_id("check").click()
    expect(question.get_by_test_id("verdict")).to_contain_text("Not quite: every right option, and only those")
    expect(ticked).to_have_attribute("data-verdict", "right")
    wrong_tick = question.locator(".option").filter(has=page.get_by_label(first_wrong.text.strip("`")))
    expect(wrong_tick).to_have_attribute("data-verdict", "wrong")
    expect(wrong_tick.get_by_test_id("feedback")).to_have_text(first_wrong.feedback.replace("`", ""))
    for option in question_data.options:
        box = question.get_by_label(option.text.strip("`"))
        box.check() if option.correct else box.uncheck()
    question.get_by_test_id("check").click()
    expect(question.get_by_test_id("verdict")).to_have_text("Right.")


def test_a_live_block_below_the_fold_draws_its_line_numbers_beside_their_lines(page: Page, isolated_url: str):
    without_python(page)
    page.set_viewport_size({"width": 1280, "height": 600})
    page.goto(f"{isolated_url}build-an-agent/{LESSON}/")
    block = page.get_by_test_id("live-block").first
    expect(block.locator(".cm-line").first).to_be_attached()
    assert not block.evaluate("el => el.getBoundingClientRect().top < innerHeight"), "the block is not below the fold"
    # Never scrolled to (as a printed page or a screenshot of the whole page has it), each number sits at its line.
    offsets = block.evaluate("""block => {
        const lines = [...block.querySelectorAll('.cm-line')].slice(0, 8);
        const numbers = [...block.querySelectorAll('.cm-lineNumbers .cm-gutterElement')].filter(e => e.offsetHeight);
        return lines.map((line, i) => numbers[i].getBoundingClientRect().top - line.getBoundingClientRect().top);
    }""")
    assert all(abs(offset) <= 1 for offset in offsets), offsets
