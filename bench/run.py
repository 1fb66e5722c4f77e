#!/usr/bin/env python3
"""Loopcraft's benchmark: a challenge page against the floor (a bare page whose module worker loads the same
Pyodide files from the same server and runs `1+1`), side by side in one run, in headless Chromium.

    .venv/bin/python bench/run.py            the full run (several minutes)
    .venv/bin/python bench/run.py --quick    one context, one network, two small builds (what the tests run)

The machine may be shared, so every goal is a ratio of two numbers measured in the same run. Times are
medians over fresh browser contexts (a fresh context is a first visit: empty caches, no service worker), of two
kinds: incognito-like contexts (Playwright's `new_context`, which keep nothing on disk) and profiles kept on disk (a
persistent context in a folder of its own, as a learner's browser is). A first visit restores the snapshot of Python
the site ships; a second visit, the page opened again in the same context once the first has let the service worker
cache the site. Beside the floor, the restore floor (bench/floor/restore-worker.js): a bare page whose worker only
restores the snapshot the site ships and runs `1+1`, visited twice in one context, so that a second visit's time
can be read against what restoring that snapshot takes at all. From the second visit, the next page by the pager's
course link, which the navigation brings in with the Python already running (frontend/src/navigate.js): timed from
the click to Python ready on it. The site is built with --no-verify (solutions are
not run: that does not change the pages), and so are the generated courses of the build benchmark. Prints a table and writes bench/results/latest.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: this repository's packages

from loopcraft.course.project import INSTALL as ROOT  # noqa: E402
from loopcraft.site.serve import SiteHandler, SiteServer  # noqa: E402
from tests import support  # noqa: E402

CHALLENGE = "build-an-agent/parse-action-contract"
MBIT = 1_000_000 / 8
NETWORKS = {  # name: DevTools emulation (None: as fast as the local server goes)
    "unthrottled": None,
    "100mbit": {"downloadThroughput": 100 * MBIT, "uploadThroughput": 100 * MBIT, "latency": 20},
    "25mbit": {"downloadThroughput": 25 * MBIT, "uploadThroughput": 25 * MBIT, "latency": 20},
}
CORE = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]
TIMEOUT_MS = 120_000
# Playwright polls a condition on every animation frame by default: on a page with an editor, that alone took
# hundreds of milliseconds of CPU from Pyodide's start-up. The times come from the page itself (PROBE), so
# polling less often does not change them.
POLL_MS = 200
# What each round measures, in ms from navigation start (bytes: as the server sent them). kept_*: in a profile kept on
# disk; the others in incognito-like contexts. next_page: from a click on a course link to Python ready on that page.
ROWS = [
    "floor",
    "restore_floor_first",
    "restore_floor",
    "kept_restore_floor",
    "editor",
    "ready",
    "first_verdict",
    "second_visit",
    "closed_early",
    "kept_ready",
    "kept_second_visit",
    "next_page",
    "kept_next_page",
    "rerun",
    "floor_bytes",
    "bytes",
    "kept_bytes",
]

# Timestamps taken in the page (performance.now(), from navigation start), so polling adds no delay.
PROBE = """
(() => {
  const t = (window.__bench = {});
  const runAtOnce = %s;
  new MutationObserver(() => {
    const editor = document.querySelector('.cm-content[contenteditable="true"]');
    const status = document.querySelector('[data-testid="status"]');
    if (editor && t.editor === undefined) {
      t.editor = performance.now();
      if (runAtOnce) document.querySelector('[data-testid="run"]').click();
    }
    if (status && status.dataset.state === "ready") {
      if (t.ready === undefined && !status.dataset.outcome) {
        t.ready = performance.now();
        window.__benchAtReady?.();
      }
      if (t.verdict === undefined && status.dataset.outcome) t.verdict = performance.now();
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
})();
"""

RERUN = """async () => {
  const status = document.querySelector('[data-testid="status"]');
  const t0 = performance.now();
  document.querySelector('[data-testid="run"]').click();
  await new Promise((resolve) => {
    const check = () => status.dataset.state === "ready" && status.dataset.outcome && (observer.disconnect(), resolve());
    const observer = new MutationObserver(check);
    observer.observe(status, { attributes: true });
    check();
  });
  return { ms: performance.now() - t0, outcome: status.dataset.outcome };
}"""

# The next page from a course link (the pager's), brought in by the navigation (frontend/src/navigate.js): ms from the
# click until that page says Python is ready, and how its Python started ("kept": the worker of the page before).
NEXT_PAGE = """async () => {
  const before = document.querySelector('[data-testid="status"]');
  const t0 = performance.now();
  document.querySelector('.pager-next').click();
  await new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const status = document.querySelector('[data-testid="status"]');
      if (status && status !== before && status.dataset.state === "ready") observer.disconnect(), resolve();
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true });
  });
  return { ms: performance.now() - t0, start: document.body.dataset.pythonStart };
}"""

# Waits until 1 s after the page said Python is ready, timed in the page.
CLOSE_AFTER_READY = """async () => {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, window.__bench.ready + 1000 - performance.now())));
}"""

# The service worker has cached the whole site (it is active only once it has) and controls the page. A page's own
# snapshot of Python (its copy of the one the site ships) is not waited for.
OFFLINE_READY = """async () => {
  await navigator.serviceWorker.ready;
  while (!navigator.serviceWorker.controller) await new Promise((r) => setTimeout(r, 100));
}"""


class CountingHandler(SiteHandler):
    """serve.py's handler (precompressed files, COOP/COEP), counting the bytes it sends."""

    counter = {"bytes": 0}
    lock = threading.Lock()

    def setup(self):
        super().setup()
        raw, counter, lock = self.wfile, self.counter, self.lock

        class Counting:
            def write(self, data):
                with lock:
                    counter["bytes"] += len(data)
                return raw.write(data)

            def __getattr__(self, name):
                return getattr(raw, name)

        self.wfile = Counting()


def serve(site: Path) -> tuple[SiteServer, str]:
    handler = partial(CountingHandler, directory=str(site), isolation=True, quiet=True, live=None)
    server = SiteServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def phases(page, ready: float) -> dict:
    """Where a page's Python start went, in ms, as its worker measured it (worker-core.js, boot), and `page`: the rest
    of the time to ready (the page and its worker script fetched, the worker made, messages between them)."""
    measured = json.loads(page.evaluate("document.body.dataset.pythonPhases"))
    return measured | {"page": round(ready - sum(measured.values()))}


class Pages:
    def __init__(self, playwright, browser, base: str):
        self.playwright, self.browser, self.base = playwright, browser, base

    @contextmanager
    def incognito(self):
        context = self.browser.new_context()
        try:
            yield context
        finally:
            context.close()

    @contextmanager
    def kept_profile(self):
        """A browser profile kept on disk, new: a Chromium of its own, as a learner's with its disk caches."""
        with tempfile.TemporaryDirectory(prefix="loopcraft-profile-") as folder:
            context = self.playwright.chromium.launch_persistent_context(folder, **support.launch_options())
            try:
                yield context
            finally:
                context.close()

    def _page(self, context, network):
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        if network:
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", {"offline": False, **network})
        return page

    def _floor_visit(self, context, network, query: str = "") -> float:
        page = self._page(context, network)
        page.goto(self.base + "bench-floor/index.html" + query)
        page.wait_for_function("() => window.floor !== undefined", polling=POLL_MS)
        assert page.evaluate("window.floor.result") == 2
        ready = page.evaluate("window.floor.readyMs")
        page.close()
        return ready

    def floor(self, network) -> tuple[float, int]:
        context = self.browser.new_context()
        try:
            CountingHandler.counter["bytes"] = 0
            return self._floor_visit(context, network), CountingHandler.counter["bytes"]
        finally:
            context.close()

    def restore_floor(self, context, network, snapshot: str) -> tuple[float, float]:
        """The restore floor in `context`, new (bench/floor/restore-worker.js: a bare page restoring the snapshot the
        site ships, py/SNAPSHOT), visited twice: its times to Python ready on the first visit and the second."""
        query = f"?snapshot={snapshot}"
        return self._floor_visit(context, network, query), self._floor_visit(context, network, query)

    def challenge(self, context, network, solution: str, *, reruns: int) -> dict:
        """In `context`, new: a first visit (editor, Python ready, how it started, bytes), a run, warm re-runs, then a
        second visit, and from it the next page by the pager's link."""
        context.add_init_script(PROBE % "false")
        # The bytes sent by the time the page said Python is ready, counted then and not at the next poll: its service
        # worker starts caching the whole site at that moment.
        sent_at_ready = []
        context.expose_function("__benchAtReady", lambda: sent_at_ready.append(CountingHandler.counter["bytes"]))
        page = self._page(context, network)
        CountingHandler.counter["bytes"] = 0
        page.goto(self.base + CHALLENGE + "/")
        page.wait_for_function("() => window.__bench.ready !== undefined", polling=POLL_MS)
        t = page.evaluate("window.__bench")
        start = page.evaluate("document.body.dataset.pythonStart")
        result = {"editor": t["editor"], "ready": t["ready"], "bytes": sent_at_ready[0], "start": start}
        page.set_input_files(
            '[data-testid="upload"]',
            files=[{"name": "solution.py", "mimeType": "text/x-python", "buffer": solution.encode()}],
        )
        page.wait_for_function(
            "() => document.getElementById('editor-note').textContent.startsWith('Loaded')", polling=POLL_MS
        )
        assert page.evaluate(RERUN)["outcome"] == "pass"
        page.evaluate(OFFLINE_READY)  # the service worker, which caches the site while the page is idle
        runs = [page.evaluate(RERUN) for _ in range(reruns)]
        assert all(r["outcome"] == "pass" for r in runs), runs
        result["rerun"] = median([r["ms"] for r in runs])
        page.close()
        page = self._page(context, network)
        page.goto(self.base + CHALLENGE + "/")
        page.wait_for_function("() => window.__bench.ready !== undefined", polling=POLL_MS)
        result["second_visit"] = page.evaluate("window.__bench.ready")
        result["second_visit_phases"] = phases(page, result["second_visit"])
        moved = page.evaluate(NEXT_PAGE)
        assert moved["start"] == "kept", moved
        result["next_page"] = moved["ms"]
        return result

    def closed_early(self, network) -> list:
        """A first visit closed 1 s after Python is ready (a learner who looks and leaves), then a second visit: its
        time to Python ready, how its Python started ("shipped": from the snapshot the site ships), and whether
        the service worker the first one registered was in control of it ("sw") or not yet ("network")."""
        context = self.browser.new_context()
        context.add_init_script(PROBE % "false")
        try:
            page = self._page(context, network)
            page.goto(self.base + CHALLENGE + "/")
            page.wait_for_function("() => window.__bench.ready !== undefined", polling=POLL_MS)
            page.evaluate(CLOSE_AFTER_READY)
            page.close()
            page = self._page(context, network)
            page.goto(self.base + CHALLENGE + "/")
            page.wait_for_function("() => window.__bench.ready !== undefined", polling=POLL_MS)
            return page.evaluate(
                "[window.__bench.ready, document.body.dataset.pythonStart,"
                " navigator.serviceWorker.controller ? 'sw' : 'network']"
            )
        finally:
            context.close()

    def first_verdict(self, network) -> float:
        context = self.browser.new_context()
        context.add_init_script(PROBE % "true")
        try:
            page = self._page(context, network)
            page.goto(self.base + CHALLENGE + "/")
            page.wait_for_function("() => window.__bench.verdict !== undefined", polling=POLL_MS)
            return page.evaluate("window.__bench.verdict")
        finally:
            context.close()


def browser_bench(site: Path, contexts: int, networks: list[str], reruns: int) -> dict:
    from playwright.sync_api import sync_playwright

    solution = (ROOT / "exercises" / CHALLENGE / "solution.py").read_text(encoding="utf-8")
    (snapshot,) = (path.name for path in site.glob("py/snapshot-*.bin"))
    server, base = serve(site)
    results = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**support.launch_options())
            pages = Pages(p, browser, base)
            for name in networks:
                network = NETWORKS[name]
                rows = {key: [] for key in ROWS}
                second_phases, kept_second_phases = [], []
                starts = {"first_visit": [], "kept_first_visit": [], "closed_early": []}
                served_by = []
                for _ in range(contexts):  # interleaved, so that a busy spell of the machine hits all alike
                    floor_ms, floor_bytes = pages.floor(network)
                    rows["floor"].append(floor_ms)
                    rows["floor_bytes"].append(floor_bytes)
                    with pages.incognito() as context:
                        first, second = pages.restore_floor(context, network, snapshot)
                    rows["restore_floor_first"].append(first)
                    rows["restore_floor"].append(second)
                    with pages.kept_profile() as context:
                        rows["kept_restore_floor"].append(pages.restore_floor(context, network, snapshot)[1])
                    with pages.incognito() as context:
                        visit = pages.challenge(context, network, solution, reruns=reruns)
                    for key in ("editor", "ready", "rerun", "second_visit", "next_page", "bytes"):
                        rows[key].append(visit[key])
                    second_phases.append(visit["second_visit_phases"])
                    starts["first_visit"].append(visit["start"])
                    with pages.kept_profile() as context:
                        visit = pages.challenge(context, network, solution, reruns=reruns)
                    for key in ("ready", "second_visit", "next_page", "bytes"):
                        rows[f"kept_{key}"].append(visit[key])
                    kept_second_phases.append(visit["second_visit_phases"])
                    starts["kept_first_visit"].append(visit["start"])
                    rows["first_verdict"].append(pages.first_verdict(network))
                    ms, start, served = pages.closed_early(network)
                    rows["closed_early"].append(ms)
                    starts["closed_early"].append(start)
                    served_by.append(served)
                results[name] = {key: median(values) for key, values in rows.items()}
                for key, samples in (
                    ("second_visit_phases", second_phases),
                    ("kept_second_visit_phases", kept_second_phases),
                ):
                    results[name][key] = {part: median([p[part] for p in samples if part in p]) for part in samples[0]}
                results[name]["samples"] = rows | {
                    "starts": starts,
                    "closed_early_served_by": served_by,
                    "second_visit_phases": second_phases,
                    "kept_second_visit_phases": kept_second_phases,
                }
                print(
                    f"  {name}: {json.dumps({k: v for k, v in results[name].items() if k != 'samples'})}",
                    file=sys.stderr,
                    flush=True,
                )
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return results


def build_site(out: Path) -> Path:
    site = support.build_site(out / "site", "--no-verify")
    shutil.copytree(ROOT / "bench/floor", site / "bench-floor")
    shutil.copy(ROOT / "frontend/src/snapshot-format.js", site / "bench-floor")  # for the restore floor
    return site


def build_bench(work: Path, sizes: list[int]) -> dict:
    from bench.generate import make_project, touch_one

    results = {}
    for n in sizes:
        project = make_project(work / f"gen-{n}", n)
        results[str(n)] = _timed_build(project)
        print(f"  build of {n} challenges: {results[str(n)]}", file=sys.stderr, flush=True)
    project = work / f"gen-{sizes[-1]}"
    touch_one(project)
    results["rebuild_one"] = _timed_build(project)
    return results


def _timed_build(project: Path) -> dict:
    """Build in a subprocess of its own, so its peak memory is its own."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench/generate.py"), "build", str(project)], capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(f"generated build failed:\n{done.stdout}{done.stderr}")
    return json.loads(done.stdout)


def goals(browser: dict, builds: dict, core_bytes: int) -> list[dict]:
    """The goals (issue 42's for Python's start, issue 54's for the second visit and the next page), each a limit on a ratio of this run's figures;
    a row without a limit is reported, not judged."""
    rows = []

    def goal(name, value, limit, unit="x"):
        met = None if limit is None else value <= limit
        rows.append({"goal": name, "value": round(value, 3), "limit": limit, "unit": unit, "met": met})

    for net, r in browser.items():
        floor = r["floor"]
        unthrottled = net == "unthrottled"
        goal(f"{net}: editor usable / floor ready", r["editor"] / floor, 0.15)
        goal(f"{net}: cold Python ready / floor ready", r["ready"] / floor, 0.6 if unthrottled else 1.0)
        goal(f"{net}: cold Python ready, kept profile / floor", r["kept_ready"] / floor, 0.6 if unthrottled else 1.0)
        goal(
            f"{net}: first verdict (Run at once) / floor ready", r["first_verdict"] / floor, 0.7 if unthrottled else 1.1
        )
        # What the snapshot itself allows: a bare page that only restores it, against the floor; and the page's
        # second visit against that page's (issue 54: the site's own cost on top of the restore, at most a tenth).
        goal(f"{net}: restore floor, first visit / floor ready", r["restore_floor_first"] / floor, None)
        goal(f"{net}: restore floor, second visit / floor ready", r["restore_floor"] / floor, None)
        goal(f"{net}: restore floor, second visit, kept profile / floor", r["kept_restore_floor"] / floor, None)
        goal(f"{net}: second visit / restore floor's", r["second_visit"] / r["restore_floor"], 1.1)
        goal(
            f"{net}: second visit, kept profile / restore floor's",
            r["kept_second_visit"] / r["kept_restore_floor"],
            1.1,
        )
        # The next page from a course link keeps the running Python (issue 54).
        goal(f"{net}: next page from a course link / floor ready", r["next_page"] / floor, 0.05)
        goal(f"{net}: next page from a course link, kept profile / floor", r["kept_next_page"] / floor, 0.05)
        if unthrottled:  # a second visit too: read against the restore, as the others (issue 54 retired 0.25x)
            goal(
                f"{net}: second visit, first closed 1 s after ready / restore floor's",
                r["closed_early"] / r["restore_floor"],
                1.1,
            )
        goal(f"{net}: warm re-run of all cases", r["rerun"], 50, "ms")
        goal(f"{net}: cold page transfer / floor transfer", r["bytes"] / r["floor_bytes"], None)
    if browser:
        first = next(iter(browser.values()))
        goal("cold page transfer / Pyodide core files (uncompressed)", first["bytes"] / core_bytes, None)
    sizes = sorted(int(k) for k in builds if k.isdigit())
    if len(sizes) >= 2:
        small, big = builds[str(sizes[0])], builds[str(sizes[-1])]
        goal(
            f"build time, {sizes[-1]} / {sizes[0]} challenges", big["seconds"] / small["seconds"], sizes[-1] / sizes[0]
        )
    if "rebuild_one" in builds:
        goal(f"rebuild after one YAML change ({sizes[-1]} challenges)", builds["rebuild_one"]["seconds"], 1.0, "s")
    return rows


def site_costs(site: Path, build_seconds: float) -> dict:
    """What the site costs: its bytes (with and without the precompressed copies), the shipped snapshot's (as made,
    and as sent in each coding), how long the bench's build took (the build cache warm, as after an edit), and how long
    making the snapshot takes from nothing (in a folder of its own: the build keeps it, see loopcraft/site/snapshot.py)."""
    from loopcraft.course.project import Project
    from loopcraft.site.snapshot import shipped_snapshot

    files = [path for path in site.rglob("*") if path.is_file() and not path.is_relative_to(site / "bench-floor")]
    copies = [path for path in files if path.suffix in (".br", ".gz")]
    (snapshot,) = site.glob("py/snapshot-*.bin")
    with tempfile.TemporaryDirectory(prefix="loopcraft-snapshot-") as folder:
        started = time.perf_counter()
        made = shipped_snapshot(Project(snapshots=Path(folder)), ROOT / "node_modules/pyodide")
        make_seconds = time.perf_counter() - started
    assert made.data == snapshot.read_bytes(), "the snapshot made again differs from the site's: not reproducible"
    return {
        "site_bytes": sum(path.stat().st_size for path in files if path not in copies),
        "site_bytes_with_copies": sum(path.stat().st_size for path in files),
        "snapshot_bytes": {
            coding: path.stat().st_size
            for coding, path in (
                ("identity", snapshot),
                ("br", snapshot.with_name(snapshot.name + ".br")),
                ("gzip", snapshot.with_name(snapshot.name + ".gz")),
            )
        },
        "build_seconds": round(build_seconds, 2),
        "snapshot_make_seconds": round(make_seconds, 2),
    }


def table(browser: dict, builds: dict, costs: dict, rows: list[dict]) -> str:
    lines = [
        "",
        "Times in ms from navigation start (medians); bytes as sent by the server; kept_*: profiles kept on disk.",
        "",
    ]
    lines.append(f"{'network':<12}" + "".join(f"{k:>18}" for k in ROWS))
    for net, r in browser.items():
        lines.append(f"{net:<12}" + "".join(f"{r[k]:>18,.0f}" for k in ROWS))
    for net, r in browser.items():
        for kind, prefix in (("incognito-like", ""), ("kept profile", "kept_")):
            spent = ", ".join(f"{k} {v:,.0f}" for k, v in r[f"{prefix}second_visit_phases"].items())
            took = r[f"{prefix}second_visit"]
            lines.append(f"second visit, {net}, {kind}: where its {took:,.0f} ms to Python ready went: {spent}")
    lines += ["", f"{'build':<28}{'seconds':>10}{'peak MB':>10}"]
    for name, b in builds.items():
        label = f"{name} challenges" if name.isdigit() else "rebuild, one YAML changed"
        lines.append(f"{label:<28}{b['seconds']:>10.2f}{b['peak_mb']:>10.0f}")
    if costs:
        sizes = ", ".join(f"{coding} {size:,}" for coding, size in costs["snapshot_bytes"].items())
        lines += [
            "",
            f"site: {costs['site_bytes']:,} bytes ({costs['site_bytes_with_copies']:,} with its .br/.gz copies); "
            f"built in {costs['build_seconds']} s (cache warm)",
            f"shipped snapshot: {sizes} bytes; made from nothing in {costs['snapshot_make_seconds']} s",
        ]
    lines += ["", f"{'goal':<58}{'value':>10}{'limit':>8}  met"]
    for g in rows:
        limit = "-" if g["limit"] is None else g["limit"]
        met = {True: "yes", False: "NO", None: "-"}[g["met"]]
        lines.append(f"{g['goal']:<58}{g['value']:>10}{limit:>8}{g['unit']:<2} {met}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1 context, 1 network, builds of 2 and 4 challenges")
    parser.add_argument("--contexts", type=int, default=5, help="fresh browser contexts per network (default 5)")
    parser.add_argument("--networks", default=",".join(NETWORKS), help="comma-separated: " + ", ".join(NETWORKS))
    parser.add_argument("--sizes", default="10,100,1000", help="generated course sizes to build")
    parser.add_argument("--reruns", type=int, default=5, help="warm re-runs per context")
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/latest.json")
    args = parser.parse_args(argv)
    if args.quick:
        args.contexts, args.networks, args.sizes, args.reruns = 1, "unthrottled", "2,4", 1
    networks = args.networks.split(",")
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="loopcraft-bench-") as tmp:
        work = Path(tmp)
        print("building the site (--no-verify)...", file=sys.stderr, flush=True)
        started = time.perf_counter()
        site = build_site(work)
        costs = site_costs(site, time.perf_counter() - started)
        core_bytes = sum((site / "pyodide" / name).stat().st_size for name in CORE)
        print("browser...", file=sys.stderr, flush=True)
        browser = browser_bench(site, args.contexts, networks, args.reruns)
        print("builds of generated courses (--no-verify)...", file=sys.stderr, flush=True)
        builds = build_bench(work, sizes)
    rows = goals(browser, builds, core_bytes)
    result = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "settings": vars(args) | {"out": str(args.out)},
        "challenge": CHALLENGE,
        "core_bytes": core_bytes,
        "browser": browser,
        "build": builds,
        "site": costs,
        "goals": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(table(browser, builds, costs, rows))
    print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
