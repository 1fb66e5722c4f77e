"""What the service worker's check of every cached file against the build's SHA-256 costs an offline page load.

    .venv/bin/python bench/sw_integrity.py [--loads 8] [--site site/]

Two copies of one site, side by side in one browser: the build's, and a copy whose service worker serves cached
files unchecked (the baseline; the bundle's check is cut out of it here, for this measurement only). Each gets one
visit online (the service worker caches the site), a few idle seconds (the snapshot of Python is made), then the
network goes and the challenge page is reloaded `--loads` times, the two copies in turn, timing each reload until
Python is ready (the status line says so). Prints the medians and their ratio.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: this repository's packages

from playwright.sync_api import sync_playwright  # noqa: E402

from loopcraft.course.project import INSTALL as ROOT  # noqa: E402
from tests.support import launch_options, serve, stop  # noqa: E402

CHALLENGE = "build-an-agent/repeat-guard/"
# In the minified bundle: `if(await intact(url.href,hit))return hit;`
CHECK = re.compile(r"if\(await (\w+)\((\w+)\.href,(\w+)\)\)return (\3);")
READY = '[data-testid="status"][data-state="ready"]'
# The check's own work, timed in the page: every cached file read, then read and hashed as the worker does.
HASHING = """async () => {
  const cache = await caches.open((await caches.keys()).find((name) => name.startsWith("loopcraft-site-")));
  const requests = await cache.keys();
  const time = async (hash) => {
    const started = performance.now();
    for (const request of requests) {
      const bytes = await (await cache.match(request)).arrayBuffer();
      if (hash) await crypto.subtle.digest("SHA-256", bytes);
    }
    return performance.now() - started;
  };
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push([await time(false), await time(true)]);
  return { files: requests.length, runs };
}"""
CONTROLLED = (
    "async () => { await navigator.serviceWorker.ready; while (!navigator.serviceWorker.controller) "
    "await new Promise((r) => setTimeout(r, 100)); }"
)


def unchecked_copy(site: Path, into: Path) -> Path:
    shutil.copytree(site, into, symlinks=True)
    sw = into / "sw.js"
    text, count = CHECK.subn(r"return \3;", sw.read_text())
    if count != 1:
        sys.exit("cannot find the service worker's check in sw.js: update CHECK in bench/sw_integrity.py")
    sw.unlink()  # a link to the build's file, maybe
    sw.write_text(text)
    for copy in (into / "sw.js.br", into / "sw.js.gz"):
        copy.unlink(missing_ok=True)
    return into


def measure(sites: dict[str, Path], loads: int) -> tuple[dict[str, list[float]], dict]:
    servers = {name: serve(site, isolation=True) for name, site in sites.items()}
    times: dict[str, list[float]] = {name: [] for name in sites}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**launch_options())
        contexts = {name: browser.new_context(service_workers="allow") for name in sites}
        pages = {}
        for name, context in contexts.items():
            page = pages[name] = context.new_page()
            page.goto(servers[name][1] + CHALLENGE)
            page.wait_for_selector(READY, timeout=180_000)
            page.evaluate(CONTROLLED)
        time.sleep(10)  # the snapshot of Python is made after a second of idle time
        for name, context in contexts.items():
            context.set_offline(True)
            stop(servers[name][0])
        for _ in range(loads):
            for name, page in pages.items():
                started = time.perf_counter()
                page.reload()
                page.wait_for_selector(READY, timeout=180_000)
                times[name].append(time.perf_counter() - started)
        hashing = pages["checked"].evaluate(HASHING)
        browser.close()
    return times, hashing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one into a temporary folder)")
    parser.add_argument("--loads", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            subprocess.run(
                [sys.executable, "build.py", "build", "--no-verify", "--out", str(site)],
                cwd=ROOT,
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        sites = {"checked": site.resolve(), "unchecked (baseline)": unchecked_copy(site, Path(tmp) / "unchecked")}
        times, hashing = measure(sites, args.loads)
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        print(f"{name:22} median {medians[name] * 1000:7.0f} ms  ({', '.join(f'{v * 1000:.0f}' for v in values)})")
    checked, baseline = medians["checked"], medians["unchecked (baseline)"]
    print(
        f"offline reload until Python is ready: checked / unchecked = {checked / baseline:.2f}x "
        f"({(checked - baseline) * 1000:+.0f} ms)"
    )
    read = statistics.median(r for r, _ in hashing["runs"])
    hashed = statistics.median(h for _, h in hashing["runs"])
    print(f"all {hashing['files']} cached files: read {read:.0f} ms, read and hashed {hashed:.0f} ms (median of 5)")


if __name__ == "__main__":
    main()
