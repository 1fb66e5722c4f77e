"""The service worker: after one visit the course works with the network off, on a host that sends no
COOP/COEP headers it makes the pages cross-origin isolated itself, so a runaway case is interrupted, and it never
serves a cached copy whose bytes differ from the build's (Cache Storage is writable by any page of the site)."""
from __future__ import annotations

import threading
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers import ROOT

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
CACHED_TEXT = """async (url) => {
  const cache = await caches.open((await caches.keys()).find((name) => name.startsWith("loopcraft-site-")));
  const hit = await cache.match(url);
  return hit ? hit.text() : null;
}"""


@contextmanager
def served(browser: Browser, site, *, service_workers: str = "allow", **server_args):
    """(server, its URL, a browser context) for `site`; the server may be shut down early, to go offline."""
    from loopcraft.serve import make_server, url

    server = make_server(site, "127.0.0.1", 0, quiet=True, **server_args)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    context = browser.new_context(service_workers=service_workers)
    try:
        yield server, url(server), context
    finally:
        context.close()
        server.shutdown()
        server.server_close()


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
    server.shutdown()
    server.server_close()


def run_all(page: Page) -> None:
    page.get_by_test_id("run").click()
    expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "pass", timeout=SLOW_MS)


@pytest.mark.browser
def test_after_one_visit_the_course_works_offline(browser: Browser, built_site):
    with served(browser, built_site, isolation=True) as (server, base, context):
        page = context.new_page()
        cached_after_visiting(page, base + "build-an-agent/dispatch-registry/")
        go_offline(context, server)
        page.goto(base + "build-an-agent/repeat-guard/")
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        page.get_by_test_id("upload").set_input_files(AGENT / "repeat-guard/solution.py")
        run_all(page)
        rows = page.get_by_test_id("case")
        assert rows.count() > 0
        assert {rows.nth(i).get_attribute("data-status") for i in range(rows.count())} == {"pass"}
        page.goto(base)  # the course index too
        expect(page.get_by_test_id("challenge-link").first).to_be_visible()


@pytest.mark.browser
def test_the_service_worker_isolates_a_page_its_host_does_not(browser: Browser, built_site):
    with served(browser, built_site, isolation=False) as (_, base, context):
        page = context.new_page()
        page.goto(base + "build-an-agent/repeat-guard/")
        # The page reloads once when the service worker takes control; after that it is isolated.
        page.wait_for_function("() => crossOriginIsolated === true", timeout=SLOW_MS)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        page.evaluate("""() => {
            const status = document.querySelector('[data-testid="status"]');
            window.states = [];
            new MutationObserver(() => window.states.push(status.dataset.state)).observe(status, {attributes: true});
        }""")
        page.locator('[data-testid="editor"] .cm-content').click()
        page.keyboard.press("Control+a")
        page.keyboard.insert_text("def run_agent(**kwargs):\n    while True: pass\n")
        page.get_by_test_id("run").click()
        expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "fail", timeout=SLOW_MS)
        statuses = page.get_by_test_id("case")
        assert {statuses.nth(i).get_attribute("data-status") for i in range(statuses.count())} == {"timeout"}
        # Interrupted, not killed: without isolation every one of these cases would restart Python. One restart
        # is tolerated: on a loaded 2-core machine a run of this test occasionally shows one, cause not yet found
        # (see the closing note of issue 6); more than that means the interrupt is not working.
        restarts = page.evaluate("window.states").count("restarting")
        assert restarts <= 1 < statuses.count(), f"{restarts} restarts for {statuses.count()} timed-out cases"


@pytest.mark.browser
def test_a_tampered_cached_file_is_never_served(browser: Browser, built_site):
    with served(browser, built_site, isolation=True) as (server, base, context):
        page = context.new_page()
        cached_after_visiting(page, base + "build-an-agent/repeat-guard/")
        urls = page.evaluate(TAMPER)
        assert len(urls) == 2 and all(urls)
        # Online: the tampered copies are dropped, the build's fetched and cached again.
        page.reload()
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        worker = next(w for w in page.workers if "/assets/worker.js" in w.url)
        assert page.evaluate("self.planted") is None and worker.evaluate("self.planted") is None
        for address in urls:
            path = address.removeprefix(base).split("?")[0]
            assert page.evaluate(CACHED_TEXT, address) == (built_site / path).read_text()
        # Offline: with nothing to fetch them from, the files fail to load rather than run the planted code.
        page.evaluate(TAMPER)
        go_offline(context, server)
        page.reload()
        page.wait_for_load_state("load")
        page.wait_for_timeout(1000)
        assert page.evaluate("self.planted") is None
        assert all(w.evaluate("self.planted") is None for w in page.workers)
        assert page.get_by_test_id("status").get_attribute("data-state") != "ready"
        assert [page.evaluate(CACHED_TEXT, address) for address in urls] == [None, None]  # deleted
