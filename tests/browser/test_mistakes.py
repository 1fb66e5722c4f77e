"""Known mistakes on a challenge page, in Chromium against the built (verified) site: a run of a wrong solution names
its mistake, matched on a visible case by its value and on a hidden case by its digest; a correct run and an untouched
starter name none; and
nothing the page carries of the catalogue, nor anything it shows, holds a hidden or private case's expected value."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from grader.canonical import canonical_json, digest, encode
from loopcraft.authoring.mistakes import said
from loopcraft.course.cases import expectation_text, salt
from loopcraft.course.course import MISSING
from loopcraft.course.load import find_exercise, load_course
from tests.helpers import ROOT

SLUG = "consecutive-error-limit"
CEL = ROOT / "exercises" / "build-an-agent" / SLUG
SLOW_MS = 90_000  # Pyodide loads in seconds
# Three wrong solutions, by the published cases they fail: a visible one only, a hidden one only, and both kinds
# (each fails private cases too, which the page never has).
WRONG = {
    "no_reset.py": {"visible"},
    "limit_checked_next_step.py": {"hidden"},
    "greater_than.py": {"visible", "hidden"},
}
RUN_OVER = """() => {
  const status = document.querySelector('[data-testid="status"]');
  return status.dataset.state === "ready" && status.dataset.outcome !== undefined;
}"""


def run(page: Page, file: Path) -> None:
    """Load `file` into the editor and run it; wait, polling every 200 ms, until the status is final."""
    page.get_by_test_id("upload").set_input_files(file)
    page.get_by_test_id("run").click()
    page.wait_for_function(RUN_OVER, timeout=SLOW_MS, polling=200)


def page_data(page: Page) -> dict:
    return json.loads(page.locator("#exercise-data").text_content())


def test_each_wrong_solutions_run_names_its_mistake_and_a_correct_run_names_none(page: Page, isolated_url: str):
    ex = find_exercise(ROOT, SLUG)
    page.goto(f"{isolated_url}build-an-agent/{SLUG}/")
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
    data = page_data(page)
    kinds = {c["name"]: "hidden" if c["hidden"] else "visible" for c in data["cases"]}
    status, notes = page.get_by_test_id("status"), page.get_by_test_id("known-mistake")
    for file, published in WRONG.items():
        wrong = next(w for w in ex.wrong_solutions if w.path.name == file)
        hint = wrong.hint or wrong.mistake
        # What the page holds of this mistake: the cases it fails, of the kinds this run is about.
        (mistake,) = [m for m in data["mistakes"] if m["hint"] == hint]
        assert {kinds[name] for name in mistake["cases"]} == published, file
        run(page, CEL / "wrong" / file)
        expect(status).to_have_attribute("data-outcome", "fail")
        # Its Markdown's `code` is shown as code, never as raw backticks.
        shown = said(hint).replace("`", "")
        note = notes.filter(has_text=shown)
        expect(note).to_have_count(1)
        expect(status).to_contain_text(shown)
        expect(note.locator("code")).to_have_text(re.findall(r"`([^`]+)`", hint))
        # A hidden case that failed still shows no expected value, in its card or in what the status says.
        failing_hidden = page.locator('[data-testid="case"][data-hidden="true"]:not([data-status="pass"])')
        if "hidden" in published:
            expect(failing_hidden.first).to_be_attached()
        expect(failing_hidden.get_by_test_id("expected")).to_have_count(0)
        for case in ex.cases:
            if case.hidden:
                for form in (canonical_json(case.expected), encode(case.expected)[1]):
                    assert form not in (status.text_content() or ""), (file, case.name)
    run(page, CEL / "solution.py")
    expect(status).to_have_attribute("data-outcome", "pass")
    expect(notes).to_have_count(0)
    # An untouched starter fails every case: it is told of no mistake, though some of its failures are a known
    # mistake's (here it was told two, of code the learner had not written).
    starter = ROOT / "exercises" / "build-an-agent" / "malformed-json-recovery" / "starter.py"
    page.goto(f"{isolated_url}build-an-agent/malformed-json-recovery/")
    expect(status).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
    run(page, starter)
    expect(status).to_have_attribute("data-outcome", "fail")
    expect(notes).to_have_count(0)


def test_the_pages_known_mistakes_hold_no_hidden_or_private_expected_value(built_site: Path):
    """Every challenge page of the built site: its known mistakes name only published cases, a hidden one by a digest
    alone; none is a hidden or private case's expected value, or its digest; and no such value shows in them in any
    form a page writes values in (those long enough to tell apart from a digest's hex)."""
    named = 0
    for ex in (ex for track in load_course(ROOT) for ex in track.exercises):
        html = (built_site / ex.track / ex.slug / "index.html").read_text(encoding="utf-8")
        data = json.loads(re.search(r'id="exercise-data">(.*?)</script>', html, re.S).group(1))
        mistakes = data.get("mistakes", [])
        named += len(mistakes)
        published = {c["name"]: c["hidden"] for c in data["cases"]}
        # What a hidden case expects, of every kind: its value's text, or the exception or printed text it expects.
        values = [c.expected for c in ex.cases if c.hidden and c.expected is not MISSING]
        secret = {canonical_json(v) for v in values} | {expectation_text(c) for c in ex.cases if c.hidden}
        digests = {digest(salt(ex), value) for value in secret}
        for mistake in mistakes:
            for name, case in mistake["cases"].items():
                assert name in published, (ex.slug, name)  # never a private case
                assert ("digest" in case) == (published[name] and case["status"] == "fail"), (ex.slug, name)
                assert ("value" in case) == (not published[name] and case["status"] == "fail"), (ex.slug, name)
                assert case.get("value") not in secret and case.get("digest") not in digests, (ex.slug, name)
        values = [case.get("value", "") for mistake in mistakes for case in mistake["cases"].values()]
        text = "\n".join([json.dumps(mistakes, ensure_ascii=False), *values])
        for case in (c for c in ex.cases if c.hidden):
            forms = {expectation_text(case)}
            if case.expected is not MISSING:
                forms |= {canonical_json(case.expected), encode(case.expected)[1]}
            forms |= {case.name} if case.private else set()
            for form in forms:
                assert len(form) < 8 or form not in text, f"{ex.slug}: {case.name!r} shows as {form}"
    assert named > len(load_course(ROOT)[0].exercises), "the verified site names known mistakes on its pages"
