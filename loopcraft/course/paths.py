"""Paths as problems show them, and containment checks for paths already resolved.

Strings rather than pathlib where a course's thousands of files go through them: pathlib would double the time
it takes to load one.
"""

from __future__ import annotations

import os
from pathlib import Path


def rel_path(path: Path, root: Path) -> Path:
    """`path` as problems show it: relative to the (resolved) repository root when inside it."""
    return rel_resolved(str(path.resolve()), root)


def rel_resolved(path: str, root: Path) -> Path:
    """rel_path of a resolved path, given as a string (cheaper than pathlib's relative_to, loading a course)."""
    prefix = os.path.join(root, "")
    if path.startswith(prefix):
        return Path(path[len(prefix) :])
    return Path(".") if path == str(root) else Path(path)


def inside(path: str, folder: str) -> bool:
    """Path.is_relative_to for resolved paths given as strings."""
    return path == folder or path.startswith(os.path.join(folder, ""))


def resolve_in(real_dir: str, relative: str) -> str:
    """`os.path.realpath(real_dir/relative)` for a folder already resolved, looking up only the components of
    `relative`: realpath looks up every one from the root, which made up a third of loading a course."""
    path = "/" if relative.startswith("/") else real_dir
    for part in relative.split("/"):
        if part == "..":
            path = os.path.dirname(path)
        elif part not in ("", "."):
            path = os.path.join(path, part)
            if os.path.islink(path):
                return os.path.realpath(os.path.join(real_dir, relative))  # rare: leave it to the general case
    return path
