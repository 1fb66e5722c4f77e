"""The memory snapshot the site ships: Python started and the grader imported, made as the site is built, under Node
(frontend/snapshot-maker.mjs), from the Pyodide files the site ships. A first visit restores it instead of booting
Python (frontend/src/worker.js); the page's worker learns its file and hash from the build (`define`).

The maker is reproducible (the same inputs give the same bytes), and what it makes is kept beside the runner's
snapshots (`Project.snapshots`), keyed by everything it is made from: every build of every project with this Pyodide
and grader shares one, made once (about 2 s), and its precompressed copies are made once too (they are cached by
content, loopcraft/site/precompress.py).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from loopcraft.course.errors import BuildError
from loopcraft.course.project import Project
from loopcraft.running.pyodide import find_node, keep_recent, used

MAKER = "frontend/snapshot-maker.mjs"
# What shapes the snapshot besides Pyodide and the grader: the maker and the code it runs.
MADE_BY = [MAKER, "frontend/src/worker-core.js", "frontend/src/snapshot-format.js"]
MAKE_LIMIT_S = 300  # it takes seconds; a maker that hangs must not hang the build


@dataclass(frozen=True)
class Shipped:
    """The snapshot as the site ships it: `file`, its name in py/; `data`, its bytes (snapshot-format.js's form)."""

    file: str
    data: bytes

    @property
    def integrity(self) -> str:
        """The file's SHA-256 as Subresource Integrity: the page's fetch of it fails on any other bytes."""
        return "sha256-" + base64.b64encode(hashlib.sha256(self.data).digest()).decode()

    @property
    def length(self) -> int:
        """The length of the snapshot itself (snapshot-format.js keeps it in the first four bytes, little-endian)."""
        return int.from_bytes(self.data[:4], "little")

    def define(self) -> str:
        """esbuild's argument that tells the page's worker (worker.js, __SNAPSHOT__) where the snapshot is, its hash
        and its length."""
        value = {"file": self.file, "integrity": self.integrity, "length": self.length}
        return f"--define:__SNAPSHOT__={json.dumps(value)}"


def shipped_snapshot(project: Project, pyodide: Path) -> Shipped:
    """The site's snapshot, made from `pyodide` (the folder of the Pyodide files the site ships): the one kept for
    these inputs, else made now (a BuildError if it cannot be)."""
    node = find_node(project)
    kept = project.snapshots / f"site-{_key(project, pyodide)}.bin"
    try:
        data = kept.read_bytes()
        used(kept)
    except FileNotFoundError:
        data = _make(node, project, pyodide, kept)
    # Named after its bytes: a page never gets another build's snapshot from a cache under the name it asks for.
    return Shipped(f"snapshot-{hashlib.sha256(data).hexdigest()[:16]}.bin", data)


def _key(project: Project, pyodide: Path) -> str:
    h = hashlib.sha256()
    for name in MADE_BY:
        h.update(b"\0" + name.encode() + b"\0" + (project.frontend.parent / name).read_bytes())
    h.update(project.grader_hash.encode())
    h.update((pyodide / "package.json").read_bytes())
    return h.hexdigest()[:32]


def _make(node: str, project: Project, pyodide: Path, kept: Path) -> bytes:
    kept.parent.mkdir(parents=True, exist_ok=True)
    tmp = kept.with_name(f"{kept.name}.{os.getpid()}.tmp")
    command = [
        node,
        str(project.frontend.parent / MAKER),
        "--pyodide",
        str(pyodide.resolve()),
        "--grader-root",
        str(project.grader_root),
        "--grader-files",
        ",".join(project.grader_files),
        "--out",
        str(tmp),
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=MAKE_LIMIT_S)
        if done.returncode != 0:
            raise BuildError(f"making the site's memory snapshot of Python failed:\n{done.stderr.strip()}")
        data = tmp.read_bytes()
        os.replace(tmp, kept)  # whole or not at all; builds that race write the same bytes
        keep_recent(kept)
    except subprocess.TimeoutExpired:
        raise BuildError(f"making the site's memory snapshot of Python took over {MAKE_LIMIT_S} s") from None
    finally:
        tmp.unlink(missing_ok=True)
    return data
