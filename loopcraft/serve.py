"""A local static server for the built site, with the headers Pyodide and the worker need."""
from __future__ import annotations

from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


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

    def __init__(self, *args, isolation: bool, quiet: bool, **kwargs):
        self.isolation = isolation  # set before super().__init__, which handles the request
        self.quiet = quiet
        super().__init__(*args, **kwargs)

    def log_request(self, code="-", size="-") -> None:
        # Quiet servers (tests) still log what went wrong: a missing file is worth seeing.
        if not self.quiet or (isinstance(code, int) and code >= 400):
            super().log_request(code, size)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")  # a rebuild shows up on reload
        if self.isolation:
            # Cross-origin isolation gives SharedArrayBuffer, so a runaway case can be interrupted
            # instead of killing and restarting the worker (and reloading Pyodide).
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


def make_server(root: Path, host: str, port: int, isolation: bool, quiet: bool = False) -> ThreadingHTTPServer:
    """A server for `root` (port 0 picks a free port); call serve_forever(), e.g. in a thread."""
    # The path, not an open dir handle, so a rebuilt site swapped in at the same path is served next request.
    handler = partial(SiteHandler, directory=str(root), isolation=isolation, quiet=quiet)
    return ThreadingHTTPServer((host, port), handler)


def url(server: ThreadingHTTPServer) -> str:
    host, port = server.server_address[:2]
    return f"http://{host}:{port}/"
