"""The site's security and isolation headers, defined here once.

The build renders them into `_headers` (read by static hosts such as Netlify and Cloudflare Pages) and into the
service worker, which adds them to pages and to the worker's script where a host sends none; the dev server
(loopcraft/site/serve.py) sends what the site's `_headers` says, as such a host would.

Cross-origin isolation (COOP/COEP) gives the worker SharedArrayBuffer, so a runaway case is interrupted instead of
Python being restarted. The Content-Security-Policy lets pages and the worker run only the site's own scripts and
connect only to the site's own origin: code that gets to run in a page cannot send anything elsewhere or load
code from elsewhere.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

ISOLATION = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
}
CSP = "Content-Security-Policy"
CACHE_CONTROL = {"Cache-Control": "no-cache"}  # a new build shows up on reload
# Pyodide compiles WebAssembly ('wasm-unsafe-eval': its module, and the small modules Emscripten makes for
# function pointers) and needs no eval of JavaScript. Styles may be inline: the editor injects <style> elements.
_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
    "frame-ancestors": ["'none'"],
}
# Where a file's type must be named for a host that would guess wrong.
CONTENT_TYPES = {"/pyodide/pyodide.asm.wasm": "application/wasm", "/pyodide/*.mjs": "text/javascript"}
_INLINE_SCRIPT = re.compile(
    r"<script(?![^>]*\ssrc=)(?![^>]*\stype=\"application/json\")[^>]*>(.*?)</script>", re.DOTALL | re.IGNORECASE
)


def inline_script_hashes(pages: list[str]) -> list[str]:
    """The CSP source of every inline script the pages run (such as the one that starts Python's worker early)."""
    found = {match.group(1) for page in pages for match in _INLINE_SCRIPT.finditer(page)}
    return sorted(f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'" for s in found)


def security_headers(script_hashes: list[str]) -> dict[str, str]:
    """Every header the pages, the worker and the site's other files are sent with."""
    policy = {**_POLICY, "script-src": _POLICY["script-src"] + script_hashes}
    return {**ISOLATION, CSP: "; ".join(" ".join([name, *sources]) for name, sources in policy.items())}


def headers_file(security: dict[str, str]) -> str:
    """The `_headers` file: the security headers and CACHE_CONTROL for every path, and CONTENT_TYPES."""
    blocks = {"/*": {**security, **CACHE_CONTROL}}
    blocks.update({path: {"Content-Type": kind} for path, kind in CONTENT_TYPES.items()})
    return "".join(
        path + "\n" + "".join(f"  {name}: {value}\n" for name, value in headers.items())
        for path, headers in blocks.items()
    )


def read_headers_file(text: str) -> dict[str, dict[str, str]]:
    """{path pattern: {header: value}} of a `_headers` file as headers_file writes it."""
    blocks: dict[str, dict[str, str]] = {}
    for line in text.splitlines():
        if line.startswith("/"):
            block = blocks.setdefault(line.strip(), {})
        elif line.strip() and blocks:
            name, _, value = line.strip().partition(":")
            block[name.strip()] = value.strip()
    return blocks


def site_security_headers(site: Path) -> dict[str, str]:
    """The security headers a built site asks for in its `_headers` (those of a site with no inline script if it
    has none, such as a folder that is not a built site)."""
    try:
        text = (site / "_headers").read_text(encoding="utf-8")
    except FileNotFoundError:
        return security_headers([])
    return {name: value for name, value in read_headers_file(text).get("/*", {}).items() if name not in CACHE_CONTROL}
