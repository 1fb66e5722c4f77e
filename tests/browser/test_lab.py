"""The loop lab in headless Chromium: seed 004's twelve cells drawn from a real run in the page, then the
learner's own loop as a fourth column, from a saved solution and from an uploaded file."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.helpers import FIRST_TRACK, ROOT, the_track
from tests.unit.test_lessons_loaded import SEED_004

SLOW_MS = 120_000
AGENT = ROOT / "exercises/build-an-agent"
DESIGNS = ["errors-end", "fed-back", "guarded"]


def cells(page: Page, design: str) -> dict[str, tuple[int, str]]:
    """{habit: (share, calls)} of one column, read from the table's DOM."""
    found = page.locator(f'[data-testid="lab-table"] td[data-design="{design}"]')
    return {
        found.nth(i).get_attribute("data-habit"): (
            int(found.nth(i).get_attribute("data-share")),
            found.nth(i).get_attribute("data-calls"),
        )
        for i in range(found.count())
    }


def open_lab(page: Page, base: str) -> None:
    page.goto(base)
    page.get_by_test_id("lab-link").click()
    expect(page).to_have_url(base + "build-an-agent/lab/")
    expect(page.get_by_test_id("status")).to_contain_text("Ran 144 runs", timeout=SLOW_MS)


def test_the_lab_draws_seed_004s_table_from_a_run_in_the_page(page: Page, site_url: str):
    open_lab(page, site_url)
    for j, design in enumerate(DESIGNS):
        assert cells(page, design) == {habit: row[j] for habit, row in SEED_004.items()}
    # The chart is drawn from the same run, and the table stays for screen readers: a bar per cell that answered
    # any task (a 0% bar is no bar, not a stub), and each cell's share and calls as figures beside the bars, never
    # a calls mark on the share's 0-100% axis.
    chart = page.get_by_test_id("lab-chart")
    shares = [row[j][0] for row in SEED_004.values() for j in range(len(DESIGNS))]
    assert 0 in shares
    expect(chart.locator("svg rect.lab-bar")).to_have_count(sum(share > 0 for share in shares))
    figures = chart.locator("svg text.lab-figure").all_text_contents()
    assert sorted(figures) == sorted(
        f"{share}% · {calls} calls" for row in SEED_004.values() for share, calls in row[: len(DESIGNS)]
    )
    assert chart.locator("svg circle").count() == 0
    lessons = page.get_by_test_id("lab-lessons").locator("li")
    expect(lessons).to_have_count(3)
    expect(lessons.nth(1)).to_contain_text("8.0 → 4.0 calls a task")
    ms = page.evaluate("window.loopcraft.ms")
    print(f"grid of 144 runs: {ms} ms after Python was ready")


def test_a_learners_loop_runs_as_a_fourth_column(page: Page, isolated_url: str):
    open_lab(page, isolated_url)
    expect(page.get_by_test_id("lab-done")).to_be_hidden()
    # An uploaded file; the learner's own loop run here marks the lab done.
    page.get_by_test_id("lab-upload").set_input_files(AGENT / "repeat-guard/solution.py")
    expect(page.locator('td[data-design="yours"]')).to_have_count(4, timeout=SLOW_MS)
    expect(page.get_by_test_id("lab-done")).to_be_visible()
    # The repeat-guard challenge asks for the lab's own guard: its solution's column is the guarded design's.
    assert cells(page, "yours") == cells(page, "guarded") == {habit: row[2] for habit, row in SEED_004.items()}
    verdict = page.get_by_test_id("lab-verdict")
    expect(verdict).to_contain_text(
        "repeats until told it is repeating: 100% (4.9 calls): yours equals the guarded design's 100% (4.9)."
    )
    # The column stays across a reload: the file's loop runs again with the grid, and is the one chosen.
    yours = cells(page, "yours")
    page.reload()
    expect(page.locator('td[data-design="yours"]')).to_have_count(4, timeout=SLOW_MS)
    assert cells(page, "yours") == yours
    expect(page.get_by_test_id("lab-loop")).to_have_value("file")
    expect(page.get_by_test_id("lab-loop").locator("option:checked")).to_have_text("solution.py (loaded file)")

    # A solution saved in a challenge of the track: the stage-4 loop crashes on broken JSON, and the page says so.
    source = (AGENT / "stage-4-loop/solution.py").read_text()
    page.evaluate("(code) => localStorage.setItem('loopcraft:code:build-an-agent/stage-4-loop', code)", source)
    page.reload()
    expect(page.get_by_test_id("status")).to_contain_text("Ran 192 runs", timeout=SLOW_MS)  # the file's column kept
    page.get_by_test_id("lab-loop").select_option("stage-4-loop")
    page.get_by_test_id("lab-run-yours").click()
    # The file's column is still drawn until the new run is in: wait for the new verdict.
    expect(verdict).to_contain_text(
        "Your loop failed on some runs: ValueError: invalid JSON in tool call", timeout=SLOW_MS
    )
    expect(verdict).to_contain_text("breaks the format: 0% (2.0 calls): yours trails")
    assert cells(page, "yours")["breaks-format"] == (0, "2.0")
    # The saved solution is the column now, after a reload too.
    page.reload()
    expect(verdict).to_contain_text(
        "Your loop failed on some runs: ValueError: invalid JSON in tool call", timeout=SLOW_MS
    )
    expect(page.get_by_test_id("lab-loop")).to_have_value("stage-4-loop")


def test_the_lab_closes_the_course_and_counts_in_its_progress(page: Page, isolated_url: str):
    """The last challenge leads to the lab; the index lists it last, and counts it done once the learner has done
    something there (opening it runs the grid: that is not it), Mark complete here; the lab leads back to the
    course."""
    track = the_track()
    total = len(track.items) + 1
    page.goto(isolated_url)
    card = page.locator('[data-testid="challenge-link"][data-slug="lab"]')
    expect(card).to_have_attribute("data-kind", "lab")
    expect(card.locator(".challenge-number")).to_have_text("Lab")  # lessons and challenges have the numbers
    expect(page.locator(FIRST_TRACK).get_by_test_id("progress")).to_contain_text(f"0 of {total} done")
    last = track.items[-1]
    page.goto(f"{isolated_url}build-an-agent/{last.slug}/")
    expect(page.get_by_test_id("up-next")).to_have_attribute("href", "../../build-an-agent/lab/")
    expect(page.get_by_test_id("up-next")).to_contain_text("Up next: The loop lab")

    page.goto(isolated_url)
    card.click()
    expect(page).to_have_url(isolated_url + "build-an-agent/lab/")
    expect(page.get_by_test_id("lab-done")).to_be_hidden()
    expect(page.get_by_test_id("status")).to_contain_text("Ran 144 runs", timeout=SLOW_MS)
    expect(page.get_by_test_id("lab-done")).to_be_hidden()
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('loopcraft:complete:'))") == []
    page.get_by_test_id("mark-complete").click()
    expect(page.get_by_test_id("lab-done")).to_be_visible()
    expect(page.get_by_test_id("mark-complete")).to_be_disabled()
    page.get_by_test_id("up-next").click()
    expect(card.get_by_test_id("solved-mark")).to_have_text("Done")
    expect(page.locator(FIRST_TRACK).get_by_test_id("progress")).to_contain_text(f"1 of {total} done")


def test_the_lab_offers_every_saved_loop_it_can_run(page: Page, isolated_url: str):
    """Every challenge written as run_agent against the lab's sandbox, with saved code, is in the list, in course
    order; a challenge of another sandbox is not, nor one whose code is the starter."""
    track = the_track()
    sandbox = (AGENT / "agent_sandbox.py").read_text()
    runnable = [ex for ex in track.exercises if ex.entry == "run_agent" and ex.sandbox_source == sandbox]
    assert len(runnable) >= 5, [ex.slug for ex in runnable]
    other = next(ex for ex in track.exercises if ex.sandbox_source != sandbox)
    page.goto(isolated_url)
    for ex in [*runnable[1:], other]:
        page.evaluate(
            "([key, code]) => localStorage.setItem(key, code)",
            [f"loopcraft:code:build-an-agent/{ex.slug}", (AGENT / ex.slug / "solution.py").read_text()],
        )
    page.goto(isolated_url + "build-an-agent/lab/")
    options = page.get_by_test_id("lab-loop").locator("option")
    expect(options).to_have_text([ex.title for ex in runnable[1:]])
    expect(page.get_by_test_id("status")).to_contain_text("Ran 144 runs", timeout=SLOW_MS)
