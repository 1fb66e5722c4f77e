"""The snapshot of Python the site ships (loopcraft/site/snapshot.py, frontend/src/worker.js): a first visit restores it
instead of booting Python, and grades as a boot would; one that fails its hash (a host that damaged it, a tampered
copy in the service worker's cache) is never a broken page: the page boots Python as before and says so in the
console, and the service worker still caches the course."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_learner import CEL, open_challenge, run_and_wait
from tests.browser.test_offline import CACHED, PLANT, served
from tests.helpers import SNAPSHOTS_KEPT, quiet, wait_for_snapshot
from tests.support import FIRST_VISIT_START, SNAPSHOT_REFUSED, refuse_snapshot

SLOW_MS = 120_000
REFUSED = "Python starts without the site's memory snapshot"  # the worker's warning (worker.js, discard)
# The snapshot's request as the worker's resource timing saw it: bytes on the wire and as read.
SNAPSHOT_FETCH = """() => {
  const [entry] = performance.getEntriesByType("resource").filter((e) => /\\/py\\/snapshot-[0-9a-f]+\\.bin$/.test(e.name));
  return entry && { encoded: entry.encodedBodySize, decoded: entry.decodedBodySize };
}"""
# The size of the service worker's copy of a file, or null.
CACHED_SIZE = """async (url) => {
  const cache = await caches.open((await caches.keys()).find((name) => name.startsWith("loopcraft-site-")));
  const hit = await cache.match(url);
  return hit ? (await hit.arrayBuffer()).byteLength : null;
}"""


@pytest.fixture(scope="module")
def damaged_site(built_site: Path, tmp_path_factory) -> Path:
    """The built site, its shipped snapshot damaged as a host might leave it (its other files are links to the
    built site's)."""
    site = tmp_path_factory.mktemp("damaged") / "site"
    shutil.copytree(built_site, site, copy_function=os.link)
    if not SNAPSHOT_REFUSED:  # damaged already otherwise
        refuse_snapshot(site)
    return site


def warnings_of(page: Page) -> list[str]:
    """The console warnings of `page` and its workers, as they come."""
    seen: list[str] = []
    page.on("console", lambda message: message.type == "warning" and seen.append(message.text))
    return seen


def solve(page: Page) -> None:
    page.get_by_test_id("upload").set_input_files(CEL / "solution.py")
    assert set(run_and_wait(page).values()) == {"pass"}


@pytest.mark.first_visit
def test_a_first_visit_restores_python_from_the_snapshot_the_site_ships(page: Page, isolated_url: str, built_site):
    warnings = warnings_of(page)
    open_challenge(page, isolated_url, "consecutive-error-limit")
    assert page.locator("body").get_attribute("data-python-start") == FIRST_VISIT_START
    solve(page)
    if SNAPSHOT_REFUSED:
        assert any(REFUSED in warning for warning in warnings)
        return
    assert not [warning for warning in warnings if "snapshot" in warning]
    # Sent precompressed, as the build made it: a third of its bytes.
    worker = next(w for w in page.workers if "/assets/worker.js" in w.url)
    fetched = worker.evaluate(SNAPSHOT_FETCH)
    (snapshot,) = built_site.glob("py/snapshot-*.bin")
    assert fetched == {
        "encoded": snapshot.with_name(snapshot.name + ".br").stat().st_size,
        "decoded": snapshot.stat().st_size,
    }


def test_a_snapshot_that_fails_its_hash_is_refused_and_python_boots_saying_so(browser: Browser, damaged_site: Path):
    # A browser new to the site, its service worker allowed: the course must still work offline, from a Python of its
    # own (the snapshot is left out of the service worker's cache rather than failing its install).
    with served(browser, damaged_site, isolation=True) as (_, base, context):
        page = context.new_page()
        warnings = warnings_of(page)
        open_challenge(page, base, "consecutive-error-limit")
        assert page.locator("body").get_attribute("data-python-start") == "missing"
        assert any(REFUSED in warning for warning in warnings), warnings
        wait_for_snapshot(page)  # its own, kept as Python booted
        solve(page)
        page.evaluate(CACHED)
        (snapshot,) = damaged_site.glob("py/snapshot-*.bin")
        assert page.evaluate(CACHED_SIZE, base + f"py/{snapshot.name}") is None
        # The next page restores the snapshot this browser kept.
        page.reload()
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        assert page.locator("body").get_attribute("data-python-start") == "restored", warnings


def test_a_tampered_copy_in_the_service_workers_cache_is_never_restored(browser: Browser, built_site: Path):
    (snapshot,) = built_site.glob("py/snapshot-*.bin")
    with served(browser, built_site, isolation=True) as (_, base, context):
        page = context.new_page()
        open_challenge(page, base, "consecutive-error-limit")
        page.evaluate(CACHED)
        # The copy the service worker cached replaced, and this browser's own copy dropped: the next page has only
        # the service worker's to restore, which drops it, and fetches the build's again.
        url = base + f"py/{snapshot.name}"
        page.evaluate(PLANT, [url, "not a snapshot"])
        page.evaluate("() => caches.delete('loopcraft-snapshot')")
        quiet(context)  # and keeps none of its own this time
        page.reload()
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=SLOW_MS)
        assert page.locator("body").get_attribute("data-python-start") == FIRST_VISIT_START
        assert page.evaluate(SNAPSHOTS_KEPT) == 0
        assert page.evaluate(CACHED_SIZE, url) == (None if SNAPSHOT_REFUSED else snapshot.stat().st_size)
        solve(page)
