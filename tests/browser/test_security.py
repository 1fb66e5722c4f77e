"""The Content-Security-Policy in Chromium, from each place it can come from: the dev server (which sends what the
site's `_headers` asks for, as a static host does) and the service worker (which adds it where the host sends
none). The challenge still works under it, and neither the page nor Python's worker can reach another origin.
A host sending no headers and no service worker is the control: there the same requests do get through."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Browser, expect

from loopcraft.site.serve import LiveState
from tests.browser.test_offline import served
from tests.helpers import ROOT

SLOW_MS = 120_000
CHALLENGE = "build-an-agent/repeat-guard/"
SOLUTION = ROOT / "exercises/build-an-agent/repeat-guard/solution.py"
# Settles to what happened, so a refused request and one that got through can both be asserted on.
FETCH = "(to) => fetch(to, { mode: 'no-cors' }).then(() => 'sent', (error) => 'refused: ' + error.message)"


@pytest.fixture
def elsewhere():
    """A server on another origin (another port) that records every request reaching it."""
    hits: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Cross-Origin-Resource-Policy", "cross-origin")
            self.end_headers()
            self.wfile.write(b"the learner's code")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", hits
    server.shutdown()
    server.server_close()


# (how the site is served, whether the service worker runs, whether the policy applies)
SERVING = {
    "dev server": ({"isolation": True, "live": LiveState()}, "block", True),
    "service worker": ({"isolation": False}, "allow", True),
    "host sending none (control)": ({"isolation": False}, "block", False),
}


@pytest.mark.browser
@pytest.mark.parametrize("serving", SERVING)
# What the policy refuses, on purpose: a fetch elsewhere and a script added to the page (each its console error).
@pytest.mark.page_errors(r"/from-page\b", r"Executing inline script violates")
def test_the_policy_lets_a_challenge_be_solved_and_keeps_page_and_worker_to_their_origin(
    browser: Browser, built_site, elsewhere, serving
):
    server_args, service_workers, policed = SERVING[serving]
    other, hits = elsewhere
    with served(browser, built_site, service_workers=service_workers, **server_args) as (_, base, context):
        page = context.new_page()
        page.set_default_timeout(SLOW_MS)
        violations: list[str] = []
        page.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
        page.goto(base + CHALLENGE)
        if service_workers == "allow":  # the page reloads once the service worker controls it
            page.wait_for_function("() => crossOriginIsolated === true", timeout=SLOW_MS, polling=200)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        page.get_by_test_id("upload").set_input_files(SOLUTION)
        page.get_by_test_id("run").click()
        expect(page.get_by_test_id("status")).to_have_attribute("data-outcome", "pass", timeout=SLOW_MS)
        assert violations == [], "the page itself broke the policy"
        # The unlocked solution says what unlocking proves: a digest in a page is no secret, so it is no grade.
        expect(page.get_by_test_id("unlock-promise")).to_contain_text("It is not a grade")

        worker = next(w for w in page.workers if "/assets/worker.js" in w.url)
        from_page = page.evaluate(FETCH, other + "from-page")
        from_worker = worker.evaluate(FETCH, other + "from-worker")
        # A script added to the page (as an injected one would be) runs only where there is no policy.
        # An inline script runs as it is inserted, or never: no moment to wait for.
        injected = page.evaluate("""() => {
            document.body.append(Object.assign(document.createElement('script'), { textContent: 'window.injected = true' }));
            return window.injected === true;
        }""")
        if policed:
            assert from_page.startswith("refused") and from_worker.startswith("refused")
            assert hits == []
            assert not injected
            assert any("connect-src 'self'" in text for text in violations)
        else:
            assert (from_page, from_worker) == ("sent", "sent")
            assert sorted(hits) == ["/from-page", "/from-worker"]
            assert injected
