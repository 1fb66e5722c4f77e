"""The build cache: what the slow stages made, kept in `.cache/loopcraft/` in the project and keyed by a hash of
everything it was made from, so that a rebuild redoes only what an edit changed.

Never trusted blindly: every key includes `code_version()` (loopcraft's own code and the versions of the
libraries that shape the site), so entries made by other code are never found; every entry carries a checksum
of its payload and is written atomically, so a corrupt, truncated or unreadable entry is a miss and is made
again. A build keeps only the entries it used, so the folder stays about one site's worth; deleting it is
always safe.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from functools import cache
from importlib import metadata
from pathlib import Path

import grader

FOLDER = ".cache/loopcraft"
# Whatever these produce ends up in the site: a new version may parse, validate, render or encrypt differently.
LIBRARIES = ["ruamel.yaml", "jsonschema", "jinja2", "markupsafe", "markdown-it-py", "pygments", "cryptography"]


@cache
def code_version() -> str:
    """Hash of loopcraft's source, the grader package it imports, the libraries above and Python's version."""
    h = hashlib.sha256(sys.version.encode())
    for name in LIBRARIES:
        h.update(f"\0{name}={metadata.version(name)}".encode())
    for package in (Path(__file__).parents[1], Path(grader.__file__).parent):  # all of loopcraft's wings
        for path in sorted(package.rglob("*.*")):
            if path.suffix in (".py", ".mjs"):
                h.update(b"\0" + path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


class BuildCache:
    """Entries in `root`/.cache/loopcraft/entries/<kind>/<key>: `<sha256 of the payload>\\n<payload>`; and
    `spare_site`, the site the last build replaced, for the next one to stage into (see sitewriter.py)."""

    def __init__(self, root: Path):
        self.folder = root / FOLDER
        self.spare_site = self.folder / "spare-site"
        self._entries = str(self.folder / "entries")  # paths as strings: a build looks up thousands of entries
        self._used: set[str] = set()

    def key(self, kind: str, *parts: str | bytes) -> str:
        """The key of an entry made from `parts` (every input of it) by the current code."""
        h = hashlib.sha256(f"{code_version()}\0{kind}".encode())
        for part in parts:
            data = part.encode() if isinstance(part, str) else part
            h.update(len(data).to_bytes(8, "big") + data)  # length first, so parts cannot run into each other
        return h.hexdigest()

    def get(self, kind: str, key: str) -> bytes | None:
        try:
            with open(self._path(kind, key), "rb") as f:
                checksum, _, payload = f.read().partition(b"\n")
        except OSError:
            return None
        if checksum != hashlib.sha256(payload).hexdigest().encode():
            return None
        return payload

    def put(self, kind: str, key: str, payload: bytes) -> None:
        path = self._path(kind, key)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=f"{key}.", suffix=".tmp")
            with os.fdopen(fd, "wb") as f:
                f.write(hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written only makes the next build slower

    def get_json(self, kind: str, key: str):
        payload = self.get(kind, key)
        return None if payload is None else json.loads(payload)

    def put_json(self, kind: str, key: str, value) -> None:
        self.put(kind, key, json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))

    def prune(self) -> None:
        """Delete every entry the build did not use (and any temporary file a killed build left)."""
        try:
            with os.scandir(self._entries) as kinds:
                for kind in kinds:
                    with os.scandir(kind.path) as entries:
                        for entry in entries:
                            if entry.path not in self._used:
                                os.unlink(entry.path)
        except OSError:
            pass  # best effort: the folder may be gone, or hold something other than entries

    def _path(self, kind: str, key: str) -> str:
        path = os.path.join(self._entries, kind, key)
        self._used.add(path)
        return path
