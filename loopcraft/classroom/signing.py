"""The teacher's verdict key: every verdict `class` keeps and every gradebook it (or `merge`) writes carries an
HMAC-SHA256 of its content made with it (store.py's `Signer`), and the key is kept outside every class folder. `merge`
takes, and a resumed `class` keeps, only what a run holding the key wrote: an edited verdict, cell or row is refused
(docs/threat-model.md). Whoever holds the key can sign anything; whoever can only write a shard folder cannot.

The key is a file of 32 or more random bytes: `--key FILE`, or `$XDG_CONFIG_HOME/loopcraft/verdict-key`, made on
first use. A key others can read or change, one inside a folder the run reads or writes, or one too short to be
random bytes is refused."""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from loopcraft.course.errors import LoopcraftError

# SHA-256's output length: RFC 2104, section 3, "keys shorter than L are strongly discouraged".
KEY_BYTES = 32
KEY_CAP = 64 * 1024  # more than any key; less than a file made to fill the memory
MAKE_ONE = "(umask 077 && head -c 32 /dev/urandom > FILE)"
# Others reading the key could sign; others or the group changing it could swap in a key of their own. A group may
# read it: the machines of a job array may share it through their group.
UNSAFE_MODE = stat.S_IROTH | stat.S_IWOTH | stat.S_IWGRP


def default_key_path() -> Path:
    """$XDG_CONFIG_HOME/loopcraft/verdict-key. The XDG Base Directory Specification (specifications.freedesktop.org,
    basedir-spec 0.8): "If $XDG_CONFIG_HOME is either not set or empty, a default equal to $HOME/.config should be
    used"; "If an implementation encounters a relative path in any of these variables it should consider the path
    invalid and ignore it"."""
    config = os.environ.get("XDG_CONFIG_HOME", "")
    base = Path(config) if os.path.isabs(config) else Path.home() / ".config"
    return base / "loopcraft" / "verdict-key"


def _inside(path: Path, folders: list[Path]) -> None:
    where = path.resolve()
    for folder in folders:
        if where.is_relative_to(folder.resolve()):
            raise LoopcraftError(
                f"{path}: the verdict key is inside {folder}, where whoever can write that folder could read it and "
                f"sign what they please; keep it outside every class folder (default: {default_key_path()})"
            )


def _make(path: Path) -> bool:
    """Write a new key at `path` unless one is there; True if this call made it. Atomic and never over another's:
    two runs starting at once on one machine both end up with the key the first one linked into place."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(secrets.token_bytes(KEY_BYTES))
            file.flush()
            os.fsync(file.fileno())
        os.link(tmp, path)
        return True
    except FileExistsError:
        return False
    finally:
        tmp.unlink()


def _read(path: Path) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise LoopcraftError(f"{path}: no such file: make a verdict key with {MAKE_ONE}") from None
    except OSError as exc:
        raise LoopcraftError(f"{path}: cannot read the verdict key ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise LoopcraftError(f"{path}: not a regular file, so no verdict key")
        if info.st_mode & UNSAFE_MODE:
            raise LoopcraftError(
                f"{path}: others can read or change the verdict key (mode {stat.S_IMODE(info.st_mode):04o}), and "
                f"so sign verdicts: chmod 600 {path}"
            )
        key = file.read(KEY_CAP + 1)
    if not KEY_BYTES <= len(key) <= KEY_CAP:
        raise LoopcraftError(
            f"{path}: holds {len(key):,} bytes: a verdict key is {KEY_BYTES} random bytes (or more, up to "
            f"{KEY_CAP:,}); make one with {MAKE_ONE}"
        )
    return key


def verdict_key(path: Path | None, *, folders: list[Path]) -> tuple[bytes, Path | None]:
    """The key at `path`, or the default one (made if there is none yet), refused if it lies in any of `folders`
    (those the run reads or writes) or is not fit to be a key; and the path of the key if this call made it."""
    made = None
    if path is None:
        path = default_key_path()
        _inside(path, folders)
        if not path.exists() and _make(path):
            made = path
    else:
        _inside(path, folders)
    return _read(path), made
