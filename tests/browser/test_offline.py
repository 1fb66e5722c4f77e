"""The service worker: after one visit the course works with the network off, and on a host that sends no
COOP/COEP headers it makes the pages cross-origin isolated itself, so a runaway case is interrupted."""
from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.helpers import ROOT
from tests.support import serve, stop

SLOW_MS = 120_000
AGENT = ROOT / "exercises/build-an-agent"
CACHED = """async () => {
  await navigator.serviceWorker.ready;
  while (!navigator.serviceWorker.controller) await new Promise((r) => setTimeout(r, 100));
}"""


def open_ready(page: Page, address: str) -> None:
    page.goto(address)
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)


def run_all(page: Page) -> None:
    page.get_by_test_id("run").click()
    expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "pass", timeout=SLOW_MS)


def test_after_one_visit_the_course_works_offline(browser: Browser, built_site):
    server, base = serve(built_site, isolation=True)
    context = browser.new_context(service_workers="allow")
    try:
        page = context.new_page()
        open_ready(page, base + "build-an-agent/dispatch-registry/")
        page.evaluate(CACHED)
        # Offline twice over: the browser's emulation, and no server at all (emulation does not reach
        # the service worker's own requests).
        context.set_offline(True)
        stop(server)
        page.goto(base + "build-an-agent/repeat-guard/")
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        page.get_by_test_id("upload").set_input_files(AGENT / "repeat-guard/solution.py")
        run_all(page)
        rows = page.get_by_test_id("case")
        assert rows.count() > 0
        assert {rows.nth(i).get_attribute("data-status") for i in range(rows.count())} == {"pass"}
        page.goto(base)  # the course index too
        expect(page.get_by_test_id("challenge-link").first).to_be_visible()
    finally:
        context.close()
        stop(server)


def test_the_service_worker_isolates_a_page_its_host_does_not(browser: Browser, built_site):
    server, base = serve(built_site, isolation=False)
    context = browser.new_context(service_workers="allow")
    try:
        page = context.new_page()
        # A quiet page: no snapshot maker starting a second Python while the cases are timed.
        page.goto(base + "build-an-agent/repeat-guard/?background=off")
        # The page reloads once when the service worker takes control; after that it is isolated.
        page.wait_for_function("crossOriginIsolated === true", timeout=SLOW_MS)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        page.evaluate("""() => {
            const status = document.querySelector('[data-testid="status"]');
            window.restarts = [];
            new MutationObserver(() => status.dataset.state === "restarting" && window.restarts.push(status.dataset.restartReason))
              .observe(status, {attributes: true});
        }""")
        page.locator('[data-testid="editor"] .cm-content').click()
        page.keyboard.press("Control+a")
        page.keyboard.insert_text("def run_agent(**kwargs):\n    while True: pass\n")
        page.get_by_test_id("run").click()
        expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "fail", timeout=SLOW_MS)
        statuses = page.get_by_test_id("case")
        assert statuses.count() > 1
        assert {statuses.nth(i).get_attribute("data-status") for i in range(statuses.count())} == {"timeout"}
        # Interrupted, not killed: without isolation every one of these cases would restart Python
        # ("no-interrupt"). A lost interrupt would show as "no-answer" (see takeOnRead in worker-core.js).
        assert page.evaluate("window.restarts") == []
    finally:
        context.close()
        stop(server)
