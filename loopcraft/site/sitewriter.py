"""Write the site atomically: everything goes into a staging dir beside the output dir, which then replaces it.

A failed build therefore never leaves half a site, and a server keeps serving the old one until the swap.

A rebuild writes mostly what the site already holds, and on a course of a thousand challenges, creating and then
deleting thousands of files and folders would take most of its time. So the site a build replaces is kept as a
spare (in the build cache), and the next build stages into it: a file that already holds the right bytes stays,
one that the current site holds byte for byte is hard-linked from there, any other is written anew, and what
the build did not write is removed before the swap. Every file is compared with what it must hold, so the spare
is reused, never trusted; without one (the first build, or a site on another file system) staging starts empty.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from loopcraft.course.errors import BuildError

# Marks a dir as a Loopcraft build, so `--out` pointing at anything else is never wiped by the swap.
MARKER = ".loopcraft-site"


class StagedSite:
    """The staging dir of a build, and the paths (relative to the site) written into it so far, replacing
    `current`, the site being served (which may not exist)."""

    def __init__(self, staging: Path, current: Path):
        self.written: set[str] = set()
        # Plain strings: a thousand challenges make thousands of files, and pathlib would double the time.
        self._staging, self._current = str(staging), str(current)
        self._dirs = {self._staging}  # made sure of: real folders, not files or links the spare held

    def write(self, relative: str, data: bytes | str) -> None:
        data = data.encode("utf-8") if isinstance(data, str) else data
        path = os.path.join(self._staging, relative)
        self._make_dirs(os.path.dirname(path))
        if not _holds(path, data):
            _remove(path)  # never written into: the spare's file may be a link to one the server still sends
            current = os.path.join(self._current, relative)
            if not (_holds(current, data) and _link(current, path)):
                with open(path, "xb") as f:
                    f.write(data)
        self.written.add(relative)

    def link(self, source: str, relative: str) -> None:
        """Make `relative` a hard link to `source`, a file that is never written into (a cache entry): then
        checking the spare's file is comparing two inodes, not two files. A copy where links cannot be made."""
        path = os.path.join(self._staging, relative)
        self._make_dirs(os.path.dirname(path))
        try:
            kept = os.path.samestat(os.lstat(path), os.stat(source))
        except OSError:
            kept = False
        if not kept:
            _remove(path)
            if not _link(source, path):
                with open(source, "rb") as f:
                    self.write(relative, f.read())
        self.written.add(relative)

    def finish(self) -> None:
        """Remove whatever the spare held that this build did not write."""

        def sweep(folder: str) -> bool:  # True if nothing is left in `folder`
            empty = True
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        if sweep(entry.path):
                            os.rmdir(entry.path)
                        else:
                            empty = False
                    elif entry.path[len(self._staging) + 1 :] in self.written:
                        empty = False
                    else:
                        os.unlink(entry.path)
            return empty

        sweep(self._staging)

    def _make_dirs(self, folder: str) -> None:
        if folder in self._dirs:
            return
        self._make_dirs(os.path.dirname(folder))
        try:
            if not stat.S_ISDIR(os.lstat(folder).st_mode):
                os.unlink(folder)  # the spare held a file (or a link) where this site has a folder
                os.mkdir(folder)
        except FileNotFoundError:
            os.mkdir(folder)
        self._dirs.add(folder)


def _holds(path: str, data: bytes) -> bool:
    """Whether `path` is a regular file (not a link to one) holding exactly `data`."""
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
            return False
        with open(path, "rb") as f:
            return f.read() == data
    except OSError:
        return False


def _link(source: str, path: str) -> bool:
    try:
        os.link(source, path)
    except OSError:  # no hard links here (another file system, too many links)
        return False
    return True


def _remove(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)  # the spare held a folder where this site has a file
    else:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


@contextmanager
def staged_site(out: Path, spare: Path | None = None) -> Iterator[StagedSite]:
    """Yield a staging site, made from `spare` if there is one; if the block succeeds it becomes `out` and the
    site it replaces becomes the spare, otherwise it is deleted."""
    out = out.resolve()
    if out.exists() and not (out.is_dir() and (not any(out.iterdir()) or (out / MARKER).is_file())):
        raise BuildError(f"refusing to replace {out}: it is not a site built by Loopcraft (no {MARKER} file)")
    out.parent.mkdir(parents=True, exist_ok=True)
    # Same parent, so the final renames stay on one file system and are atomic.
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        if spare:
            _rename(spare, staging)  # onto the empty staging dir; taken by one build only, as renames are atomic
        staging.chmod(0o755)  # mkdtemp makes it private; a web server must read the site
        site = StagedSite(staging, out)
        yield site
        site.write(MARKER, "Built by Loopcraft's build.py; the next build replaces this folder.\n")
        site.finish()
        _swap(staging, out, spare)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _swap(staging: Path, out: Path, spare: Path | None) -> None:
    if not out.exists():
        staging.rename(out)
        if spare and not spare.exists():
            # No site replaced to keep: link one (cheap), or the next build would make every folder again.
            try:
                shutil.copytree(out, spare, copy_function=os.link)
            except (OSError, shutil.Error):
                shutil.rmtree(spare, ignore_errors=True)
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
    if not (spare and _rename(old, spare)):
        shutil.rmtree(old)


def _rename(source: Path, target: Path) -> bool:
    """Move a folder, if it can be (False: no source, another file system, or a spare already there)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        os.rename(source, target)
    except OSError:
        return False
    return True
