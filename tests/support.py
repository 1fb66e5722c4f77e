"""What the tests and the benchmark share to drive the real site: Debian's Chromium and the flags it runs
with, a site built by build.py, and the site served from a thread. Imported by tests/ and bench/ alike, so
each of these facts is written here only."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
# Headless and quiet: no sandbox (containers and root), no GPU, nothing phoning home while it is timed.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch_options() -> dict:
    """Keyword arguments for Playwright's `chromium.launch`; a missing Chromium is an error, never a skip."""
    if not CHROMIUM.exists():
        raise FileNotFoundError(f"{CHROMIUM} is missing: install Debian's chromium (make setup does)")
    return {"executable_path": str(CHROMIUM), "args": FLAGS, "headless": True}


def build_site(out: Path, *options: str) -> Path:
    """`build.py build --out OUT` with `options` (e.g. "--no-verify"); a failed build raises with its output."""
    done = subprocess.run(
        [sys.executable, "build.py", "build", *options, "--out", str(out)], cwd=ROOT, capture_output=True, text=True
    )
    if done.returncode:
        raise RuntimeError(f"build failed:\n{done.stdout}\n{done.stderr}")
    return out


def serve(site: Path, isolation: bool, live=None):
    """Serve `site` from a daemon thread with the dev server's handler (the site's headers when `isolation`;
    live reload with a LiveState); returns (server, base URL). `stop(server)` ends it."""
    from loopcraft.serve import make_server, url

    server = make_server(site, "127.0.0.1", 0, isolation=isolation, quiet=True, live=live)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, url(server)


def stop(server) -> None:
    """Stop a server from `serve`; stopping one already stopped does nothing."""
    server.shutdown()
    server.server_close()
