"""What the tests and the benchmark share to drive the real site: Debian's Chromium and the flags it runs
with, a site built by build.py, and the site served from a thread. Imported by tests/ and bench/ alike, so
each of these facts is written here only."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from loopcraft.course.project import INSTALL as ROOT
from loopcraft.running.pyodide import WASM_TIERING_BUDGET

CHROMIUM = Path("/usr/bin/chromium")
# Headless and quiet: no sandbox (containers and root), no GPU, nothing phoning home while it is timed, and no
# address-bar popup. Chromium 156 loads that popup (chrome://omnibox-popup.top-chrome, a WebUI page in a renderer of
# its own) for every page Playwright opens, each a window of its own: about 300 ms of CPU a page (three blank pages
# opened: 902 ms), and 650 ms in a trace of a second visit that took 1.2 s on two cores. A learner's browser loads it
# once per window, long before the course's page; no page of ours ever sees it.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
]
# The tests' Chromium tiers WebAssembly up as the Node runner does (loopcraft/running/pyodide.py, WASM_TIERING_BUDGET). A
# test's page lives for seconds: with V8's default budget about a seventh of its CPU time went to optimising Python's
# interpreter in the background for runs that never came (2.4 against 2.1 CPU-s for a page opened, run once and
# closed). Verdicts do not hang on it: every page starts on unoptimised code, and long-lived ones still optimise.
# The benchmark keeps V8's defaults, as learners have them.
TEST_FLAGS = [f"--js-flags=--wasm-tiering-budget={WASM_TIERING_BUDGET}"]


def launch_options(*, test: bool = False) -> dict:
    """Keyword arguments for Playwright's `chromium.launch`, with the tests' own flags if `test`; a missing Chromium
    is an error, never a skip."""
    if not CHROMIUM.exists():
        raise FileNotFoundError(f"{CHROMIUM} is missing: install Debian's chromium (make setup does)")
    return {"executable_path": str(CHROMIUM), "args": FLAGS + (TEST_FLAGS if test else []), "headless": True}


# LOOPCRAFT_SHIPPED_SNAPSHOT=refused: the site the tests share ships a snapshot of Python whose bytes fail its hash
# (`refuse_snapshot`), so that every page falls back to booting Python, and keeping its own snapshot, as before the
# site shipped one; the browser suites are run both ways (docs/architecture.md, "Tests").
SNAPSHOT_REFUSED = os.environ.get("LOOPCRAFT_SHIPPED_SNAPSHOT") == "refused"
# How Python starts on a first visit (a page's data-python-start): restored from the snapshot the site ships, or booted.
FIRST_VISIT_START = "missing" if SNAPSHOT_REFUSED else "shipped"


def refuse_snapshot(site: Path) -> None:
    """Damage `site`'s shipped snapshot as a host might: a byte changed, so its hash no longer matches, and its
    precompressed copies gone, so the damaged file itself is sent. Replaced, never written into: the build's files
    are links to its caches."""
    (snapshot,) = site.glob("py/snapshot-*.bin")
    data = bytearray(snapshot.read_bytes())
    data[len(data) // 2] ^= 0xFF
    for suffix in (".br", ".gz"):
        snapshot.with_name(snapshot.name + suffix).unlink(missing_ok=True)
    damaged = snapshot.with_name(snapshot.name + ".damaged")
    damaged.write_bytes(data)
    os.replace(damaged, snapshot)


def build_site(out: Path, *options: str) -> Path:
    """`build.py build --out OUT` with `options` (e.g. "--no-verify"); a failed build raises with its output."""
    done = subprocess.run(
        [sys.executable, "build.py", "build", *options, "--out", str(out)], cwd=ROOT, capture_output=True, text=True
    )
    if done.returncode:
        raise RuntimeError(f"build failed:\n{done.stdout}\n{done.stderr}")
    return out


BUILD_LIMIT_S = 1200  # a cold build takes about a minute; a build that hangs must not hang the suite
_BUILDS: list[subprocess.Popen] = []  # held so the started build is never taken for an abandoned process


def start_site_build(folder: Path) -> None:
    """Start building the site into `folder`/built-site in a process of its own, unless someone already has:
    pytest-xdist workers share the folder, and the first to ask starts it. `built_site(folder)` waits for it."""
    with open(folder / "built-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        started = folder / "built-site.pid"
        if started.exists():
            return
        build = subprocess.Popen(
            [sys.executable, "-m", "tests.support", "build-site", str(folder)],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _BUILDS.append(build)
        started.write_text(str(build.pid))


def built_site(folder: Path) -> Path:
    """The site `start_site_build(folder)` builds, once it is done; raises with the build's output if it failed."""
    start_site_build(folder)
    pid = int((folder / "built-site.pid").read_text())
    deadline = time.monotonic() + BUILD_LIMIT_S
    while not (folder / "built-site.done").exists():
        if time.monotonic() > deadline:
            raise RuntimeError(f"the site's build (pid {pid}) took more than {BUILD_LIMIT_S} s")
        if (folder / "built-site.failed").exists():
            raise RuntimeError((folder / "built-site.failed").read_text())
        if not _running(pid) and not (folder / "built-site.done").exists():
            raise RuntimeError(f"the site's build (pid {pid}) stopped without a word")
        time.sleep(0.2)
    return folder / "built-site"


def _running(pid: int) -> bool:
    for build in _BUILDS:
        if build.pid == pid:
            return build.poll() is None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _build_in_background(folder: Path) -> None:
    try:
        build_site(folder / "built-site")
        if SNAPSHOT_REFUSED:
            refuse_snapshot(folder / "built-site")
    except RuntimeError as exc:
        (folder / "built-site.failed").write_text(str(exc))
    else:
        (folder / "built-site.done").touch()


def serve(site: Path, isolation: bool, live=None):
    """Serve `site` from a daemon thread with the dev server's handler (the site's headers when `isolation`;
    live reload with a LiveState); returns (server, base URL). `stop(server)` ends it."""
    from loopcraft.site.serve import make_server, url

    server = make_server(site, "127.0.0.1", 0, isolation=isolation, quiet=True, live=live)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, url(server)


def stop(server) -> None:
    """Stop a server from `serve`; stopping one already stopped does nothing."""
    server.shutdown()
    server.server_close()


if __name__ == "__main__" and sys.argv[1:2] == ["build-site"]:
    _build_in_background(Path(sys.argv[2]))
