"""The class's pages as a teacher and a learner open them: from a file:// URL, offline (every request that is not
the file itself is refused), in real Chromium, light and dark, on a phone; axe-clean, no page error, no dialog
(a learner's name that tries to end the page's script stays text)."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from loopcraft.classroom import course, course_exercises, lms
from loopcraft.classroom.outputs import write_outputs
from loopcraft.classroom.printable import file_name
from loopcraft.classroom.store import VerdictStore
from loopcraft.course.project import Project
from tests.browser.axe import assert_no_violations_in_either_theme
from tests.class_fixture import DISPATCH, HOSTILE, LIMIT, build
from tests.helpers import feedback_page
from tests.lms_rules import canvas_export


@pytest.fixture(scope="module")
def klass(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("class")
    build(out, learners=12)
    return out


def open_offline(browser: Browser, url: str, **options) -> tuple[Page, list[str]]:
    """A page of its own context with no network: anything but file:// is refused; what goes wrong is listed."""
    context = browser.new_context(**options)
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("console", lambda msg: problems.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None)
    page.on("dialog", lambda dialog: (problems.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    page.on("requestfailed", lambda request: problems.append(f"request failed: {request.url}"))
    page.goto(url)
    return page, problems


def test_a_learner_reads_every_case_of_their_feedback_offline(browser: Browser, klass: Path):
    doc = json.loads((klass / "gradebook.json").read_text())
    row = next(r for r in doc["learners"] if r["learner"] == "solo")
    page, problems = open_offline(browser, feedback_page(klass, "solo").as_uri())
    cases = page.locator('[data-testid="feedback-case"]')
    expect(cases).to_have_count(sum(row["challenges"][s]["total"] for s in (LIMIT, DISPATCH)))
    first = page.locator(f'[data-testid="feedback-case"][data-challenge="{LIMIT}"]').first
    expect(first).to_have_attribute("data-status", "pass")
    expect(first.locator('[data-testid="expected"]')).to_be_visible()
    expect(first.locator('[data-testid="actual"]')).to_be_visible()
    private = page.locator('[data-testid="feedback-case"]', has_text="private").first
    expect(private.locator('[data-testid="message"]')).to_have_text(
        "Private case: only its name and status are reported."
    )
    expect(private.locator('[data-testid="trace"]')).to_have_count(0)
    hidden = page.locator('[data-testid="feedback-case"][data-hidden="true"]', has_text="hidden").first
    expect(hidden.locator('[data-testid="expected"]')).to_have_count(0)
    page.locator(".class-code summary").first.click()
    expect(page.locator(".class-code pre").first).to_contain_text("def dispatch(call):")
    assert_no_violations_in_either_theme(page, "a learner's feedback")
    assert problems == []


def test_a_failing_case_shows_the_differences_and_the_trace(browser: Browser, klass: Path):
    # A visible case some learner failed with a dict of the wrong content: its differences are marked inside.
    learner, slug, case = next(
        (record["learner"], record["challenge"], t["name"])
        for path in sorted((klass / "verdicts").glob("*/*.json"))
        for record in [json.loads(path.read_text())]
        for t in record["result"]["tests"]
        if t["status"] == "fail"
        and not t["hidden"]
        and isinstance(t["expected"], dict)
        and isinstance(t["actual"], dict)
        and t["expected"].keys() == t["actual"].keys()
    )
    page, problems = open_offline(browser, feedback_page(klass, learner).as_uri())
    failing = page.locator(
        f'[data-testid="feedback-case"][data-challenge="{slug}"][data-case={json.dumps(case, ensure_ascii=False)}]'
    )
    expect(failing).to_have_attribute("data-status", "fail")
    expect(failing.locator("mark.diff").first).to_be_visible()
    failing.locator('[data-testid="trace"] summary').click()
    expect(failing.locator('[data-testid="trace-step"]').first).to_be_visible()
    assert problems == []


BADGE_COLOURS = "b => { const s = getComputedStyle(b); return [s.color, s.backgroundColor]; }"


def test_each_case_badge_has_its_own_status_colours_on_a_failing_learners_page(browser: Browser, klass: Path):
    # The challenge's section carries its status (data-status="fail") around every case: the badges' colours once
    # matched it, so a failing learner's passing cases said PASSED in the red of "Failed".
    doc = json.loads((klass / "gradebook.json").read_text())
    learner, slug = next(
        (row["learner"], slug)
        for row in doc["learners"]
        for slug, cell in row["challenges"].items()
        if cell["status"] == "fail" and 0 < cell["passed"] < cell["total"]
    )
    page, problems = open_offline(browser, feedback_page(klass, learner).as_uri())
    section = page.locator(f'[data-testid="feedback-challenge"][data-challenge="{slug}"]')
    expect(section).to_have_attribute("data-status", "fail")
    passing = section.locator('[data-testid="feedback-case"][data-status="pass"] .badge').first
    failing = section.locator('[data-testid="feedback-case"][data-status="fail"] .badge').first
    expect(passing).to_have_text("Passed")
    expect(failing).to_have_text("Failed")
    # The gradebook's "timeout" cell, as the page's challenge badge shows it: its own colours too.
    section.locator(".class-status").evaluate(
        "p => p.append(Object.assign(document.createElement('span'), "
        "{ className: 'status-badge status-timeout', textContent: 'Timed out' }))"
    )
    badges = {
        "pass": passing,
        "fail": failing,
        "challenge fail": section.locator(".status-fail"),
        "timeout": section.locator(".status-timeout"),
    }
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        colours = {name: badge.evaluate(BADGE_COLOURS) for name, badge in badges.items()}
        assert colours["pass"] != colours["fail"], (scheme, colours)
        assert colours["fail"] == colours["challenge fail"], (scheme, colours)
        assert colours["timeout"] not in (colours["pass"], colours["fail"]), (scheme, colours)
    assert_no_violations_in_either_theme(page, "a failing learner's feedback")
    assert problems == []


def test_a_hostile_name_is_only_text_and_a_refused_hand_in_says_why(browser: Browser, klass: Path):
    page, problems = open_offline(browser, feedback_page(klass, HOSTILE).as_uri())
    expect(page.locator("h1")).to_have_text(HOSTILE)
    expect(page.locator('[data-testid="feedback-case"]').first).to_be_visible()
    assert problems == []
    page, problems = open_offline(browser, feedback_page(klass, "refused").as_uri())
    expect(page.locator('[data-testid="hand-in-error"]')).to_be_visible()
    assert_no_violations_in_either_theme(page, "a refused hand-in's feedback")
    assert problems == []


def test_what_a_learners_loop_left_in_a_trace_never_stops_the_page_drawing_the_other_cases(
    browser: Browser, klass: Path, tmp_path: Path
):
    # A loop may add anything to its transcript, and a sandbox that records it as it is (action_sandbox.py, once
    # its script is spent) puts None in a trace's messages: the page read `.role` of it and drew no case after it.
    out = tmp_path / "class"
    shutil.copytree(klass, out)
    path = out / "verdicts" / file_name("solo") / f"{LIMIT}.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    record["result"]["tests"][0]["trace"][:0] = [{"kind": "model", "messages": [None, 5, "text"], "reply": "x"}]
    path.write_text(json.dumps(record), encoding="utf-8")
    doc = json.loads((out / "gradebook.json").read_text())
    exercises = [ex for ex in course_exercises(Project()) if ex.slug in doc["challenges"]]
    write_outputs(out, doc, VerdictStore(out), exercises)
    row = next(r for r in doc["learners"] if r["learner"] == "solo")
    # (A case that cannot be drawn at all is tests/unit/test_class_report.py's: the page is drawn when it is written.)
    page, problems = open_offline(browser, feedback_page(out, "solo").as_uri())
    expect(page.locator('[data-testid="feedback-case"]')).to_have_count(
        sum(row["challenges"][s]["total"] for s in (LIMIT, DISPATCH))
    )
    first = page.locator(f'[data-testid="feedback-case"][data-challenge="{LIMIT}"]').first
    first.locator('[data-testid="trace"] summary').click()
    expect(first.locator('[data-testid="trace-step"]').first).to_contain_text("None")
    assert problems == []


@pytest.mark.page_errors(r"violates the following Content Security Policy directive")  # the two it refuses
def test_a_feedback_page_runs_nothing_and_its_policy_refuses_what_would_load(browser: Browser, klass: Path):
    """Every case is there with no script (the cards are <details>, open); the page's policy is in force: a
    picture from the network and an inline script put into the page are refused (and reported, as Chromium
    reports a policy's refusal), its own styles are not."""
    page, problems = open_offline(browser, feedback_page(klass, "solo").as_uri())
    assert page.evaluate("document.scripts.length") == 0
    expect(page.locator('[data-testid="feedback-case"] details.case-card[open]').first).to_be_visible()
    refused = page.evaluate("""() => new Promise((resolve) => {
        const seen = [];
        document.addEventListener("securitypolicyviolation", (e) => {
            seen.push(e.violatedDirective);
            if (seen.length === 2) resolve(seen.sort());
        });
        const script = document.createElement("script");
        script.textContent = "document.body.dataset.ran = 'yes'";
        document.body.append(script);
        document.body.append(Object.assign(document.createElement("img"), { src: "https://example.com/x.png" }));
    })""")
    assert refused == ["img-src", "script-src-elem"]
    assert page.evaluate("document.body.dataset.ran") is None
    line = page.locator("span.line").first  # its indentation set by its style attribute
    assert line.evaluate("l => getComputedStyle(l).getPropertyValue('--hang')").strip().endswith("ch")
    provoked = ("violates the following Content Security Policy directive", "request failed: https://example.com/x.png")
    assert [p for p in problems if not p.startswith(provoked) and provoked[0] not in p] == []


def test_the_teacher_reads_the_report_with_its_charts_offline(browser: Browser, klass: Path):
    page, problems = open_offline(browser, (klass / "report" / "index.html").as_uri())
    charts = page.locator("figure[data-chart] svg")
    expect(charts).to_have_count(3)  # the distribution, and the facility of each challenge's cases
    expect(page.locator('figure[data-chart="distribution"] .chart-bars rect')).to_have_count(3)  # 0, 1, 2 passed
    bars = page.locator(f'figure[data-chart="{LIMIT}"] .chart-bars rect')
    expect(bars).to_have_count(page.locator(f'[data-testid="case-stat"][data-challenge="{LIMIT}"]').count())
    pair = page.locator(f'[data-testid="similar-pair"][data-challenge="{LIMIT}"][data-a="twin-a"][data-b="twin-b"]')
    pair.locator("summary").click()
    expect(pair.locator("mark").first).to_be_visible()
    page.locator('[data-testid="wrong-answers"] summary').first.click()
    expect(page.locator('[data-testid="common-wrong"]').first).to_be_visible()
    # The bars are drawn in the page's accent colour, which differs between the themes.
    colours = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        colours.append(page.locator(".chart-bars").first.evaluate("g => getComputedStyle(g).color"))
    assert colours[0] != colours[1]
    assert_no_violations_in_either_theme(page, "the class report")
    assert problems == []


def test_a_one_challenge_report_charts_the_cases_passed(browser: Browser, klass: Path, tmp_path: Path):
    # Two bars of challenges passed would say only what the pass rate says: the chart is of cases passed, 0 to all.
    out = tmp_path / "class"
    shutil.copytree(klass, out)
    doc = json.loads((out / "gradebook.json").read_text())
    doc = {
        "challenges": [LIMIT],
        "learners": [{**row, "challenges": {LIMIT: row["challenges"][LIMIT]}} for row in doc["learners"]],
    }
    exercises = [ex for ex in course_exercises(Project()) if ex.slug == LIMIT]
    write_outputs(out, doc, VerdictStore(out), exercises)
    page, problems = open_offline(browser, (out / "report" / "index.html").as_uri())
    cases = len(exercises[0].cases)
    expect(page.locator('figure[data-chart="distribution"] .chart-bars rect')).to_have_count(cases + 1)
    expect(page.locator('figure[data-chart="distribution"]')).to_have_attribute(
        "aria-label",
        f"Bar chart: how many learners passed each number of cases of {exercises[0].title} "
        "(the table beside it holds the numbers)",
    )
    expect(page.locator('[data-testid="distribution"] tbody tr')).to_have_count(cases + 1)
    expect(page.locator('figure[data-chart="distribution"] svg')).to_contain_text("cases passed")
    assert_no_violations_in_either_theme(page, "a one-challenge report")
    assert problems == []


@pytest.mark.parametrize("which", ["report", "feedback"])
def test_the_class_pages_fit_a_phone(browser: Browser, klass: Path, which: str):
    path = klass / "report" / "index.html" if which == "report" else feedback_page(klass, "solo")
    page, problems = open_offline(
        browser, path.as_uri(), viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    expect(page.locator("main")).to_be_visible()
    if which == "report":
        expect(page.locator("figure[data-chart] svg")).to_have_count(3)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390, f"the {which} scrolls sideways ({wide} px)"
    assert_no_violations_in_either_theme(page, f"the {which} on a phone")
    assert problems == []


@pytest.fixture(scope="module")
def canvas_class(klass: Path, tmp_path_factory) -> Path:
    """The class's verdicts handed in through Canvas (each learner a Canvas user of the roster, named as Canvas names
    them in a download) and written out for an assignment worth 10 points."""
    out = tmp_path_factory.mktemp("canvas-class")
    doc = json.loads((klass / "gradebook.json").read_text())
    roster = []
    for number, row in enumerate(doc["learners"], 100):
        row["lms"] = {"canvas": str(number), "canvas_attachment": str(number + 1000)}
        roster.append({"name": f"Learner, {row['learner']}", "id": number})
        row["name"] = f"learner{row['learner']}".lower()
    roster[-1]["name"], doc["learners"][-1]["name"] = "田中, 太郎", "田中太郎"  # a name in its own script
    (out / "roster.csv").write_bytes(canvas_export(roster, [("Homework", 7, 10)]))
    export = lms.prepare("canvas", out / "roster.csv", course(Project()), doc["challenges"], assignment="Homework")
    write_outputs(out, doc, VerdictStore(klass), course_exercises(Project()), export)
    return out


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}])
def test_a_learner_handed_in_through_canvas_reads_their_name_and_points_on_the_assignments_scale(
    browser: Browser, canvas_class: Path, viewport: dict
):
    book = {row["learner"]: row for row in csv.DictReader((canvas_class / "gradebook.csv").open(encoding="utf-8"))}
    row = book["solo"]
    assert row["name"] == "Learner, solo" and row["out of"] == "10"
    assert feedback_page(canvas_class, "solo").name == "Learner, solo (" + row["LMS id"] + ").html"
    page, problems = open_offline(browser, feedback_page(canvas_class, "solo").as_uri(), viewport=viewport)
    expect(page.locator("h1")).to_have_text("Learner, solo")
    expect(page.get_by_test_id("feedback-summary")).to_contain_text(f"{row['points']} of 10 points")
    section = page.locator('[data-testid="feedback-challenge"]').first
    expect(section.locator(".class-status")).to_contain_text(" of 5 points: ")  # two challenges share the 10
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= viewport["width"], f"the page scrolls sideways ({wide} px)"
    assert_no_violations_in_either_theme(page, "a Canvas learner's feedback")
    assert problems == []
    last = max(book.values(), key=lambda r: r["learner"])
    assert feedback_page(canvas_class, last["learner"]).name.startswith("田中, 太郎 (")  # letters of any script kept
