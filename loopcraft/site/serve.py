"""A local static server for the built site, with the headers Pyodide and the worker need: those the site's `_headers`
asks for (see loopcraft/site/headers.py), or none of them without `isolation`, as from a host that cannot send any.

It sends the build's precompressed copies (`.br`, `.gz` beside a file) with Content-Encoding when the request
accepts them. As the dev server (`live` given) it also reloads open pages after a rebuild and shows a failed build over the
page: it adds a script to the pages a browser navigates to (never to the files of the site, nor to what the service
worker caches) that listens to an event stream.
"""

from __future__ import annotations

import email.utils
import html
import io
import json
import re
import sys
import threading
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from loopcraft.course.errors import LoopcraftError

from .headers import CACHE_CONTROL, site_security_headers

LIVE_SCRIPT = "/__loopcraft/live.js"
LIVE_EVENTS = "/__loopcraft/events"
KEEPALIVE_SECONDS = 15  # a comment line this often, so a closed tab's stream ends at the next write
_BODY_END = re.compile(r"</body\s*>", re.IGNORECASE)
ENCODINGS = [("br", ".br"), ("gzip", ".gz")]  # in order of preference


def accepted_encodings(header: str) -> set[str]:
    """The codings an Accept-Encoding header allows (a q of 0 refuses one)."""
    allowed = set()
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        q = params.strip().removeprefix("q=") if params.strip().startswith("q=") else "1"
        try:
            if float(q) > 0:
                allowed.add(name.strip().lower())
        except ValueError:
            pass
    return allowed


class LiveState:
    """What the dev server tells open pages: the number of the last good build and the last build's errors."""

    def __init__(self):
        self._changed = threading.Condition()
        self.build = 0  # counts good builds; a page built from an older one reloads
        self.errors: list[str] = []  # `path:line: message` lines of the last build, if it failed
        self._version = 0  # counts every build, good or not, to wake the event streams
        self._closed = False

    def publish(self, errors: list[str]) -> None:
        with self._changed:
            self.build += not errors
            self.errors = errors
            self._version += 1
            self._changed.notify_all()

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def wait(self, seen: int | None, timeout: float) -> tuple[int, str] | None:
        """(version, event data) once there is a version other than `seen`, or `seen`'s again after `timeout`;
        None once closed."""
        with self._changed:
            self._changed.wait_for(lambda: self._closed or self._version != seen, timeout)
            if self._closed:
                return None
            return self._version, json.dumps({"build": self.build, "errors": self.errors})


class SiteHandler(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",  # module scripts and module workers are refused with any other type
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",  # WebAssembly.instantiateStreaming requires it
        ".json": "application/json",
        ".zip": "application/zip",
        ".css": "text/css",
        ".html": "text/html; charset=utf-8",
    }

    def __init__(self, *args, isolation: bool, quiet: bool, live: LiveState | None, **kwargs):
        self.isolation = isolation  # set before super().__init__, which handles the request
        self.quiet = quiet
        self.live = live
        super().__init__(*args, **kwargs)

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        if self.live is not None and path == LIVE_EVENTS:
            self._stream_events()
        elif self.live is not None and path == LIVE_SCRIPT:
            script = (Path(__file__).parent / "live.js").read_bytes()
            self.copyfile(self._head(HTTPStatus.OK, ".js", script), self.wfile)
        else:
            super().do_GET()

    def send_head(self):
        file = Path(self.translate_path(self.path))
        if file.is_dir() and urlsplit(self.path).path.endswith("/"):
            file = file / "index.html"
        if self._gets_live_script() and file.suffix == ".html" and file.is_file():
            return self._head(HTTPStatus.OK, ".html", self._with_live_script(file.read_text(encoding="utf-8")))
        if file.is_file():
            allowed = accepted_encodings(self.headers.get("Accept-Encoding", ""))
            for encoding, suffix in ENCODINGS:
                encoded = file.with_name(file.name + suffix)
                if encoding in allowed and encoded.is_file():
                    return self._send_encoded(file, encoded, encoding)
        return super().send_head()  # also redirects a folder to its URL with a slash

    def _send_encoded(self, file: Path, encoded: Path, encoding: str):
        """As send_head does for `file`, with the body of its precompressed copy; 304 when not modified."""
        stat = encoded.stat()
        since = self.headers.get("If-Modified-Since")
        if since and not self.headers.get("If-None-Match"):
            try:
                if int(stat.st_mtime) <= email.utils.parsedate_to_datetime(since).timestamp():
                    self.send_response(HTTPStatus.NOT_MODIFIED)
                    self.send_header("Vary", "Accept-Encoding")
                    self.end_headers()
                    return None
            except (TypeError, ValueError, IndexError, OverflowError):
                pass
        body = encoded.open("rb")
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(str(file)))
        self.send_header("Content-Encoding", encoding)
        self.send_header("Content-Length", str(stat.st_size))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return body

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        site_404 = Path(self.directory) / "404.html"
        if code != HTTPStatus.NOT_FOUND or (self.live is None and not site_404.is_file()):
            return super().send_error(code, message, explain)
        # The site's own 404 page, as static hosts serve it; with the live script, so that a page asked for
        # before it is built shows up once it is.
        page = (
            site_404.read_text(encoding="utf-8")
            if site_404.is_file()
            else f"<!doctype html><title>Not found</title><p>Nothing at {html.escape(self.path)} (yet).</p>"
        )
        body = self._head(code, ".html", self._with_live_script(page) if self._gets_live_script() else page)
        if self.command != "HEAD":
            self.copyfile(body, self.wfile)

    def _head(self, code: int, extension: str, body: bytes | str) -> io.BytesIO:
        """Send the headers of `body`; return it as a file for the caller to copy, as send_head does."""
        body = body.encode("utf-8") if isinstance(body, str) else body
        self.send_response(code)
        self.send_header("Content-Type", self.extensions_map[extension])
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def _gets_live_script(self) -> bool:
        """Only a page the browser navigates to gets the live script (a request without Sec-Fetch-Mode is taken for
        one): the service worker caching the site asks for each page as it is built, with the hash the build gave it."""
        return self.live is not None and self.headers.get("Sec-Fetch-Mode", "navigate") == "navigate"

    def _with_live_script(self, page: str) -> str:
        tag = f'<script src="{LIVE_SCRIPT}" data-build="{self.live.build}"></script>'
        ends = list(_BODY_END.finditer(page))
        at = ends[-1].start() if ends else len(page)
        return page[:at] + tag + page[at:]

    def _stream_events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        seen = None
        try:
            while (state := self.live.wait(seen, KEEPALIVE_SECONDS)) is not None:
                version, data = state
                self.wfile.write(b": keep-alive\n\n" if version == seen else f"data: {data}\n\n".encode())
                self.wfile.flush()
                seen = version
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page was closed or reloaded

    def log_request(self, code="-", size="-") -> None:
        # Quiet servers (tests) still log what went wrong: a missing file is worth seeing.
        if not self.quiet or (isinstance(code, int) and code >= 400):
            super().log_request(code, size)

    def end_headers(self) -> None:
        headers = dict(CACHE_CONTROL)
        if self.isolation:
            # As a static host does: the site's `_headers`, read afresh so a rebuild's new policy applies at once.
            headers.update(site_security_headers(Path(self.directory)))
        for name, value in headers.items():
            self.send_header(name, value)
        super().end_headers()


class SiteServer(ThreadingHTTPServer):
    """A browser ends its connections when it leaves a page while files are on their way (a reload, a closed tab, a
    service worker's install cut short): that is no error, and the terminal gets no traceback for it. A deeper
    backlog than the standard library's 5: a service worker asks for the whole site at once."""

    request_queue_size = 64

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(
    root: Path, host: str, port: int, isolation: bool, quiet: bool = False, live: LiveState | None = None
) -> SiteServer:
    """A server for `root` (port 0 picks a free port); call serve_forever(), e.g. in a thread."""
    # The path, not an open dir handle, so a rebuilt site swapped in at the same path is served next request.
    handler = partial(SiteHandler, directory=str(root), isolation=isolation, quiet=quiet, live=live)
    try:
        return SiteServer((host, port), handler)
    except OSError as exc:
        raise LoopcraftError(f"cannot serve on {host}:{port}: {exc.strerror}") from exc


def url(server: SiteServer) -> str:
    host, port = server.server_address[:2]
    return f"http://{host}:{port}/"
