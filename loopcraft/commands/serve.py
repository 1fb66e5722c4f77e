"""`loopcraft serve`: build and serve the site locally, rebuild on changes and reload the page (or, with
`--no-build`, serve the site folder as a static host would)."""

from __future__ import annotations

import argparse
import threading
from pathlib import Path

from loopcraft.commands import options
from loopcraft.course.errors import LoopcraftError
from loopcraft.course.project import Project
from loopcraft.site.serve import make_server, url
from loopcraft.site.watch import DevServer

HELP = "build, serve the site locally, rebuild on changes and reload the page"


def add(parser: argparse.ArgumentParser) -> None:
    options.verify(parser)
    options.site(parser)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--no-isolation",
        dest="isolation",
        action="store_false",
        help="leave out the security headers (COOP/COEP, CSP), as a host that sends none would",
    )
    parser.add_argument(
        "--no-build",
        dest="build",
        action="store_false",
        help="serve the existing site folder as it is: no build, no watching, no reloading",
    )


def run(
    *,
    project: Project,
    out: Path | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    isolation: bool = True,
    build: bool = True,
    verify: bool = True,
) -> int:
    """Serve until Ctrl+C."""
    site = options.site_folder(project, out)
    if build:
        options.warn_unverified(verify)  # the existing site's verification is not this run's to tell
        _serve_dev(project, site.resolve(), host, port, isolation=isolation, verify=verify)
    else:
        _serve(site, host, port, isolation=isolation)
    return 0


def _serve_dev(project: Project, out: Path, host: str, port: int, *, isolation: bool, verify: bool) -> None:
    with DevServer(project, out, host, port, isolation=isolation, verify=verify) as dev:
        watched = ", ".join(f"{path.relative_to(project.root).as_posix()}/" for path in dev.watched)
        print(
            f"{_serving(out, url(dev.server), isolation)}; rebuilding when {watched} change; Ctrl+C to stop", flush=True
        )
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass


def _serve(site: Path, host: str, port: int, *, isolation: bool) -> None:
    if not site.is_dir():
        raise LoopcraftError(f"no site at {site}; build it first")
    server = make_server(site.resolve(), host, port, isolation)
    print(f"{_serving(site, url(server), isolation)}; Ctrl+C to stop", flush=True)
    with server:
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


def _serving(site: Path, address: str, isolation: bool) -> str:
    return f"Serving {site} at {address} ({'cross-origin isolated' if isolation else 'no isolation'})"
