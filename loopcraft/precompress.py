"""Precompressed copies (`.br`, `.gz`) beside the site's big files, for servers that can send them as they are.

Brotli at its best setting takes minutes on Pyodide's WebAssembly, so compressed files are kept in a cache
keyed by their content (node_modules/.cache/, shared by every build of the project): a rebuild only compresses
what changed, which is usually a page or two.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
from pathlib import Path

from .errors import BuildError

COMPRESSIBLE = {".html", ".js", ".mjs", ".css", ".json", ".wasm", ".py", ".svg", ".txt"}
MIN_BYTES = 1024
MIN_SAVING = 0.10  # below this (e.g. python_stdlib.zip, already compressed) the copies are not worth their space
BIG_BYTES = 1 << 20  # Brotli's best quality on bigger files costs minutes; quality 9 is within about 12%


def precompress(root: Path, site: Path) -> list[str]:
    """Write `.br` and `.gz` beside every file of `site` worth it; return their paths relative to `site`."""
    cache = root / "node_modules/.cache/loopcraft-precompressed"
    cache.mkdir(parents=True, exist_ok=True)
    wanted: list[tuple[Path, Path]] = []  # (file, cache entry stem)
    for path in sorted(site.rglob("*")):
        if path.suffix in COMPRESSIBLE and path.is_file() and path.stat().st_size >= MIN_BYTES:
            wanted.append((path, cache / hashlib.sha256(path.read_bytes()).hexdigest()))
    for path, stem in wanted:
        if not stem.with_suffix(".gz").is_file():
            _atomic_write(stem.with_suffix(".gz"), gzip.compress(path.read_bytes(), compresslevel=9, mtime=0))
    worth = [(p, s) for p, s in wanted if s.with_suffix(".gz").stat().st_size <= (1 - MIN_SAVING) * p.stat().st_size]
    _brotli(root, [(p, s) for p, s in worth if not s.with_suffix(".br").is_file()])
    written = []
    for path, stem in worth:
        for suffix in (".br", ".gz"):
            shutil.copyfile(stem.with_suffix(suffix), path.with_name(path.name + suffix))
            written.append(path.relative_to(site).as_posix() + suffix)
    return written


def _brotli(root: Path, todo: list[tuple[Path, Path]]) -> None:
    if not todo:
        return
    jobs = [[str(p), str(_tmp(s)), 9 if p.stat().st_size > BIG_BYTES else 11] for p, s in todo]
    try:
        done = subprocess.run(["node", str(Path(__file__).with_name("brotli.mjs"))], input=json.dumps(jobs),
                              capture_output=True, text=True)
    except OSError as exc:
        raise BuildError(f"cannot run node to compress the site: {exc}") from exc
    if done.returncode != 0:
        raise BuildError(f"compressing the site failed:\n{done.stderr.strip()}")
    for _, stem in todo:
        _tmp(stem).replace(stem.with_suffix(".br"))  # complete entries only, even if killed


def _tmp(stem: Path) -> Path:
    return stem.with_name(stem.name + ".br.tmp")


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
