"""The service worker: after one visit the course works with the network off, on a host that sends no
COOP/COEP headers it makes the pages cross-origin isolated itself, so a runaway case is interrupted, and it never
serves a cached copy whose bytes differ from the build's (Cache Storage is writable by any page of the site)."""

from __future__ import annotations

import os
import shutil
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers import ROOT, SNAPSHOTS_KEPT, cases_of, wait_for_snapshot, wait_until
from tests.support import FIRST_VISIT_START, serve, stop

SLOW_MS = 120_000
AGENT = ROOT / "exercises/build-an-agent"
CACHED = """async () => {
  await navigator.serviceWorker.ready;
  while (!navigator.serviceWorker.controller) await new Promise((r) => setTimeout(r, 100));
}"""
# Replace the cached copies of the page's script and of Python's worker with code that marks where it ran.
TAMPER = """async () => {
  const cache = await caches.open((await caches.keys()).find((name) => name.startsWith("loopcraft-site-")));
  const urls = [document.querySelector('script[type="module"]').src, loopcraftWorkerUrl()];
  for (const url of urls) {
    const planted = new Response("self.planted = true;", { headers: { "Content-Type": "text/javascript" } });
    await cache.put(url, planted);
  }
  return urls;

  function loopcraftWorkerUrl() {
    return performance.getEntriesByType("resource").map((entry) => entry.name).find((name) => name.includes("/assets/worker.js"));
  }
}"""
# Replace the cached copy of one file with text (a file Python's worker reads with fetch(), here).
PLANT = """async ([url, text]) => {
  const cache = await caches.open((await caches.keys()).find((name) => name.startsWith("loopcraft-site-")));
  await cache.put(url, new Response(text, { headers: { "Content-Type": "text/x-python" } }));
}"""
# Cut the kept memory snapshot short by a byte, as a full disk or another script of the site might leave it.
DAMAGE_SNAPSHOT = """async () => {
  const cache = await caches.open("loopcraft-snapshot");
  const [key] = await cache.keys();
  const bytes = await (await cache.match(key)).arrayBuffer();
  await cache.put(key, new Response(bytes.slice(0, bytes.byteLength - 1)));
}"""
CACHED_TEXT = """async (url) => {
  const cache = await caches.open((await caches.keys()).find((name) => name.startsWith("loopcraft-site-")));
  const hit = await cache.match(url);
  return hit ? hit.text() : null;
}"""


@contextmanager
def served(browser: Browser, site, *, isolation: bool, live=None, service_workers: str = "allow"):
    """(server, its URL, a browser context) for `site`; the server may be stopped early, to go offline."""
    server, base = serve(site, isolation, live)
    context = browser.new_context(service_workers=service_workers)
    try:
        yield server, base, context
    finally:
        context.close()
        stop(server)


def open_ready(page: Page, address: str) -> None:
    page.goto(address)
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)


def cached_after_visiting(page: Page, address: str) -> None:
    """Open a page until Python is ready and the service worker, done caching the site, controls it."""
    open_ready(page, address)
    page.evaluate(CACHED)


def go_offline(context, server) -> None:
    # Offline twice over: the browser's emulation, and no server at all (emulation does not reach the service
    # worker's own requests).
    context.set_offline(True)
    stop(server)


def run_all(page: Page) -> None:
    page.get_by_test_id("run").click()
    expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "pass", timeout=SLOW_MS)


# Offline, a tampered copy of the page's script is deleted and the script fails to load: on purpose.
@pytest.mark.page_errors(r"Failed to load resource: net::ERR_FAILED \(at .*/assets/app\.js")
def test_after_one_visit_the_course_works_offline_from_the_kept_snapshot_and_no_tampered_file_is_served(
    browser: Browser, built_site
):
    from tests.browser.test_lab import cells
    from tests.browser.test_lessons import run_block
    from tests.unit.test_lessons_loaded import SEED_004

    # One first visit for all of it: each costs Python's boot, the site's caching and the snapshot's making.
    with served(browser, built_site, isolation=True) as (server, base, context):
        page = context.new_page()
        cached_after_visiting(page, base + "build-an-agent/dispatch-registry/")
        # A first visit restores the snapshot the site ships (or, where it is refused, boots Python), and keeps it.
        assert page.locator("body").get_attribute("data-python-start") == FIRST_VISIT_START
        wait_for_snapshot(page)  # kept as Python started; the site was cached once Python was ready
        assert page.evaluate(SNAPSHOTS_KEPT) == 1

        # Tampered copies of the page's script and of Python's worker: online, dropped, the build's fetched and
        # cached again.
        urls = page.evaluate(TAMPER)
        assert len(urls) == 2 and all(urls)
        page.reload()
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        worker = next(w for w in page.workers if "/assets/worker.js" in w.url)
        assert page.evaluate("self.planted") is None and worker.evaluate("self.planted") is None
        for address in urls:
            path = address.removeprefix(base).split("?")[0]
            assert page.evaluate(CACHED_TEXT, address) == (built_site / path).read_text()
        # So is a file Python's worker reads with fetch(): the grader's own code, planted to pass every case.
        grader = base + "py/grader/execute.py"
        page.evaluate(PLANT, [grader, 'def run_case(*args):\n    return \'{"kind": "value"}\'\n'])
        page.reload()
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        assert page.evaluate(CACHED_TEXT, grader) == (built_site / "py/grader/execute.py").read_text()

        # A damaged snapshot is dropped: Python boots plainly, and the page keeps a new one.
        page.evaluate(DAMAGE_SNAPSHOT)
        page.reload()
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        assert page.locator("body").get_attribute("data-python-start") == "missing"
        wait_for_snapshot(page)

        go_offline(context, server)
        # Pages never visited, each kind: a challenge solved, a lesson's block run, the lab's whole grid drawn.
        page.goto(base + "build-an-agent/repeat-guard/")
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        assert page.locator("body").get_attribute("data-python-start") == "restored"
        page.get_by_test_id("upload").set_input_files(AGENT / "repeat-guard/solution.py")
        run_all(page)
        rows = page.get_by_test_id("case")
        assert rows.count() > 0
        assert {rows.nth(i).get_attribute("data-status") for i in range(rows.count())} == {"pass"}
        page.goto(base + "build-an-agent/the-action-contract/")
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        assert "refused: JSONDecodeError" in run_block(page.get_by_test_id("live-block").first)
        page.goto(base + "build-an-agent/lab/")
        expect(page.get_by_test_id("status")).to_contain_text("Ran 144 runs", timeout=SLOW_MS)
        assert cells(page, "guarded") == {habit: row[2] for habit, row in SEED_004.items()}
        page.goto(base)  # the course index too
        expect(page.get_by_test_id("challenge-link").first).to_be_visible()

        # Tampered again, offline: with nothing to fetch them from, the files fail to load rather than run the
        # planted code, and the tampered copies are deleted.
        page.goto(base + "build-an-agent/dispatch-registry/")
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        assert page.evaluate(TAMPER) == urls
        page.reload()
        page.wait_for_load_state("load")
        # Once the service worker has served (or failed) both files, it has deleted both tampered copies.
        wait_until(page, f"async (urls) => (await Promise.all(urls.map({CACHED_TEXT}))).every((t) => t === null)", urls)
        assert page.evaluate("self.planted") is None
        assert all(w.evaluate("self.planted") is None for w in page.workers)
        assert page.get_by_test_id("status").get_attribute("data-state") != "ready"
        assert [page.evaluate(CACHED_TEXT, address) for address in urls] == [None, None]  # deleted


def test_from_the_dev_server_live_reload_sees_a_rebuilt_file_and_the_course_still_works_offline(
    browser: Browser, built_site, tmp_path
):
    from loopcraft.site.serve import LiveState

    # A copy of the site to rebuild a file of (hard links: the rebuilt file is written anew, never into the link).
    site = tmp_path / "site"
    shutil.copytree(built_site, site, copy_function=os.link)
    live = LiveState()
    with served(browser, site, isolation=True, live=live) as (server, base, context):
        page = context.new_page()
        cached_after_visiting(page, base + "build-an-agent/dispatch-registry/")
        assert page.locator('script[src^="/__loopcraft/"]').count() == 1  # the dev server's page, live script and all

        # A rebuild changes the page's script: the page reloads, and runs the rebuilt one, not the cached one.
        script = site / "assets/app.js"
        text = script.read_text()
        for copy in [script, *(script.with_name(script.name + suffix) for suffix in (".br", ".gz"))]:
            copy.unlink(missing_ok=True)
        script.write_text(text + "\nglobalThis.rebuilt = true;\n")
        live.publish([])
        page.wait_for_function("() => globalThis.rebuilt === true", timeout=SLOW_MS, polling=200)

        go_offline(context, server)
        # A challenge never visited, opened and solved with the network gone.
        page.goto(base + "build-an-agent/repeat-guard/")
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        page.get_by_test_id("upload").set_input_files(AGENT / "repeat-guard/solution.py")
        run_all(page)


def test_the_service_worker_isolates_a_page_its_host_does_not(browser: Browser, built_site):
    with served(browser, built_site, isolation=False) as (_, base, context):
        page = context.new_page()
        # A quiet page: no snapshot maker starting a second Python while the cases are timed.
        page.goto(base + "build-an-agent/repeat-guard/?background=off")
        # The page reloads once when the service worker takes control; after that it is isolated.
        page.wait_for_function("() => crossOriginIsolated === true", timeout=SLOW_MS, polling=200)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        page.evaluate("""() => {
            const status = document.querySelector('[data-testid="status"]');
            window.restarts = [];
            new MutationObserver(() => status.dataset.state === "restarting" && window.restarts.push(status.dataset.restartReason))
              .observe(status, {attributes: true});
        }""")
        page.locator('[data-testid="editor"] .cm-content').click()
        page.keyboard.press("Control+a")
        # Endless on the cases about Paris, wrong elsewhere: the run ends at the first Paris case, which the page
        # interrupts at the time limit (a run ends at its first timeout, so a loop costs one limit, not one a case).
        page.keyboard.insert_text(
            "def run_agent(task, script, **options):\n    while 'paris' in task.lower():\n        pass\n    return {}\n"
        )
        page.get_by_test_id("run").click()
        expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "fail", timeout=SLOW_MS)
        rows = page.get_by_test_id("case")
        statuses = [rows.nth(i).get_attribute("data-status") for i in range(rows.count())]
        cases = cases_of("repeat-guard")
        first = next(i for i, c in enumerate(cases) if "paris" in c.args["task"].lower())
        assert statuses == ["fail"] * first + ["timeout"] + ["not-run"] * (len(cases) - first - 1)
        # Interrupted, not killed: without isolation the looping case would restart Python
        # ("no-interrupt"). A lost interrupt would show as "no-answer" (see takeOnRead in worker-core.js).
        assert page.evaluate("window.restarts") == []


# That a quiet page makes no snapshot is checked on the quiet first visit test_hostile.py's cold page makes (a first
# visit boots Python: 5 CPU-s for a page of its own).
