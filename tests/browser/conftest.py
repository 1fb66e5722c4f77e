"""Real headless Chromium (Debian's, see tests/support.py) against the real built site, served with and without
COOP/COEP. One site is built per run, shared by every test and, under pytest-xdist, by every worker.

No skips: if Chromium or the site cannot be had, the tests fail and say why.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import support
from tests.conftest import run_folder
from tests.support import serve, stop


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
