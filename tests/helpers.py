"""Helpers shared by tests."""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from loopcraft.classroom.gradescope import spec_cut_to
from tests.support import ROOT

FIXTURES = ROOT / "tests" / "fixtures"  # course copies, projects and submissions the tests read
GOLDEN = ROOT / "tests" / "golden"  # golden files: LOOPCRAFT_REGEN_GOLDEN=1 rewrites them (check_golden)
ARTIFACTS = ROOT / "test-results"  # screenshots and console logs of failed browser tests
REGEN = os.environ.get("LOOPCRAFT_REGEN_GOLDEN") == "1"
# The pages' switch for background work (frontend/src/page-session.js, BACKGROUND_KEY), set before any page runs;
# a document without storage of its own (about:blank) has nothing to set, and must not throw for it.
QUIET = "try { localStorage.setItem('loopcraft.background', 'off'); } catch {}"


def rewrite_pages(page, address, edit) -> None:
    """Pages `page` opens at `address` (a Playwright URL pattern) from now on get what the server sent, headers and
    all, with its text passed through `edit(text) -> text`."""

    def rewrite(route):
        response = route.fetch()
        route.fulfill(response=response, body=edit(response.text()))

    page.route(address, rewrite)


# A page of the site: its address ends in a slash (then maybe a query); its assets end in a file name.
PAGE_ADDRESS = re.compile(r"/(\?[^/]*)?$")


def serve_time_limit(page, seconds: float) -> None:
    """Pages `page` opens from now on give each case (or live block) `seconds`, not the author's limit: for tests of
    what comes of a loop at the limit, not of the limit's value, where every loop costs the whole limit in CPU time.
    A page takes its limit from its data (the index has none), so this rewrites only that."""
    limit = f'"time_limit_seconds": {seconds}'
    rewrite_pages(page, PAGE_ADDRESS, lambda html: re.sub(r'"time_limit_seconds": [0-9.]+', limit, html))


WORKER_SCRIPT = "**/assets/worker.js*"  # the script of Python's worker, as a Playwright URL pattern


def without_python(page) -> None:
    """Pages `page` opens from now on never start Python: their worker's script arrives as the server sent it, headers
    and all, but empty, so the page says "Loading Python…" for good. For tests of what a page does without Python
    (editing, saving, hints, themes, tabs), which would otherwise pay for a start they never use: 0.4 CPU-s in
    Chromium for a page left at once, 1.2 for one left open. `page.unroute(WORKER_SCRIPT)` ends it."""
    page.route(WORKER_SCRIPT, lambda route: route.fulfill(response=route.fetch(), body="// no Python here\n"))


SNAPSHOTS_KEPT = """async () => (await (await caches.open("loopcraft-snapshot")).keys()).length"""


def wait_until(page, script: str, arg=None, *, timeout_ms: int = 120_000, what: str = "the page's state"):
    """Wait until `script` (a function evaluated in the page, given `arg`) returns something true, and return it:
    a wait on the page's state, never a fixed sleep. Polled from here every 200 ms: the site's CSP refuses the string
    evaluation `wait_for_function` would need, and polling on every frame slows a busy page."""
    for _ in range(timeout_ms // 200):
        found = page.evaluate(script, arg)
        if found:
            return found
        page.wait_for_timeout(200)
    raise AssertionError(f"{what} was not reached within {timeout_ms} ms")


def wait_for_snapshot(page, timeout_ms: int = 120_000) -> None:
    """Wait until the page has kept its memory snapshot of Python: from then on a restarted worker restores Python
    instead of booting it."""
    wait_until(page, SNAPSHOTS_KEPT, timeout_ms=timeout_ms, what="a kept memory snapshot")


def quiet(context):
    """`context`, its pages making no memory snapshot and doing no offline caching: a test that opens a page or two
    would pay a second Python start (about 2 s of CPU in Chromium) for a snapshot nobody uses."""
    context.add_init_script(QUIET)
    return context


def quiet_context(browser, **options):
    """A new browser context, quiet (see `quiet`)."""
    return quiet(browser.new_context(**options))


def make_project(parent: Path, exercises: Path) -> Path:
    """A project to build in `parent`/project: tests/fixtures/project (templates, front end stand-ins), a copy of the
    grader and of `exercises`, and the repository's node_modules for esbuild and Pyodide."""
    # No skip without node_modules: the suite must fail loudly when set-up is incomplete.
    assert (ROOT / "node_modules/.bin/esbuild").exists(), "node_modules missing: run `npm ci` (make setup)"
    root = parent / "project"
    shutil.copytree(FIXTURES / "project", root)
    # The real grader, copied: a test may edit the project's copy, and the project's runner loads it (`--root`).
    shutil.copytree(ROOT / "grader", root / "grader", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(exercises, root / "exercises")
    (root / "node_modules").symlink_to(ROOT / "node_modules")
    return root


def course_copy(
    parent: Path, slugs: list[str], time_limit: float | None = None, track_slug: str = "build-an-agent"
) -> Path:
    """A project root in `parent`/course whose only track holds these challenges of the track `track_slug` (with the
    track's shared sandboxes), each given `time_limit` seconds a case if set: for tests of what comes of a loop, not of
    the limit's value, and that grade a class without paying for the whole course. `--root` takes it."""
    track = ROOT / "exercises" / track_slug
    root = parent / "course"
    copy = root / "exercises" / track.name
    copy.mkdir(parents=True)
    for shared in track.glob("*.py"):
        shutil.copy(shared, copy)
    listed = "".join(f"  - {slug}\n" for slug in slugs)
    (copy / "track.yaml").write_text(f"title: A copy\nsummary: Part of {track_slug}.\nchallenges:\n{listed}")
    for slug in slugs:
        shutil.copytree(track / slug, copy / slug)
        spec = copy / slug / "exercise.yaml"
        spec.write_text(spec_cut_to(spec, slugs), encoding="utf-8")  # as the autograder zip cuts it
        if time_limit is not None:
            text, found = re.subn(
                r"(?m)^time_limit_seconds: .*$", f"time_limit_seconds: {time_limit}", spec.read_text()
            )
            assert found == 1, f"{slug} names no time limit of its own"
            spec.write_text(text)
    return root


def check_golden(path: Path, text: str) -> None:
    """Compare with a golden file; LOOPCRAFT_REGEN_GOLDEN=1 rewrites it instead."""
    if REGEN or not path.exists():
        path.write_text(text, encoding="utf-8")
        if not REGEN:
            pytest.fail(f"{path} did not exist and was written; review and commit it")
        return
    assert text == path.read_text(encoding="utf-8"), f"{path} differs; run with LOOPCRAFT_REGEN_GOLDEN=1 to accept"


def run_cli(capsys: pytest.CaptureFixture, *argv: str, runners=None) -> tuple[int, str, str]:
    """`python build.py ARGV...` in this process: its exit code, stdout and stderr (tests use it through the
    `author_cli` fixture, which lends it the session's trusted runners)."""
    from loopcraft.commands import main

    code = main(list(argv), prog="build.py", default="build", runners=runners)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_grader(runners, *argv) -> subprocess.CompletedProcess:
    """`python -m grader ARGV...` run in this process, grading in `runners` (the session's `runners` or
    `in_process_runners`, tests/conftest.py): what the process would give, its exit code, stdout and stderr (UTF-8, as
    the command's are here). For what only a process shows (the status `python -m` exits with, a stream's encoding, a
    defence whose failure would hang or fill the process) tests run the real one; the others run it here, sparing a
    Python start and a runner start each time."""
    from loopcraft.commands import main

    streams = [io.TextIOWrapper(io.BytesIO(), encoding="utf-8") for _ in range(2)]
    with contextlib.redirect_stdout(streams[0]), contextlib.redirect_stderr(streams[1]):
        try:
            code = main([str(arg) for arg in argv], prog="python -m grader", default="grade", runners=runners)
        except SystemExit as exc:  # argparse refusing the arguments
            code = exc.code
    for stream in streams:
        stream.flush()
    out, err = (stream.buffer.getvalue().decode("utf-8") for stream in streams)
    return subprocess.CompletedProcess(["python", "-m", "grader", *map(str, argv)], code, out, err)


def grader_process(*argv, **options) -> subprocess.CompletedProcess:
    """`python -m grader ARGV...` as a process of its own, run from the repository, its output as text."""
    command = [sys.executable, "-m", "grader", *map(str, argv)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900, **options)


@functools.cache
def the_course() -> tuple:
    """The repository's tracks as `load_course` reads them, once a process and through the build cache (parsing
    every YAML file takes two CPU-seconds): for tests that only read them."""
    from loopcraft.course.cache import BuildCache
    from loopcraft.course.load import load_course

    return tuple(load_course(ROOT, cache=BuildCache(ROOT)))


FIRST_TRACK = 'section.track[data-track="build-an-agent"]'  # the first course's part of the index


def the_track(slug: str = "build-an-agent"):
    """One track of the repository's course (`the_course`), the first course unless named."""
    return next(track for track in the_course() if track.slug == slug)


def cases_of(slug: str, *, page: bool = True):
    """The cases of a challenge of the course: those its page runs (private ones are never published), or all."""
    from loopcraft.course.load import find_exercise

    cases = find_exercise(ROOT, slug).cases
    return [c for c in cases if not c.private] if page else cases


def feedback_page(out: Path, learner: str) -> Path:
    """The feedback page of `learner` in a class's OUT folder, as gradebook.csv names it."""
    import csv

    with (out / "gradebook.csv").open(encoding="utf-8", newline="") as f:
        pages = {row["learner"]: row["feedback page"] for row in csv.DictReader(f)}
    return out / "feedback" / pages[learner]


def inert_problems(html: str) -> list[str]:
    """What would let a page handed back through an LMS run or load anything (issue 51: Canvas attaches a feedback
    page to a comment, Moodle serves it from its own site): a <script>, an element that embeds or submits, an
    on* attribute, a javascript: URL, a policy missing or other than the feedback pages' (checked as a browser
    reads the HTML, entities decoded)."""
    from html.parser import HTMLParser

    from loopcraft.classroom.pages import FEEDBACK_POLICY

    problems, policies = [], []

    class Walk(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if tag in ("script", "iframe", "frame", "object", "embed", "form", "base", "link", "img", "svg"):
                if not (tag == "link" and dict(attrs).get("href", "").startswith("data:image/svg+xml,")):
                    problems.append(f"<{tag}>")
            for name, value in attrs:
                if name.startswith("on"):
                    problems.append(f"<{tag} {name}>")
                if re.sub(r"[\x00-\x20]", "", value or "").lower().startswith(("javascript:", "vbscript:")):
                    problems.append(f"<{tag} {name}={value!r}>")
            if tag == "meta" and dict(attrs).get("http-equiv", "").lower() == "content-security-policy":
                policies.append(dict(attrs)["content"])

    Walk(convert_charrefs=True).feed(html)
    if policies != [FEEDBACK_POLICY]:
        problems.append(f"policies {policies}")
    return problems


# tests/leave_traces/: pairs of submissions of this challenge (see its README).
LEAVE_TRACES_SLUG = "consecutive-error-limit"


def leave_trace_pairs() -> dict[str, tuple[str, str]]:
    """Each file of tests/leave_traces/ as (leaver, probe): its two parts, each in front of the reference solution."""
    reference = (ROOT / "exercises" / "build-an-agent" / LEAVE_TRACES_SLUG / "solution.py").read_text(encoding="utf-8")
    found = {}
    for path in sorted((ROOT / "tests" / "leave_traces").glob("*.py")):
        leaver, probe = path.read_text(encoding="utf-8").split("# --- probe ---\n")
        found[path.stem] = (leaver + "\n\n" + reference, probe + "\n\n" + reference)
    return found
