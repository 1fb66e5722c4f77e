"""The loop lab in headless Chromium: seed 004's twelve cells drawn from a real run in the page, then the
learner's own loop as a fourth column, from a saved solution and from an uploaded file."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.helpers import ROOT
from tests.test_lessons import SEED_004

pytestmark = pytest.mark.browser
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
    # The chart is drawn from the same run: a bar and a dot per cell, and the table stays for screen readers.
    chart = page.get_by_test_id("lab-chart")
    expect(chart.locator("svg circle.lab-dot")).to_have_count(12)
    lessons = page.get_by_test_id("lab-lessons").locator("li")
    expect(lessons).to_have_count(3)
    expect(lessons.nth(1)).to_contain_text("8.0 → 4.0 calls a task")
    ms = page.evaluate("window.loopcraft.ms")
    print(f"grid of 144 runs: {ms} ms after Python was ready")


def test_a_learners_loop_runs_as_a_fourth_column(page: Page, isolated_url: str):
    open_lab(page, isolated_url)
    # An uploaded file.
    page.get_by_test_id("lab-upload").set_input_files(AGENT / "repeat-guard/solution.py")
    expect(page.locator('td[data-design="yours"]')).to_have_count(4, timeout=SLOW_MS)
    assert cells(page, "yours") == {
        "stubborn": (0, "3.0"),
        "repeats-until-told": (100, "3.9"),
        "breaks-format": (100, "4.8"),
        "unknown-tool": (100, "3.9"),
    }
    assert cells(page, "guarded") == {habit: row[2] for habit, row in SEED_004.items()}
    verdict = page.get_by_test_id("lab-verdict")
    expect(verdict).to_contain_text(
        "repeats until told it is repeating: 100% (3.9 calls): yours matches on answers "
        "and is cheaper than the guarded design's 100% (4.9)."
    )

    # A solution saved in a challenge of the track: the stage-4 loop crashes on broken JSON, and the page says so.
    source = (AGENT / "stage-4-loop/solution.py").read_text()
    page.evaluate("(code) => localStorage.setItem('loopcraft:code:build-an-agent/stage-4-loop', code)", source)
    page.reload()
    expect(page.get_by_test_id("status")).to_contain_text("Ran 144 runs", timeout=SLOW_MS)
    page.get_by_test_id("lab-loop").select_option("stage-4-loop")
    page.get_by_test_id("lab-run-yours").click()
    expect(page.locator('td[data-design="yours"]')).to_have_count(4, timeout=SLOW_MS)
    assert cells(page, "yours")["breaks-format"] == (0, "2.0")
    expect(verdict).to_contain_text("Your loop failed on some runs: ValueError: invalid JSON in tool call")
    expect(verdict).to_contain_text("breaks the format: 0% (2.0 calls): yours trails")
