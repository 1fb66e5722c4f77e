"""The security and isolation headers (loopcraft/site/headers.py) are one set, wherever the site is served from: the
`_headers` file static hosts read, the dev server, and the service worker that adds them where a host sends none.
Chromium's side of it (the pages still work, other origins are refused) is tests/browser/test_security.py."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
import urllib.request
from pathlib import Path

import pytest

from loopcraft.course.project import Project
from loopcraft.site.build import build
from loopcraft.site.headers import CSP, ISOLATION, read_headers_file
from loopcraft.site.serve import make_server, url


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("headers") / "site"
    build(Project(), out, verify=False)
    return out


def served_headers(site: Path, path: str, isolation: bool) -> dict[str, str]:
    server = make_server(site, "127.0.0.1", 0, isolation=isolation, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with urllib.request.urlopen(url(server) + path) as response:
            response.read()
            return dict(response.headers)
    finally:
        server.shutdown()
        server.server_close()


def policy(value: str) -> dict[str, list[str]]:
    return {name: sources for name, *sources in (part.split() for part in value.split(";"))}


def test_the_host_the_dev_server_and_the_service_worker_send_the_same_security_headers(site: Path):
    from_file = read_headers_file((site / "_headers").read_text())["/*"]
    security = {name: value for name, value in from_file.items() if name in {*ISOLATION, CSP}}
    assert set(security) == {*ISOLATION, CSP}
    for path in ("build-an-agent/repeat-guard/", "assets/worker.js", "index.html"):
        sent = served_headers(site, path, isolation=True)
        assert {name: sent[name] for name in security} == security, path
    # The service worker's copy, as esbuild wrote the JSON it was given into the bundle.
    sw = (site / "sw.js").read_text()
    assert json.dumps(security, separators=(",", ":")) in sw


def test_a_host_without_isolation_is_sent_none_of_them(site: Path):
    sent = served_headers(site, "build-an-agent/repeat-guard/", isolation=False)
    assert not {*ISOLATION, CSP} & set(sent)
    assert sent["Cache-Control"] == "no-cache"


def test_the_policy_keeps_scripts_and_connections_to_the_site(site: Path):
    sources = policy(read_headers_file((site / "_headers").read_text())["/*"][CSP])
    assert sources["connect-src"] == ["'self'"]
    assert sources["default-src"] == ["'self'"]
    scripts = sources["script-src"]
    # Pyodide compiles WebAssembly; JavaScript's eval stays refused.
    assert "'self'" in scripts and "'wasm-unsafe-eval'" in scripts and "'unsafe-eval'" not in scripts
    assert "'unsafe-inline'" not in scripts
    assert sources["worker-src"] == ["'self'"]  # no blob: or data: workers either
    assert all(sources[name] == ["'none'"] for name in ("object-src", "base-uri", "form-action", "frame-ancestors"))


def test_every_inline_script_of_the_site_is_allowed_by_its_hash_and_no_other(site: Path):
    scripts = policy(read_headers_file((site / "_headers").read_text())["/*"][CSP])["script-src"]
    inline = set()
    for page in site.rglob("*.html"):
        for attributes, body in re.findall(r"<script([^>]*)>(.*?)</script>", page.read_text(), re.DOTALL):
            if "src=" not in attributes and "application/json" not in attributes:
                inline.add(f"'sha256-{base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()}'")
    assert inline, "the challenge pages start Python's worker from an inline script"
    assert inline == {source for source in scripts if source.startswith("'sha256-")}
