"""The build: site layout, page contexts, atomic writes, the CLI's errors, and the local server.

These tests build a small project made of tests/fixtures/project (templates, front-end stand-ins), a copy of the grader,
and tests/fixtures/valid (exercises), with the repository's node_modules for esbuild and Pyodide. They use
--no-verify; running solutions in Pyodide is covered by the verify integration tests.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from grader.canonical import digest
from loopcraft import commands
from loopcraft.commands.options import NO_VERIFY_WARNING
from loopcraft.course.cases import salt
from loopcraft.course.errors import BuildError
from loopcraft.course.load import load_course
from loopcraft.course.project import Project
from loopcraft.site.build import build
from loopcraft.site.headers import read_headers_file
from loopcraft.site.render import tojson_script
from loopcraft.site.serve import make_server, url
from loopcraft.site.sitewriter import MARKER
from loopcraft.site.snapshot import shipped_snapshot
from tests.helpers import FIXTURES, ROOT, make_project


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path, FIXTURES / "valid/exercises")


def leftovers(parent: Path) -> list[str]:
    """Staging or old site dirs left beside the site (the build cache, .cache/, is meant to stay)."""
    return sorted(p.name for p in parent.iterdir() if p.name.startswith(".") and p.name != ".cache")


def page_data(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="exercise-data">(.*?)</script>', html).group(1))


def test_build_writes_the_whole_site(project: Path):
    out = project / "site"
    build(Project(project), out, verify=False)
    files = sorted(
        p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and p.suffix not in (".br", ".gz")
    )
    (snapshot,) = out.glob(
        "py/snapshot-*.bin"
    )  # named after its bytes (see test_the_site_ships_pythons_snapshot_made_reproducibly)
    assert files == [
        MARKER,
        ".nojekyll",  # or GitHub Pages' Jekyll drops py/grader/__init__.py
        "404.html",
        "_headers",
        "assets/app.js",
        "assets/highlight.css",
        "assets/index.js",
        "assets/lab.js",
        "assets/lesson.js",
        "assets/style.css",
        "assets/worker.js",
        "basics/add/index.html",
        "basics/double/index.html",
        "index.html",
        *(f"py/{name}" for name in Project(project).grader_files),
        "py/manifest.json",
        f"py/{snapshot.name}",
        "pyodide/pyodide-lock.json",
        "pyodide/pyodide.asm.mjs",
        "pyodide/pyodide.asm.wasm",
        "pyodide/pyodide.mjs",
        "pyodide/python_stdlib.zip",
        "sw.js",
    ]
    manifest = json.loads((out / "py/manifest.json").read_text())
    assert manifest["files"] == Project(project).grader_files and len(manifest["hash"]) == 16
    assert "grader/execute.py" in manifest["files"] and "grader/__main__.py" not in manifest["files"]
    assert "Hello, " in (out / "assets/app.js").read_text()  # bundled with its import
    assert "../pyodide/pyodide.mjs" in (out / "assets/worker.js").read_text()  # left external
    assert ".highlight" in (out / "assets/highlight.css").read_text()
    index = (out / "index.html").read_text()
    assert 'href="basics/add/"' in index and 'href="basics/double/"' in index
    assert leftovers(project) == []


def test_hidden_expected_values_are_never_published(project: Path):
    out = project / "site"
    build(Project(project), out, verify=False)
    html = (out / "basics/add/index.html").read_text()
    data = page_data(html)
    visible, _, hidden = data["cases"]
    assert visible == {
        "name": "small numbers",
        "hidden": False,
        "private": False,
        "call_twice": False,
        "run": {
            "entry": "add",
            "args": '{"a":1,"b":2}',
            "call": None,
            "setup": None,
            "stdin": None,
            "call_twice": False,
            "keep_stdout": False,
        },
        "expect": {"expected": "3", "expected_shown": "3"},
        "call_shown": "add(a=1, b=2)",
    }
    expect = hidden["expect"]
    assert set(expect) == {"salt", "digest", "checks"} and expect["checks"] == ["value"]
    ((add, _),) = (t.exercises for t in load_course(project))
    assert expect["salt"] == salt(add) and len(expect["salt"]) == 32
    assert expect["digest"] == digest(expect["salt"], '{"value":-3}')
    assert "-3" not in html


def test_page_data_is_safe_inside_a_script_element():
    text = str(tojson_script({"s": "</script><!-- & >"}))
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"s": "</script><!-- & >"}


def test_failed_build_leaves_the_old_site_untouched(project: Path, capsys: pytest.CaptureFixture):
    out = project / "site"
    build(Project(project), out, verify=False)
    (out / "marker.txt").write_text("old site")
    yaml = project / "exercises/basics/add/exercise.yaml"
    yaml.write_text(yaml.read_text().replace("minutes: 2", "minutes: two").replace("title:", "titl:"))

    assert commands.main(["build", "--root", str(project), "--out", str(out), "--no-verify"]) == 1

    assert capsys.readouterr().err.splitlines()[1:] == [
        "exercises/basics/add/exercise.yaml:1: missing required field 'title'",
        "exercises/basics/add/exercise.yaml:2: unknown key 'titl' (did you mean 'title'?)",
        'exercises/basics/add/exercise.yaml:5: minutes: expected an integer, got a string ("two")',
        "3 problem(s); nothing was written",
    ]
    assert (out / "marker.txt").read_text() == "old site"
    assert leftovers(project) == []


def test_failure_while_writing_removes_the_staging_dir(project: Path):
    out = project / "site"
    build(Project(project), out, verify=False)
    (out / "marker.txt").write_text("old site")
    (project / "frontend/src/app.js").write_text("import { nothing } from './missing.js';\n")

    with pytest.raises(BuildError, match=r"esbuild failed on frontend/src/app.js:\n.*missing\.js"):
        build(Project(project), out, verify=False)

    assert (out / "marker.txt").read_text() == "old site"
    assert leftovers(project) == []


def test_refuses_to_replace_a_folder_it_did_not_build(project: Path):
    (project / "notes").mkdir()
    (project / "notes/todo.txt").write_text("keep me")
    with pytest.raises(BuildError, match="refusing to replace .*notes: it is not a site built by Loopcraft"):
        build(Project(project), project / "notes", verify=False)
    assert (project / "notes/todo.txt").read_text() == "keep me"


def test_missing_inputs_are_listed_together(project: Path):
    (project / "frontend/src/worker.js").unlink()
    (project / "templates/index.html").unlink()
    (project / "node_modules").unlink()
    with pytest.raises(BuildError) as caught:
        build(Project(project), project / "site", verify=False)
    message = str(caught.value)
    assert message.startswith("missing files the build needs (run `npm ci`):\n  templates/index.html\n")
    assert "  frontend/src/worker.js\n" in message and "  node_modules/pyodide/pyodide.asm.wasm" in message
    assert not (project / "site").exists()


def test_check_reports_problems_and_exits_1(project: Path, capsys: pytest.CaptureFixture):
    (project / "exercises/basics/double/starter.py").unlink()
    assert commands.main(["check", "--root", str(project), "--no-verify"]) == 1
    assert capsys.readouterr().err.splitlines()[1:] == [
        "exercises/basics/double/exercise.yaml:1: starter file not found: exercises/basics/double/starter.py",
        "1 problem(s); nothing was written",
    ]


def test_check_passes_on_a_valid_course(project: Path, capsys: pytest.CaptureFixture):
    assert commands.main(["check", "--root", str(project), "--no-verify"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "OK: 1 track(s), 2 challenge(s)\n"
    assert captured.err == NO_VERIFY_WARNING + "\n"


def test_build_is_the_default_command():
    args = commands.parse(["--out", "x", "--no-verify"], "build.py", default="build")
    assert (args.run, args.out, args.verify) == (commands.build.run, Path("x"), False)
    assert commands.parse([], "build.py", default="build").run is commands.build.run
    served = commands.parse(["serve", "--port", "0", "--no-isolation"], "build.py", default="build")
    assert (served.run, served.port, served.isolation) == (commands.serve.run, 0, False)


@pytest.mark.parametrize("isolation", [True, False])
def test_server_types_and_headers(tmp_path: Path, isolation: bool):
    for name in ("index.html", "a.js", "b.mjs", "c.wasm", "d.json", "e.zip", "f.css"):
        (tmp_path / name).write_bytes(b"x")
    server = make_server(tmp_path, "127.0.0.1", 0, isolation)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        types = {}
        for name in ("index.html", "a.js", "b.mjs", "c.wasm", "d.json", "e.zip", "f.css"):
            with urllib.request.urlopen(url(server) + name) as response:
                types[name] = response.headers["Content-Type"]
                headers = response.headers
                assert headers["Cache-Control"] == "no-cache"
                assert headers.get("Cross-Origin-Opener-Policy") == ("same-origin" if isolation else None)
                assert headers.get("Cross-Origin-Embedder-Policy") == ("require-corp" if isolation else None)
    finally:
        server.shutdown()
        server.server_close()
    assert types == {
        "index.html": "text/html; charset=utf-8",
        "a.js": "text/javascript",
        "b.mjs": "text/javascript",
        "c.wasm": "application/wasm",
        "d.json": "application/json",
        "e.zip": "application/zip",
        "f.css": "text/css",
    }


def test_a_browser_that_leaves_mid_download_costs_the_server_no_traceback(tmp_path: Path, capsys):
    import socket
    import struct

    (tmp_path / "big.wasm").write_bytes(b"x" * 32 * 2**20)
    server = make_server(tmp_path, "127.0.0.1", 0, isolation=True, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        host, port = server.server_address[:2]
        with socket.create_connection((host, port)) as client:
            client.sendall(b"GET /big.wasm HTTP/1.1\r\nHost: x\r\n\r\n")
            assert client.recv(4096).startswith(b"HTTP/1.0 200")
            # Closed with a reset, as a browser drops a page's connections: the server is mid-write.
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    finally:
        server.shutdown()
        server.server_close()  # waits for the request's thread
    assert "Traceback" not in capsys.readouterr().err


def test_big_files_have_precompressed_copies(project: Path):
    import gzip
    import subprocess

    out = project / "site"
    build(Project(project), out, verify=False)
    (snapshot,) = out.glob("py/snapshot-*.bin")
    for name in (
        "pyodide/pyodide.asm.wasm",
        "pyodide/pyodide.asm.mjs",
        "pyodide/pyodide-lock.json",
        f"py/{snapshot.name}",
    ):
        original = (out / name).read_bytes()
        assert gzip.decompress((out / f"{name}.gz").read_bytes()) == original
        unbrotli = "process.stdout.write(require('zlib').brotliDecompressSync(require('fs').readFileSync(0)))"
        done = subprocess.run(["node", "-e", unbrotli], input=(out / f"{name}.br").read_bytes(), capture_output=True)
        assert done.stdout == original
    # Already compressed: copies would save next to nothing.
    assert not (out / "pyodide/python_stdlib.zip.br").exists()
    assert not (out / "py/grader/__init__.py.gz").exists()  # too small to be worth it


def test_a_built_site_sends_pythons_snapshot_at_brotlis_best_and_the_dev_servers_site_compresses_it_quickly(
    project: Path,
):
    sizes = {}
    for wire in (True, False):
        out = project / f"site-{wire}"
        build(Project(project), out, verify=False, for_the_wire=wire)
        (snapshot,) = out.glob("py/snapshot-*.bin.br")
        sizes[wire] = snapshot.stat().st_size
    # Quality 11 sends about 3.6 MB of the 13, quality 9 about 4.0 (loopcraft/site/precompress.py, `quality`).
    assert sizes[True] < 0.95 * sizes[False]


def test_the_site_ships_pythons_snapshot_made_reproducibly(project: Path, tmp_path: Path):
    out = project / "site"
    build(Project(project), out, verify=False)
    (snapshot,) = out.glob("py/snapshot-*.bin")
    data = snapshot.read_bytes()
    assert snapshot.name == f"snapshot-{hashlib.sha256(data).hexdigest()[:16]}.bin"
    # The same Pyodide and grader give the same bytes: made again from nothing, elsewhere.
    again = shipped_snapshot(Project(project, snapshots=tmp_path / "elsewhere"), project / "node_modules/pyodide")
    assert again.data == data and again.file == snapshot.name
    # What the page's worker is told (a bundle's define): the file, its bytes' SHA-256 as Subresource Integrity, and
    # the length of the snapshot itself (Python's memory, 30 MB and a header).
    integrity = "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()
    told = {"file": snapshot.name, "integrity": integrity, "length": int.from_bytes(data[:4], "little")}
    assert again.define() == f"--define:__SNAPSHOT__={json.dumps(told)}"
    assert 30 * 2**20 < told["length"] < 64 * 2**20


def test_headers_file_asks_for_cross_origin_isolation(project: Path):
    out = project / "site"
    build(Project(project), out, verify=False)
    blocks = read_headers_file((out / "_headers").read_text())
    assert blocks["/*"]["Cross-Origin-Opener-Policy"] == "same-origin"
    assert blocks["/*"]["Cross-Origin-Embedder-Policy"] == "require-corp"
    assert blocks["/pyodide/pyodide.asm.wasm"]["Content-Type"] == "application/wasm"
    sw = (out / "sw.js").read_text()
    assert "basics/add/index.html" in sw and "pyodide/pyodide.asm.wasm" in sw and "assets/app.js?v=" in sw


def test_server_sends_precompressed_copies_when_accepted(tmp_path: Path):
    (tmp_path / "a.wasm").write_bytes(b"plain")
    (tmp_path / "a.wasm.br").write_bytes(b"brotli")
    (tmp_path / "a.wasm.gz").write_bytes(b"gzip")
    server = make_server(tmp_path, "127.0.0.1", 0, isolation=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def get(accept: str | None):
        request = urllib.request.Request(url(server) + "a.wasm", headers={"Accept-Encoding": accept} if accept else {})
        with urllib.request.urlopen(request) as response:
            return response.read(), response.headers.get("Content-Encoding"), response.headers["Content-Type"]

    try:
        assert get("gzip, deflate, br") == (b"brotli", "br", "application/wasm")
        assert get("gzip") == (b"gzip", "gzip", "application/wasm")
        assert get("br;q=0, gzip") == (b"gzip", "gzip", "application/wasm")
        assert get(None) == (b"plain", None, "application/wasm")
    finally:
        server.shutdown()
        server.server_close()


def test_the_dev_server_rebuilds_when_the_grader_changes(project: Path):
    from loopcraft.site.watch import DevServer

    shipped = project / "site" / "py" / "grader" / "canonical.py"
    with DevServer(Project(project), project / "site", "127.0.0.1", 0, isolation=True, verify=False, quiet=True) as dev:
        assert project / "grader" in dev.watched
        assert "# edited" not in shipped.read_text()
        source = project / "grader" / "canonical.py"
        source.write_text(source.read_text() + "\n# edited\n")
        deadline = time.monotonic() + 300  # a rebuild takes about a second; this only ends a test that would hang
        while not (shipped.is_file() and "# edited" in shipped.read_text()):
            assert time.monotonic() < deadline, "the site was not rebuilt after the grader changed"
            time.sleep(0.2)


def test_the_dev_server_counts_the_notes_and_leaves_them_to_check(project: Path, capsys: pytest.CaptureFixture):
    from loopcraft.site.watch import DevServer

    yaml = project / "exercises/basics/add/exercise.yaml"
    yaml.write_text(yaml.read_text().split("\n", 1)[1])  # without its schema line: a note
    with DevServer(Project(project), project / "site", "127.0.0.1", 0, isolation=True, verify=False, quiet=True):
        pass
    out, err = capsys.readouterr()
    assert out.startswith(f"Built {project / 'site'} in ")
    assert out.endswith("; 1 note(s) for authors, which `python build.py check` shows\n")
    assert err == ""


def test_every_install_script_npm_runs_is_approved_in_package_json():
    """npm (11.16 and later) warns on every `npm ci` about a dependency's install script that package.json's
    `allowScripts` does not approve, and npm 12 skips it: esbuild's postinstall puts its native binary in place."""
    root = ROOT
    lock = json.loads((root / "package-lock.json").read_text(encoding="utf-8"))
    scripted = {
        path.rpartition("node_modules/")[2] for path, entry in lock["packages"].items() if entry.get("hasInstallScript")
    }
    approved = json.loads((root / "package.json").read_text(encoding="utf-8")).get("allowScripts", {})
    assert "esbuild" in scripted
    assert {name: approved.get(name) for name in scripted} == dict.fromkeys(scripted, True)
