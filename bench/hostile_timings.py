"""How long each solution of the hostile corpus (tests/hostile/) takes in Chromium, from pressing Run to the
run's end, on a cross-origin isolated server (interrupts) and a plain one (worker restarts).

    .venv/bin/python bench/hostile_timings.py                   # builds the site into a temporary folder
    .venv/bin/python bench/hostile_timings.py --site site/      # or times an already built site

Prints a Markdown table for docs/hostile.md. Each server gets one page of a returning learner's browser (the
site kept its memory snapshot of Python), as in tests/browser/test_hostile.py, so a time includes any new
interpreter or worker the run needed but never the page's own start (reported on its own line).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: this repository's packages

from playwright.sync_api import sync_playwright  # noqa: E402

from loopcraft.course.load import find_exercise  # noqa: E402
from loopcraft.course.project import INSTALL as ROOT  # noqa: E402
from tests import hostile_corpus  # noqa: E402
from tests.browser.conftest import ReturningBrowser  # noqa: E402
from tests.browser.test_hostile import Learner  # noqa: E402
from tests.browser.test_learner import open_challenge  # noqa: E402
from tests.support import build_site, launch_options, serve, stop  # noqa: E402

SERVERS = {"isolated": True, "plain": False}
LIMIT_S = find_exercise(ROOT, hostile_corpus.SLUG).time_limit_seconds  # the challenge's own, as learners have it


def verdict(result: dict) -> str:
    statuses = sorted({t["status"] for t in result["tests"]}, key=["pass", "fail", "error", "timeout"].index)
    return f"{result['status']} ({', '.join(statuses)})"


def open_learner(browser, url: str, folder: Path):
    """(a Learner on the corpus's challenge, its context, seconds the page took to open until Python was ready), in
    the tests' returning learner's browser: the site's snapshot kept, pages quiet (no background work while runs
    are timed)."""
    returning = ReturningBrowser(browser, {"service_workers": "block"}, [url])
    page = returning.open_kept_page()
    page.set_default_timeout(60_000)
    learner = Learner(page, folder)
    page.on("dialog", lambda dialog: (learner.dialogs.append(dialog.message), dialog.dismiss()))
    started = time.monotonic()
    open_challenge(page, url, hostile_corpus.SLUG)
    return learner, returning.context, time.monotonic() - started


def measure(site: Path, corpus: list[hostile_corpus.Hostile], folder: Path):
    """{server: {item name: (verdict, seconds, matches the corpus)}} and {server: seconds to open the page}."""
    times: dict[str, dict] = {}
    loads: dict[str, float] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**launch_options())
        for server, isolation in SERVERS.items():
            httpd, url = serve(site, isolation)
            learner, context, loads[server] = open_learner(browser, url, folder)
            times[server] = {}
            for item in corpus:
                learner.load_file(item.name, item.source)
                result, _ = learner.run()
                seconds = learner.page.evaluate("window.__runEnd.ms") / 1000
                try:
                    hostile_corpus.check(item, result["tests"], LIMIT_S)
                    matches = True
                except AssertionError:
                    matches = False
                times[server][item.name] = (verdict(result), seconds, matches)
                print(f"{server:8} {item.name:28} {seconds:6.1f} s  {verdict(result)}", file=sys.stderr)
            context.close()
            stop(httpd)
        browser.close()
    return times, loads


def table(corpus, times, loads) -> str:
    lines = ["| item | verdict | isolated | plain |", "| --- | --- | ---: | ---: |"]
    for item in corpus:
        (iso_verdict, iso, iso_ok), (plain_verdict, plain, plain_ok) = (
            times["isolated"][item.name],
            times["plain"][item.name],
        )
        shown = iso_verdict if iso_verdict == plain_verdict else f"{iso_verdict} / plain: {plain_verdict}"
        if not (iso_ok and plain_ok):
            shown += " **not what the corpus expects**"
        lines.append(f"| `{item.name}` | {shown} | {iso:.1f} s | {plain:.1f} s |")
    lines.append(
        f"\nOpening the page until Python is ready: {loads['isolated']:.1f} s isolated, {loads['plain']:.1f} s plain."
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one into a temporary folder)")
    args = parser.parse_args()
    corpus = [item for item in hostile_corpus.load() if item.browser]
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            build_site(site)
        times, loads = measure(site.resolve(), corpus, Path(tmp))
    print(table(corpus, times, loads))


if __name__ == "__main__":
    main()
