"""Real headless Chromium (Debian's) against the real built site, served with and without COOP/COEP.

No skips: if Chromium or the site cannot be had, the tests fail and say why.
"""
from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.helpers import ROOT

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = ROOT / "test-results"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (make setup does)")
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": FLAGS, "headless": True}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    # The service worker would make the plain server's pages isolated (after a reload) and serve files from
    # its cache; tests of the page itself run without it. tests/browser/test_offline.py opens its own contexts.
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The site as `build.py build` writes it, reference and wrong solutions verified in Pyodide."""
    out = tmp_path_factory.mktemp("built") / "site"
    proc = subprocess.run([sys.executable, "build.py", "build", "--out", str(out)], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, f"build failed:\n{proc.stdout}\n{proc.stderr}"
    return out


def _serve(root: Path, isolation: bool):
    from loopcraft.serve import make_server

    server = make_server(root, "127.0.0.1", 0, isolation=isolation, quiet=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


@pytest.fixture(scope="session")
def servers(built_site):
    """Two servers of one site: cross-origin isolated (interrupts) and plain (worker restarts)."""
    started = {name: _serve(built_site, isolation) for name, isolation in (("isolated", True), ("plain", False))}
    yield {name: url for name, (_, url) in started.items()}
    for server, _ in started.values():
        server.shutdown()
        server.server_close()


@pytest.fixture(params=["isolated", "plain"])
def site_url(request, servers) -> str:
    return servers[request.param]


@pytest.fixture
def isolated_url(servers) -> str:
    return servers["isolated"]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture
def page(page, request):
    """Playwright's page, recording the console; on failure a screenshot and the log go to test-results/."""
    log: list[str] = []
    page.on("console", lambda msg: log.append(f"[{msg.type}] {msg.text}"))
    page.on("pageerror", lambda err: log.append(f"[pageerror] {err}"))
    page.set_default_timeout(30_000)
    yield page
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)[-150:]
        try:
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
        except Exception as exc:  # noqa: BLE001 - the log below is still worth writing
            log.append(f"[screenshot failed] {exc}")
        (ARTIFACTS / f"{name}.log").write_text("\n".join(log), encoding="utf-8")
