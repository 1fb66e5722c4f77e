"""Fixtures shared by every test: one Pyodide under Node, Debian's Chromium for Playwright, and the markers
that split the suite into `make test-fast` (no browser, no benchmark) and `make test` (everything).
The built site and its servers are in tests/browser/conftest.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers import ARTIFACTS, quiet
from tests.support import launch_options, start_site_build

PLAYWRIGHT_FIXTURES = {"page", "context", "browser"}


def pytest_collection_modifyitems(config, items):
    """Every test under tests/browser/, and any other test that opens Chromium, is a browser test: the fast loop
    leaves them out without each new test having to remember its marker. Browser tests go last, so that the
    others keep both cores busy while the site they share is built (see `_site_build`)."""
    browser_dir = Path(__file__).parent / "browser"
    for item in items:
        if item.path.is_relative_to(browser_dir) or PLAYWRIGHT_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)  # stable: files stay in order


def run_folder(tmp_path_factory, config) -> Path:
    """The run's temporary folder, the same for every pytest-xdist worker (each has a folder of its own in it)."""
    root = tmp_path_factory.getbasetemp()
    return root.parent if hasattr(config, "workerinput") else root


@pytest.fixture(scope="session", autouse=True)
def _site_build(request, tmp_path_factory):
    """When browser tests are selected, the site they share starts building with the session, in a process of
    its own (tests/support.py), instead of when the first of them asks for it."""
    if any(item.get_closest_marker("browser") for item in request.session.items):
        start_site_build(run_folder(tmp_path_factory, request.config))


@pytest.fixture(scope="session")
def pyodide_runner():
    """One Pyodide under Node for the whole session: it takes seconds to load."""
    from loopcraft.project import Project
    from loopcraft.pyodide import PyodideRunner

    with PyodideRunner(Project()) as runner:
        yield runner


@pytest.fixture(scope="session")
def runners():
    """Runners lent to the gradings a test runs in this process (loopcraft.grading.Runners, tests.helpers.run_grader):
    each starts once a session, not once a command."""
    from loopcraft.grading import Runners

    with Runners() as pool:
        yield pool


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    try:
        return {**browser_type_launch_args, **launch_options(test=True)}
    except FileNotFoundError as exc:
        pytest.fail(str(exc))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture
def context(new_context):
    """Playwright's context, new for every test and quiet (tests/helpers.py); tests/browser/ shares one among its
    tests, see its conftest."""
    return quiet(new_context())


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
