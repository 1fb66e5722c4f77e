"""The project a command works on: made once by each entry point (build.py, `python -m grader`, the tests) and
passed down, so that every part agrees on where things are.

`root` holds the course (`exercises/`) and, for a full project, its own `templates/`, `frontend/` and `grader/`.
A course folder without a `grader/` (an author's course kept apart, a test's fixture) is graded with the grader
of this installation. The Node runner, Pyodide (`node_modules/`) and the memory snapshots it restores always
come from the installation: a snapshot is keyed by everything it is made from, so every project shares them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

INSTALL = Path(__file__).resolve().parents[2]  # loopcraft/course/project.py
# Host-side entry points of the grader package: Pyodide never loads them.
HOST_ONLY = {"__main__.py"}


@dataclass(frozen=True)
class Project:
    root: Path = INSTALL
    # Where the runner's memory snapshots are kept (a test gives a folder of its own).
    snapshots: Path = field(default=INSTALL / ".cache" / "loopcraft" / "pyodide-snapshot")

    def __post_init__(self) -> None:
        object.__setattr__(self, "root", Path(self.root).resolve())

    @property
    def grader_root(self) -> Path:
        """The folder whose `grader/` package Pyodide loads: the project's own, or the installation's."""
        return self.root if (self.root / "grader").is_dir() else INSTALL

    @cached_property
    def grader_files(self) -> list[str]:
        """The grader package as Pyodide loads it (browser and Node alike), e.g. ["grader/__init__.py", ...]."""
        package = self.grader_root / "grader"
        return sorted(
            path.relative_to(self.grader_root).as_posix()
            for path in package.rglob("*.py")
            if "__pycache__" not in path.parts and path.relative_to(package).as_posix() not in HOST_ONLY
        )

    @cached_property
    def grader_hash(self) -> str:
        """SHA-256 of the grader's files, names and bytes: part of every key a verdict or snapshot is kept under."""
        h = hashlib.sha256()
        for name in self.grader_files:
            h.update(name.encode() + b"\0" + (self.grader_root / name).read_bytes() + b"\0")
        return h.hexdigest()

    @property
    def cache(self) -> Path:
        """The build cache (loopcraft/course/cache.py)."""
        return self.root / ".cache" / "loopcraft"

    @property
    def pyodide(self) -> Path:
        return INSTALL / "node_modules" / "pyodide"

    @property
    def frontend(self) -> Path:
        """The installation's front end: the Node runner and the worker code it shares with the page."""
        return INSTALL / "frontend"
