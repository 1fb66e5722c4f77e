"""The build's stages: load -> validate -> verify -> render in memory -> bundle into a staging dir -> service
worker, headers and precompressed copies -> swap."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import BuildError, Problem, in_order, raise_errors
from .exercises import Track, load_course
from .render import pygments_css, render_pages
from .precompress import precompress
from .sitewriter import MARKER, copy_file, staged_site, write_text

if TYPE_CHECKING:
    from .verify import Strength

PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]
# The command-line entry points never run in the page.
GRADER_EXCLUDED = {"cli.py", "__main__.py"}
BUNDLES = {"app.js": [], "index.js": [], "worker.js": ["--external:../pyodide/*"]}
SERVICE_WORKER = "sw.js"  # at the site's root, so that its scope is the whole site
# Read by static hosts such as Netlify and Cloudflare Pages. Cross-origin isolation (COOP/COEP) gives the
# worker SharedArrayBuffer, so a runaway case is interrupted instead of Python being restarted; where a host
# ignores this file, the service worker adds the two headers itself.
HEADERS = """\
/*
  Cross-Origin-Opener-Policy: same-origin
  Cross-Origin-Embedder-Policy: require-corp
  Cross-Origin-Resource-Policy: same-origin
  Cache-Control: no-cache
/pyodide/pyodide.asm.wasm
  Content-Type: application/wasm
/pyodide/*.mjs
  Content-Type: text/javascript
"""


@dataclass(frozen=True)
class Report:
    """What checking the course found: the loaded tracks, notes and verification problems, strength tables."""

    tracks: list[Track]
    problems: list[Problem]  # notes, and errors from verification (a loading error raises at once)
    strengths: list[Strength]  # one per exercise; empty when not verified


def check(root: Path, *, verify: bool = True) -> Report:
    """Load, validate and (unless told not to) verify every exercise. Raises ExerciseError if the course cannot
    be loaded; verification errors are in the report, so that its strength tables can be shown with them."""
    notes: list[Problem] = []
    tracks = load_course(root, notes)
    strengths = []
    if verify:
        from .verify import verify as verify_exercises  # needs Node and Pyodide, so only when asked

        strengths = verify_exercises(root, [ex for track in tracks for ex in track.exercises])
    return Report(tracks, in_order(notes + [p for s in strengths for p in s.problems]), strengths)


def build(root: Path, out: Path, *, verify: bool = True) -> Report:
    """Build the site into `out`, replacing it only if every stage succeeds."""
    root = root.resolve()
    _require_inputs(root)
    report = check(root, verify=verify)
    raise_errors(report.problems)
    tracks = report.tracks
    asset_version = _asset_version(root)
    pages = render_pages(root / "templates", tracks, asset_version)
    grader_files = _grader_files(root)
    with staged_site(out) as site:
        for page, html in pages.items():
            write_text(site, page, html)
        for name, extra in BUNDLES.items():
            _esbuild(root, root / "frontend/src" / name, site / "assets" / name, extra)
        copy_file(root / "frontend/src/style.css", site, "assets/style.css")
        write_text(site, "assets/highlight.css", pygments_css())
        for name in PYODIDE_FILES:
            copy_file(root / "node_modules/pyodide" / name, site, f"pyodide/{name}")
        for name in grader_files:
            copy_file(root / name, site, f"py/{name}")
        graders_hash = _hash_files(root, grader_files)
        write_text(site, "py/manifest.json", json.dumps({"files": grader_files, "hash": graders_hash}, indent=2) + "\n")
        write_text(site, "_headers", HEADERS)
        _service_worker(root, site, asset_version, pages)
        precompress(root, site)
    return report


def _service_worker(root: Path, site: Path, asset_version: str, pages: dict[str, str]) -> None:
    """Bundle sw.js with the build's version and the list of what it caches: every file of the site, the
    assets under the versioned URLs the pages ask for."""
    precache = []
    for path in sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()):
        if path in (MARKER, "_headers"):
            continue
        versioned = path.startswith("assets/") and path.endswith((".js", ".css"))
        precache.append(f"{path}?v={asset_version}" if versioned else path)
    h = hashlib.sha256(asset_version.encode())
    for page in sorted(pages):
        h.update(page.encode() + b"\0" + pages[page].encode())
    defines = [f"--define:__VERSION__={json.dumps(h.hexdigest()[:10])}", f"--define:__PRECACHE__={json.dumps(precache)}"]
    _esbuild(root, root / "frontend/src" / SERVICE_WORKER, site / SERVICE_WORKER, defines)


def _hash_files(root: Path, names: list[str]) -> str:
    h = hashlib.sha256()
    for name in names:
        h.update(name.encode() + b"\0" + (root / name).read_bytes())
    return h.hexdigest()[:16]


def _require_inputs(root: Path) -> None:
    """Fail before the slow stages, naming every missing file at once."""
    needed = [f"templates/{name}" for name in ("index.html", "challenge.html")]
    needed += [f"frontend/src/{name}" for name in [*BUNDLES, SERVICE_WORKER, "style.css"]]
    needed += ["grader/__init__.py", "node_modules/.bin/esbuild"]
    needed += [f"node_modules/pyodide/{name}" for name in PYODIDE_FILES]
    missing = [name for name in needed if not (root / name).is_file()]
    if missing:
        hint = " (run `npm ci`)" if any(name.startswith("node_modules/") for name in missing) else ""
        raise BuildError(f"missing files the build needs{hint}:\n" + "\n".join(f"  {name}" for name in missing))


def _grader_files(root: Path) -> list[str]:
    """The grader package as the page's worker loads it, e.g. ["grader/__init__.py", ...]."""
    grader = root / "grader"
    return sorted(
        path.relative_to(root).as_posix()
        for path in grader.rglob("*.py")
        if "__pycache__" not in path.parts and path.relative_to(grader).as_posix() not in GRADER_EXCLUDED
    )


def _asset_version(root: Path) -> str:
    """Hash of everything the assets are made from, known before bundling, so pages render before any write."""
    h = hashlib.sha256()
    inputs = sorted(p for p in (root / "frontend/src").rglob("*") if p.is_file())
    inputs += [root / name for name in _grader_files(root)]
    inputs += [root / "node_modules/pyodide/package.json", root / "node_modules/esbuild/package.json"]
    for path in inputs:
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes() if path.is_file() else b"")
    h.update(pygments_css().encode())
    return h.hexdigest()[:10]


def _esbuild(root: Path, entry: Path, outfile: Path, extra: list[str]) -> None:
    command = [str(root / "node_modules/.bin/esbuild"), str(entry.relative_to(root)), "--bundle", "--format=esm",
               "--minify", f"--outfile={outfile}", "--log-level=warning", *extra]
    try:
        done = subprocess.run(command, cwd=root, capture_output=True, text=True)
    except OSError as exc:
        raise BuildError(f"cannot run esbuild: {exc}") from exc
    if done.returncode != 0:
        raise BuildError(f"esbuild failed on {entry.relative_to(root)}:\n{done.stderr.strip()}")
    sys.stderr.write(done.stderr)  # warnings
