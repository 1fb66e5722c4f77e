"""Write the site atomically: everything goes into a temp dir beside the output dir, which then replaces it.

A failed build therefore never leaves half a site, and a server keeps serving the old one until the swap.
"""
from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import BuildError

# Marks a dir as a Loopcraft build, so `--out` pointing at anything else is never wiped by the swap.
MARKER = ".loopcraft-site"


@contextmanager
def staged_site(out: Path) -> Iterator[Path]:
    """Yield an empty staging dir; if the block succeeds it becomes `out`, otherwise it is deleted."""
    out = out.resolve()
    if out.exists() and not (out.is_dir() and (not any(out.iterdir()) or (out / MARKER).is_file())):
        raise BuildError(f"refusing to replace {out}: it is not a site built by Loopcraft (no {MARKER} file)")
    out.parent.mkdir(parents=True, exist_ok=True)
    # Same parent, so the final renames stay on one file system and are atomic.
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        staging.chmod(0o755)  # mkdtemp makes it private; a web server must read the site
        yield staging
        (staging / MARKER).write_text("Built by Loopcraft's build.py; the next build replaces this folder.\n")
        _swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _swap(staging: Path, out: Path) -> None:
    if not out.exists():
        staging.rename(out)
        return
    # Two renames: the old site is gone only for the instant between them, and comes back if the second fails.
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    old.rmdir()
    out.rename(old)
    try:
        staging.rename(out)
    except OSError:
        old.rename(out)
        raise
    shutil.rmtree(old)


def write_text(site: Path, relative: str, text: str) -> None:
    path = site / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def copy_file(source: Path, site: Path, relative: str) -> None:
    path = site / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, path)
