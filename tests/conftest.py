"""Fixtures shared by every test: the runners (real Pyodide under Node, or the in-process one for trusted code), Debian's
Chromium for Playwright, and the markers that sort the suite by what a test costs (`make test-unit`,
`make test-fast`, `make test`). The built site and its servers are in tests/browser/conftest.py."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from tests.helpers import ARTIFACTS, ROOT, quiet, run_cli
from tests.support import launch_options, start_site_build

# What a test costs is the folder it is in (docs/architecture.md, "Tests by tier"); each is a marker of that name.
TIERS = ("unit", "pyodide", "integration", "browser")


def tier(item) -> str:
    """The test's tier, the first folder of its path under tests/:

    - `unit`: no Pyodide, no browser, no process but one: the one judge (frontend/src/judge.js) in a small Node
      process a test process starts once (loopcraft/running/judging.py), which judges the `in_process_runners` fixture's
      outcomes (they run the code in this process); a class's pages bundle their script with esbuild only when
      frontend/ changed since the build cache kept it. `make test-unit`, with the `node --test` tests of tests/js/;
    - `pyodide`: the sandbox, in real Pyodide under Node: the hostile corpus, the runner, resets, time limits, the
      page's agreement with the command line; what a change to the grader or the worker must prove again. With
      the unit tests, `make test-fast`;
    - `integration`: the authoring checks in Pyodide, the build's Node work, the classroom's commands run as
      processes or whole (a class of hostile hand-ins, job arrays merged), the benchmark's runs and second proofs:
      only `make test`;
    - `browser`: drives the built site in Chromium: only `make test`.

    A test file anywhere else is refused: it would belong to no loop."""
    parts = item.path.relative_to(ROOT / "tests").parts
    if len(parts) < 2 or parts[0] not in TIERS:
        raise pytest.UsageError(f"{item.path}: a test file belongs in one of tests/{', tests/'.join(TIERS)}")
    return parts[0]


def pytest_collection_modifyitems(config, items):
    """Every test gets its tier's marker (`tier`). Browser tests go last, so that the others keep both cores busy
    while the site they share is built (see `_site_build`)."""
    for item in items:
        item.add_marker(tier(item))
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


@pytest.fixture(scope="session", autouse=True)
def _verdict_key(tmp_path_factory):
    """The class commands' default verdict key (loopcraft/classroom/signing.py) in a folder of the session's, for
    this process and the commands it starts: never one made in the home of whoever runs the tests."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
        yield


@pytest.fixture
def pyodide_runner(runners):
    """A fresh runner (real Pyodide under Node) lent by the session's `runners` for one test: Pyodide takes a
    CPU-second to start, and the tests that grade through the command line borrow the same one."""
    from loopcraft.course.project import Project

    with runners.lent(Project()) as runner:
        yield runner


def _runners(kind: str):
    from loopcraft.running.grading import Runners

    with Runners(kind) as pool:
        yield pool


@pytest.fixture(scope="session")
def runners():
    """Fresh runners (real Pyodide under Node) lent to the gradings a test runs in this process
    (loopcraft.running.grading.Runners, tests.helpers.run_grader): each starts once a session, not once a command. For
    tests of the sandbox, of time limits, of the page's agreement with the command line, and of any submission
    that loops, escapes or must be kept in."""
    yield from _runners("fresh")


@pytest.fixture(scope="session")
def restored_runners():
    """Runners whose every submission's interpreter is restored from the snapshot, never reset in place: for tests
    that resets grade exactly as restores do."""
    yield from _runners("restored")


@pytest.fixture(scope="session")
def author_runners():
    """Trusted runners lent to the author's commands a test runs in this process (`author_cli`, and fixtures that
    check a course once): the course copies' own solutions, mutants, scenarios and lessons, which share a runner's
    interpreter as an author's check does. One start a session, not one a command."""
    yield from _runners("trusted")


@pytest.fixture
def author_cli(capsys, author_runners):
    """`python build.py ARGV...` in this process, borrowing the session's trusted runners: author_cli(*argv) gives
    the exit code, stdout and stderr."""
    return functools.partial(run_cli, capsys, runners=author_runners)


@pytest.fixture(scope="session")
def in_process_runners():
    """Trusted runners (loopcraft/running/runners.py: the grader run in this process, no time limit, no sandbox) lent the
    same way: for tests of what we do with verdicts, whose graded code is the course's own or fixtures we wrote."""
    yield from _runners("in-process")


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
