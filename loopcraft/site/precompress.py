"""Precompressed copies (`.br`, `.gz`) beside the site's big files, for servers that can send them as they are.

Brotli at its best setting takes minutes on Pyodide's WebAssembly, so compressed files are kept in a cache
keyed by their content and the quality (node_modules/.cache/, shared by every build of the project), which the
site's copies are hard links to: a rebuild only compresses what changed, usually a page or two, the index and
the service worker. Entries are written once, atomically, and never into. Python has no Brotli, so
Node compresses; it takes about 0.15 s just to start, so it starts early and compresses while the site is staged.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import posixpath
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from loopcraft.course.errors import BuildError

# .bin: the memory snapshot of Python the site ships (loopcraft/site/snapshot.py), 13 MB that compress to a quarter.
COMPRESSIBLE = {".html", ".js", ".mjs", ".css", ".json", ".wasm", ".py", ".svg", ".txt", ".bin"}
MIN_BYTES = 1024
MIN_SAVING = 0.10  # below this (e.g. python_stdlib.zip, already compressed) the copies are not worth their space
BIG_BYTES = 1 << 20  # Brotli's best quality on bigger files costs minutes; quality 9 is within about 12%


def quality(size: int, from_content: bool, best: bool = False) -> int:
    """Brotli's quality for a file. What is made from the course's content (the pages, and the service worker
    that lists them) changes with every edit, and the best quality (11) is slow there: 4 s on the index of
    1,000 challenges, where 9 takes 30 ms and even comes out smaller (on a challenge page 9 costs ~250 bytes).
    `best`: worth the best quality whatever its size (the shipped snapshot of Python: every first visit waits for its
    bytes, and it changes only with the grader or Pyodide; 11 sends 3.6 of its 13 MB where 9 sends 4.0, and takes
    about 30 s instead of 2, once)."""
    return 11 if best else 9 if from_content or size > BIG_BYTES else 11


class Brotli:
    """Node, running brotli.mjs on the jobs it is given; started before the jobs are known, so that it is ready
    when they are."""

    def __enter__(self) -> Brotli:
        self._error: OSError | None = None
        self._process: subprocess.Popen | None = None
        try:
            self._process = subprocess.Popen(
                ["node", str(Path(__file__).with_name("brotli.mjs"))],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
        except OSError as exc:
            self._error = exc  # only a problem if something needs compressing
        return self

    def start(self, jobs: list) -> None:
        """[[source file, file to write, quality], ...]; brotli.mjs reads them all before it writes anything."""
        if not jobs:
            self._stop()  # nothing to wait for
        elif self._error:
            raise BuildError(f"cannot run node to compress the site: {self._error}")
        else:
            with self._process.stdin:
                self._process.stdin.write(json.dumps(jobs))

    def wait(self) -> None:
        if self._process:
            with self._process.stderr:
                errors = self._process.stderr.read()
            if self._process.wait() != 0:
                raise BuildError(f"compressing the site failed:\n{errors.strip()}")
            self._process = None

    def __exit__(self, *exc) -> None:
        self._stop()  # if the build failed before the jobs were done

    def _stop(self) -> None:
        if self._process:
            self._process.kill()
            self._process.wait()
            self._process = None


class Compression:
    """The precompressed copies of a site's files, some of them perhaps still being made by Node."""

    def __init__(self, copies: dict[str, str], brotli: Brotli, made: list[tuple[str, str]]):
        self._copies = copies
        self._brotli = brotli
        self._made = made  # (temporary file Node writes, cache entry it becomes)

    def copies(self) -> dict[str, str]:
        """{path of a copy relative to the site: cache entry holding it}, once Node is done."""
        self._brotli.wait()
        for tmp, entry in self._made:
            os.replace(tmp, entry)  # complete entries only, even if killed
        self._made = []
        return self._copies


@contextmanager
def precompress(
    root: Path, files: dict[str, bytes], from_content: set[str], brotli: Brotli, best: frozenset[str] = frozenset()
) -> Iterator[Compression]:
    """Gzip now, and have `brotli` start on, whatever of `files` ({path relative to the site: bytes}) is worth it
    and not cached yet. `from_content`: the files made from the course's content; `best`: the files worth Brotli's
    best quality whatever their size (see `quality`)."""
    cache = str(root / "node_modules/.cache/loopcraft-precompressed")  # a string: a site has thousands of files
    os.makedirs(cache, exist_ok=True)
    copies: dict[str, str] = {}
    jobs, made, sources = [], [], []
    for relative, data in sorted(files.items()):
        if posixpath.splitext(relative)[1] not in COMPRESSIBLE or len(data) < MIN_BYTES:
            continue
        digest = hashlib.sha256(data).hexdigest()
        gz = os.path.join(cache, f"{digest}.gz")
        try:
            gz_size = os.stat(gz).st_size
        except FileNotFoundError:
            gz_size = _atomic_write(gz, gzip.compress(data, compresslevel=9, mtime=0))
        if gz_size > (1 - MIN_SAVING) * len(data):
            continue
        q = quality(len(data), relative in from_content, relative in best)
        br = os.path.join(cache, f"{digest}.q{q}.br")
        copies.update({relative + ".br": br, relative + ".gz": gz})
        if not os.path.exists(br):
            fd, source = tempfile.mkstemp(dir=cache, suffix=".source.tmp")  # Node reads files
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            tmp = source.removesuffix(".source.tmp") + ".br.tmp"
            sources.append(source)
            made.append((tmp, br))
            jobs.append([source, tmp, q])
    try:
        brotli.start(jobs)
        yield Compression(copies, brotli, made)
    finally:
        for path in sources + [tmp for tmp, _ in made]:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass


def _atomic_write(path: str, data: bytes) -> int:
    # A temporary file of its own: two builds sharing the cache (the test workers) wrote the same entry through one
    # `.tmp` name, and the second's rename found it gone.
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return len(data)
