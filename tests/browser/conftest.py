"""Real headless Chromium (Debian's, see tests/support.py) against the real built site, served with and without
COOP/COEP. One site is built per run, shared by every test and, under pytest-xdist, by every worker.

No skips: if Chromium or the site cannot be had, the tests fail and say why.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import support
from tests.conftest import run_folder
from tests.helpers import quiet
from tests.support import serve, stop


class PageErrors:
    """Every uncaught error and every console error of every page a browser test opens, in any context made from the
    session's browser (Playwright's own fixtures, the returning browser, a test's own phone or offline context)."""

    def __init__(self):
        self.seen: list[str] = []

    def watch(self, context):
        context.on(
            "weberror", lambda error: self.seen.append(f"uncaught error: {error.error.name}: {error.error.message}")
        )
        context.on("console", self._console)
        return context

    def _console(self, message) -> None:
        if message.type == "error":
            where = message.location.get("url", "")
            self.seen.append(f"console error: {message.text}" + (f" (at {where})" if where else ""))


PAGE_ERRORS = PageErrors()


@pytest.fixture(scope="session")
def browser(browser):
    """Playwright's browser, every context it makes watched for page errors (see `no_page_errors`)."""
    new_context = browser.new_context
    browser.new_context = lambda *args, **kwargs: PAGE_ERRORS.watch(new_context(*args, **kwargs))
    return browser


@pytest.fixture(autouse=True)
def no_page_errors(request):
    """A browser test fails on any uncaught page error or console error, unless it is marked with patterns matching
    each one it provokes on purpose: `@pytest.mark.page_errors(r"Failed to load resource", ...)`."""
    marker = request.node.get_closest_marker("page_errors")
    allowed = [re.compile(pattern) for pattern in (marker.args if marker else ())]
    PAGE_ERRORS.seen.clear()
    yield
    unexpected = [error for error in PAGE_ERRORS.seen if not any(p.search(error) for p in allowed)]
    PAGE_ERRORS.seen.clear()
    assert not unexpected, "the page reported errors:\n" + "\n".join(unexpected)


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    # The service worker would make the plain server's pages isolated (after a reload) and serve files from
    # its cache; tests of the page itself run without it. tests/browser/test_offline.py opens its own contexts.
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, request) -> Path:
    """The site as `build.py build` writes it, reference and wrong solutions verified in Pyodide: built once per
    run, in the background from the run's start (tests/conftest.py), and shared by every xdist worker."""
    try:
        return support.built_site(run_folder(tmp_path_factory, request.config))
    except RuntimeError as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="session")
def servers(built_site):
    """Two servers of one site: cross-origin isolated (interrupts) and plain (worker restarts)."""
    started = {name: serve(built_site, isolation) for name, isolation in (("isolated", True), ("plain", False))}
    yield {name: url for name, (_, url) in started.items()}
    for server, _ in started.values():
        stop(server)


@pytest.fixture(params=["isolated", "plain"])
def site_url(request, servers) -> str:
    return servers[request.param]


@pytest.fixture
def isolated_url(servers) -> str:
    return servers["isolated"]


# What a test's page may leave in the shared context's sites; their kept memory snapshot of Python is in Cache
# Storage, which stays (no test's page caches anything else there: the service worker is blocked).
CLEARED = "local_storage,indexeddb,cookies,file_systems,websql,service_workers"


# A snapshot kept without a page of Python's own ({type: "make-snapshot"}, worker-core.js): the site's worker, as the
# snapshot maker, boots Python once and keeps its snapshot. Resolves with the bytes kept.
MAKE_SNAPSHOT = """async (workerUrl) => {
  const version = new URL(document.querySelector('script[src*="/assets/"]').src).search;
  const maker = new Worker(workerUrl + version, { type: "module", name: "snapshot" });
  const saved = await new Promise((resolve) => {
    maker.onmessage = (event) => event.data.type === "snapshot-done" && resolve(event.data.saved);
    maker.onerror = () => resolve(0);
    maker.postMessage({ type: "make-snapshot" });
  });
  maker.terminate();
  return saved;
}"""


class ReturningBrowser:
    """The browser of a learner who has been to both sites before: one context per pytest-xdist worker, whose
    pages restore Python from the memory snapshot each site kept on the first visit (about 2 s of Chromium's CPU
    a page, against 5 s for booting it). Between tests, their pages are closed and everything else they could
    have left is cleared, so each test starts with no progress, no saved code and no permissions."""

    def __init__(self, browser, context_args: dict, urls: list[str]):
        self.context = browser.new_context(**context_args)
        self.origins = [url.rstrip("/") for url in urls]
        self.keeper = self.context.new_page()  # holds the DevTools session that clears storage
        self.kept: list = []
        for url in urls:
            self.keeper.goto(url + "404.html")
            saved = self.keeper.evaluate(MAKE_SNAPSHOT, url + "assets/worker.js")
            assert saved > 0, f"no memory snapshot of Python was kept for {url}"
        self.keeper.goto("about:blank")
        self.devtools = self.context.new_cdp_session(self.keeper)
        quiet(self.context)  # from now on, quiet as any test's page

    def open_kept_page(self):
        """A page that outlives the test that opens it (closed with the browser): for a module's tests to share."""
        page = self.context.new_page()
        self.kept.append(page)
        return page

    def reset(self) -> None:
        self.kept = [page for page in self.kept if not page.is_closed()]
        for page in self.context.pages:
            if page is not self.keeper and page not in self.kept:
                page.close()
        self.context.unroute_all(behavior="ignoreErrors")
        self.context.clear_permissions()
        for origin in self.origins:
            self.devtools.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": CLEARED})


@pytest.fixture(scope="session")
def returning_browser(browser, browser_context_args, servers):
    returning = ReturningBrowser(browser, browser_context_args, list(servers.values()))
    yield returning
    returning.context.close()


@pytest.fixture
def context(request, new_context):
    """The shared returning browser, unless the test is marked `first_visit`: a browser that has never seen the
    site, where Python boots plainly."""
    if request.node.get_closest_marker("first_visit"):
        yield quiet(new_context())
        return
    returning = request.getfixturevalue("returning_browser")
    yield returning.context
    returning.reset()
