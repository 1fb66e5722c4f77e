"""The corpus of hostile and broken solutions (tests/hostile/) in real Chromium, run as a learner runs it:
every run ends in the verdict the corpus expects (the same as on the command line), the page keeps working,
nothing the learner wrote is lost, and nothing printed or returned runs as HTML. Also: two tabs on one
challenge never overwrite each other's code unseen."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests import hostile_corpus
from tests.browser.test_learner import CEL, SLOW_LOAD_MS, open_challenge, replace_code
from tests.helpers import ARTIFACTS, SNAPSHOTS_KEPT, cases_of, serve_time_limit, without_python
from tests.support import FIRST_VISIT_START

CORPUS = {item.name: item for item in hostile_corpus.load() if item.browser}
# The limits the tests serve their pages, not the challenge's 3 s (bench/hostile_timings.py keeps the real one): a file
# that must time out (`Hostile.loops`) runs on a page given LOOP_S, since what is under test is that every loop ends in
# the verdict the corpus expects, and each loop costs the whole limit (a page's run ends at its first timeout, so one
# limit a file); every other file runs on a page given FINISH_S, far from any limit on a busy machine (the items that
# walk everything the collector reaches take up to half a second). The command line's corpus test does the same.
LOOP_S, FINISH_S = 0.5, 10


def limit_of(item: hostile_corpus.Hostile) -> float:
    return LOOP_S if item.loops else FINISH_S


# Without cross-origin isolation there is no interrupt: a loop past the limit costs a new worker, every loop the
# same way (no interrupt is tried, so none can be swallowed), as test_learner's loop test on the plain page shows.
# Here the plain page gets the items marked `also-plain`: a crash, which is renewed in its worker as on an isolated
# page, and the ways to JavaScript, which must stay closed without the CSP.
ON_PLAIN = [name for name, item in CORPUS.items() if item.plain]
# The longest run: a tampered grader gets a new interpreter after every one of its cases.
RUN_LIMIT_MS = 12 * SLOW_LOAD_MS

# Watches the run the next click on Run starts, until it is over (the button enabled again and the status "ready",
# see app.js refresh()): whether it published a new results document, why Python's worker was replaced during it,
# if it was, and how long it took (bench/hostile_timings.py reports that).
_WATCH_RUN = """() => {
  const run = document.querySelector('[data-testid="run"]');
  const status = document.querySelector('[data-testid="status"]');
  const previous = window.loopcraft?.lastResult;
  const restarts = [];
  let restarting = false;
  window.__runEnd = null;
  run.addEventListener("click", () => {
    const started = performance.now();
    const watch = new MutationObserver(() => {
      if (status.dataset.state === "restarting" && !restarting) restarts.push(status.dataset.restartReason);
      restarting = status.dataset.state === "restarting";
      if (run.disabled || status.dataset.state !== "ready") return;
      watch.disconnect();
      window.__runEnd = { fresh: window.loopcraft?.lastResult !== previous, restarts, ms: performance.now() - started };
    });
    watch.observe(run, { attributes: true });
    watch.observe(status, { attributes: true });
  }, { once: true, capture: true });
}"""


@dataclass
class Learner:
    """One page kept across a group of runs, so Pyodide loads once per group."""

    page: Page
    folder: Path
    dialogs: list[str] = field(default_factory=list)

    def load_file(self, name: str, source: str) -> None:
        """Loads the code with the page's own file button, as a learner loads a .py file."""
        path = self.folder / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        self.page.get_by_test_id("upload").set_input_files(path)

    def run(self) -> tuple[dict, list[str]]:
        """Presses Run and waits for the run's end: the results document, and why Python's worker was replaced
        during the run (one reason each time it was). `window.__runEnd.ms` then says how long the run took."""
        self.page.evaluate(_WATCH_RUN)
        self.page.get_by_test_id("run").click()
        # Polled, not on every animation frame: a frame drawn per poll slows the busy page being watched.
        self.page.wait_for_function("() => window.__runEnd !== null", timeout=RUN_LIMIT_MS, polling=200)
        end = self.page.evaluate("window.__runEnd")
        assert end["fresh"], "the run ended without a results document"
        return self.page.evaluate("window.loopcraft.lastResult"), end["restarts"]

    def editor_text(self) -> str:
        """The editor's whole text, copied out as a learner would (the editor only draws the lines in view)."""
        self.page.locator('[data-testid="editor"] .cm-content').click()
        self.page.keyboard.press("Control+a")
        self.page.keyboard.press("Control+c")
        return self.page.evaluate("navigator.clipboard.readText()")


CLIPBOARD = ["clipboard-read", "clipboard-write"]


@pytest.fixture(scope="module")
def learners(returning_browser, servers, tmp_path_factory):
    """A page per server and limit, opened on first use in the returning browser (tests/browser/conftest.py), whose
    service worker is blocked: on the plain server it would add COOP/COEP itself, and the plain page is here to
    run without isolation (tests/browser/test_offline.py covers the service worker). Many files here tamper
    with the grader, and each tampered case costs a new interpreter: restored from the snapshot that browser
    keeps, not booted. One page a server at a time: two would be two tabs on one challenge, whose saves conflict
    (test_two_tabs_never_overwrite_each_others_code_unseen), so a page is closed when the next limit's opens (the
    files that loop come first)."""
    opened: dict[tuple[str, float], Learner] = {}

    def get(server: str, limit: float) -> Learner:
        if (server, limit) not in opened:
            for key in [key for key in opened if key[0] == server]:
                opened.pop(key).page.close()
            page = returning_browser.open_kept_page()
            page.set_default_timeout(30_000)
            learner = opened[server, limit] = Learner(page, tmp_path_factory.mktemp(server))
            page.on("dialog", lambda dialog: (learner.dialogs.append(dialog.message), dialog.dismiss()))
            serve_time_limit(page, limit)
            open_challenge(page, servers[server], hostile_corpus.SLUG)
        return opened[server, limit]

    yield get
    for learner in opened.values():
        learner.page.close()


@pytest.fixture
def learner(request, learners, servers):
    """The group's page; on failure, a screenshot in test-results/ as for the other browser tests."""
    server, name = request.node.callspec.params["server"], request.node.callspec.params.get("name")
    learner = learners(server, limit_of(CORPUS[name]) if name else FINISH_S)
    learner.page.context.grant_permissions(CLIPBOARD, origin=servers[server].rstrip("/"))  # each test clears them
    yield learner
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)[-150:]
        learner.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def check_still_working(learner: Learner, source: str) -> None:
    page = learner.page
    expect(page.get_by_test_id("run")).to_be_enabled()
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready")
    # Nothing lost: the editor and the saved copy hold exactly the code that ran.
    assert learner.editor_text() == source
    expect(page.get_by_test_id("saved")).to_have_text("Saved")
    key = f"loopcraft:code:build-an-agent/{hostile_corpus.SLUG}"
    assert page.evaluate("(key) => localStorage.getItem(key)", key) == source
    # Nothing faked: no learner text ran as script.
    assert page.evaluate("document.body.dataset.pwned") is None
    assert learner.dialogs == []
    # The editor still takes typing (inserted as one input, not key by key: 0.03 against 0.2 CPU-s, after every item).
    page.keyboard.press("Control+End")
    page.keyboard.insert_text("# still typing")
    expect(page.locator('[data-testid="editor"] .cm-content')).to_contain_text("# still typing")


CASES = [
    pytest.param("isolated", name, id=f"isolated-{name}") for name in sorted(CORPUS, key=lambda n: not CORPUS[n].loops)
]
CASES += [pytest.param("plain", name, id=f"plain-{name}") for name in ON_PLAIN]


@pytest.mark.parametrize(("server", "name"), CASES)
def test_hostile_solution_gets_the_corpus_verdict_and_the_page_keeps_working(learner: Learner, server, name):
    item = CORPUS[name]
    learner.load_file(item.name, item.source)
    result, restarts = learner.run()
    hostile_corpus.check(item, result["tests"], limit_of(item))
    # A new worker only for a case that never answered; a tampered or broken interpreter is renewed in its worker.
    looped = sum(t["status"] == "timeout" for t in result["tests"])
    assert restarts == (["no-answer"] * looped if name == "swallows_interrupt" else []), restarts
    check_still_working(learner, item.source)


@pytest.mark.parametrize("server", ["isolated"])
def test_printed_and_returned_html_is_shown_as_text(learner: Learner, server):
    item = CORPUS["html_in_output"]
    learner.load_file(item.name, item.source)
    learner.run()
    page = learner.page
    first = page.get_by_test_id("case").first
    expect(first.get_by_test_id("output")).to_contain_text("<script>document.body.dataset.pwned=1</script>")
    expect(first.get_by_test_id("actual")).to_contain_text("'answer': '<b>bold</b>'")
    expect(page.get_by_test_id("results").locator("img, script, b")).to_have_count(0)
    assert page.evaluate("document.body.dataset.pwned") is None
    assert learner.dialogs == []


@pytest.mark.parametrize("server", ["isolated", "plain"])
def test_after_the_corpus_a_correct_solution_still_passes(learner: Learner, server):
    learner.load_file("solution", (CEL / "solution.py").read_text(encoding="utf-8"))
    result, _ = learner.run()
    assert result["status"] == "pass"
    total = len(cases_of("consecutive-error-limit"))
    expect(learner.page.get_by_test_id("status")).to_contain_text(f"{total} of {total} cases passed")


# --- Two tabs on one challenge ----------------------------------------------------------------------


def open_editor(page: Page, base: str, slug: str) -> None:
    """The challenge with its editor, and no Python: these tests only edit, and the editor does not wait for it."""
    without_python(page)
    page.goto(base)
    page.locator(f'[data-testid="challenge-link"][data-slug="{slug}"]').click()
    expect(page.get_by_test_id("editor")).to_be_visible()


def test_two_tabs_never_overwrite_each_others_code_unseen(page: Page, isolated_url: str):
    slug, key = "malformed-json-recovery", "loopcraft:code:build-an-agent/malformed-json-recovery"
    first, second = page, page.context.new_page()
    open_editor(first, isolated_url, slug)
    open_editor(second, isolated_url, slug)
    saved = lambda: first.evaluate("(key) => localStorage.getItem(key)", key)  # noqa: E731 - shared storage

    replace_code(first, "# first tab\n")
    expect(first.get_by_test_id("saved")).to_have_text("Saved")
    expect(first.get_by_test_id("conflict")).to_be_hidden()
    # The second tab is told, and until it chooses, its own edits do not replace the first tab's code.
    expect(second.get_by_test_id("conflict")).to_be_visible()
    replace_code(second, "# second tab\n")
    # Held: the edit scheduled no save at all (storage.js's schedule returns before setting one), so there is no
    # moment to wait for.
    expect(second.get_by_test_id("saved")).to_have_text("Not saved: choose a version above")
    assert saved() == "# first tab\n"

    # Keeping this tab's version saves it again on the next edit, and then the first tab is told.
    second.get_by_test_id("conflict-keep").click()
    expect(second.get_by_test_id("conflict")).to_be_hidden()
    assert saved() == "# first tab\n"
    second.keyboard.type("# kept")
    expect(second.get_by_test_id("saved")).to_have_text("Saved")
    # Another tab sees a write once the browser has passed it on: on a loaded machine, not at once.
    first.wait_for_function(
        "([key, text]) => localStorage.getItem(key) === text", arg=[key, "# second tab\n# kept"], polling=200
    )
    expect(first.get_by_test_id("conflict")).to_be_visible()

    # Loading the other tab's version takes it whole, as one undoable step.
    first.get_by_test_id("conflict-load").click()
    expect(first.get_by_test_id("conflict")).to_be_hidden()
    editor = first.locator('[data-testid="editor"] .cm-content')
    expect(editor).to_contain_text("# kept")
    expect(editor).not_to_contain_text("# first tab")
    expect(second.get_by_test_id("conflict")).to_be_hidden()
    first.keyboard.press("Control+z")
    expect(editor).to_contain_text("# first tab")
    expect(editor).not_to_contain_text("# kept")


def test_the_notice_goes_away_when_the_other_tab_comes_back_to_this_tabs_code(page: Page, isolated_url: str):
    first, second = page, page.context.new_page()
    open_editor(first, isolated_url, "malformed-json-recovery")
    open_editor(second, isolated_url, "malformed-json-recovery")
    replace_code(second, "# second tab\n")
    expect(first.get_by_test_id("conflict")).to_be_visible()
    # Back at the starter, which is what the first tab holds: nothing is left to choose.
    second.get_by_test_id("reset").click()
    expect(first.get_by_test_id("conflict")).to_be_hidden()
    expect(first.get_by_test_id("saved")).to_have_text("Saved")


@pytest.mark.first_visit
def test_a_value_nested_3000_deep_is_refused_even_by_a_cold_page_without_a_restart(page: Page, isolated_url: str):
    # A fresh page's Python has not been optimised yet: freeing such a value whole overflowed the JavaScript stack
    # there, and the verdict was "Python crashed" instead of the command line's.
    item = CORPUS["returns_deep_value"]
    serve_time_limit(page, FINISH_S)
    open_challenge(page, isolated_url, hostile_corpus.SLUG)
    replace_code(page, item.source)
    page.get_by_test_id("run").click()
    expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "fail", timeout=RUN_LIMIT_MS)
    hostile_corpus.check(item, page.evaluate("window.loopcraft.lastResult")["tests"], FINISH_S)
    assert page.get_by_test_id("status").get_attribute("data-restart-reason") is None
    # And a quiet page (as the tests' pages are, tests/helpers.py) keeps no snapshot: it says so as Python starts, and
    # keeps none even after a run, neither the one the site ships nor one of its own (where that one is refused, and
    # Python boots). Checked here, on a quiet first visit (a boot is 5 CPU-s).
    body = page.locator("body")
    assert body.get_attribute("data-python-start") == FIRST_VISIT_START
    assert body.get_attribute("data-snapshot-keeping") == "false"
    assert page.evaluate(SNAPSHOTS_KEPT) == 0
