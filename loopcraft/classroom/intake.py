"""Intake: the only code that touches what learners handed in. It turns a class's submissions into plain records
(`Learner`: an id, a display name, per challenge a source text or the reason there is none) and applies every
rule about hostile input here, in one place; nothing downstream opens a learner's file.

The rules:
- Only regular files are read: a link (to a classmate's file, the reference solution, /etc/passwd or
  /proc/self/mem), a device, a FIFO or a folder where a file should be is that submission's error, never followed.
  Files are opened relative to their folder's descriptor with O_NOFOLLOW and checked with fstat, so a file swapped
  for a link meanwhile is refused too.
- Sizes are capped before reading: SOURCE_BYTES for a solution, PROGRESS_BYTES for a progress file.
- Text is decoded strictly (UTF-8, an optional BOM): an undecodable file is that learner's error.
- Every learner name is taken whatever its bytes (`printable.name_from_bytes`: escaped where not UTF-8, NFC,
  controls escaped); learners whose names become the same are each an error row, and the others go on.
- A progress file that fails to parse or to match schemas/progress.schema.json, for any reason (depth, size,
  types), is that learner's error.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import jsonschema

from ..errors import LoopcraftError
from ..exercises import Exercise
from ..printable import name_from_bytes
from ..project import INSTALL

SOURCE_BYTES = 256 * 1024
CODE_PREFIX = "loopcraft:code:"


class Refused(Exception):
    """A submission (or a learner's whole hand-in) that cannot be taken: the message is for the learner."""


@dataclass(frozen=True)
class Source:
    """One learner's submission of one challenge: its text, or why there is none to grade (`error`)."""

    origin: str  # where it came from, printable: "alice/limit.py", "alice.json", a zip entry's name
    text: str | None = None
    error: str | None = None


@dataclass
class Learner:
    id: str  # unique in the class, printable: the gradebook's key and (file_name'd) the verdicts' folder
    name: str  # as the teacher reads it
    origin: str  # what it was read from: "alice/", "alice.json", a zip's folder
    sources: dict[str, Source] = field(default_factory=dict)  # by challenge slug; absent: missing
    error: str | None = None  # the whole hand-in could not be taken: every challenge is an error
    notes: list[str] = field(default_factory=list)  # worth telling the teacher (e.g. which resubmission was kept)
    lms: dict[str, str] = field(default_factory=dict)  # ids the learner has in an LMS, to match its gradebook


def decode(data: bytes, origin: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Refused(
            f"{origin}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8 and hand it in again"
        ) from None


def _too_big(origin: str, size: int, cap: int) -> Refused:
    return Refused(f"{origin}: {size:,} bytes, over the {cap:,} bytes a submission may have")


def read_regular(dir_fd: int, name: str, origin: str, cap: int) -> bytes:
    """The bytes of the regular file `name` in the folder open as `dir_fd`, at most `cap` of them."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # O_NOFOLLOW met a link
            raise Refused(f"{origin}: a link; only regular files are read") from None
        raise Refused(f"{origin}: could not be opened ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refused(f"{origin}: not a regular file; only regular files are read")
        if info.st_size > cap:
            raise _too_big(origin, info.st_size, cap)
        chunks, size = [], 0
        while size <= cap:
            chunk = os.read(fd, min(1 << 16, cap + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > cap:  # it grew while being read
            raise _too_big(origin, size, cap)
        return b"".join(chunks)
    finally:
        os.close(fd)


_PROGRESS_SCHEMA = json.loads((INSTALL / "schemas" / "progress.schema.json").read_text(encoding="utf-8"))
PROGRESS_BYTES = _PROGRESS_SCHEMA["maxBytes"]  # the site's importer refuses a larger file too


def progress_codes(data: bytes, origin: str) -> dict[str, str]:
    """{"TRACK/SLUG": code} from a progress file the site exported, read by schemas/progress.schema.json's rules
    (the site's importer, frontend/src/transfer.js, applies the same)."""
    text = decode(data, origin)
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise Refused(f"{origin}: not a progress file: not JSON ({type(exc).__name__}: {str(exc)[:200]})") from None
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(_PROGRESS_SCHEMA).iter_errors(doc))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the top level"
        raise Refused(f"{origin}: not a progress file this grader reads: at {where[:200]}: {error.message[:300]}")
    return {key[len(CODE_PREFIX) :]: code for key, code in doc["entries"].items() if key.startswith(CODE_PREFIX)}


def _source_from_progress(codes: dict[str, str], ex: Exercise, origin: str) -> Source | None:
    code = codes.get(f"{ex.track}/{ex.slug}")
    if code is None:
        return None
    where = f"{origin} ({ex.slug})"
    if len(code.encode("utf-8", "surrogatepass")) > SOURCE_BYTES:
        return Source(where, error=str(_too_big(where, len(code.encode("utf-8", "surrogatepass")), SOURCE_BYTES)))
    return Source(where, text=code)


def _entries(dir_fd: int) -> list[tuple[bytes, os.stat_result]]:
    """(name, lstat) of every entry of the folder open as `dir_fd`, hidden ones (".name") left out."""
    found = []
    for name in os.listdir(dir_fd):
        raw = os.fsencode(name)
        if raw.startswith(b"."):
            continue
        try:
            found.append((raw, os.stat(name, dir_fd=dir_fd, follow_symlinks=False)))
        except OSError:
            continue  # gone meanwhile
    return sorted(found)


def _learner_folder(top_fd: int, raw: bytes, exercises: list[Exercise]) -> Learner:
    name = name_from_bytes(raw)
    learner = Learner(id=name, name=name, origin=f"{name_from_bytes(raw, normalise=False)}/")
    try:
        fd = os.open(raw, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=top_fd)
    except OSError as exc:
        learner.error = f"{name}/: could not be opened ({exc.strerror})"
        return learner
    try:
        present = {raw_name: info for raw_name, info in _entries(fd)}
        for ex in exercises:
            file = f"{ex.slug}.py".encode()
            if file not in present:
                continue
            origin = f"{name}/{ex.slug}.py"
            try:
                text = decode(read_regular(fd, os.fsdecode(file), origin, SOURCE_BYTES), origin)
                learner.sources[ex.slug] = Source(origin, text=text)
            except Refused as exc:
                learner.sources[ex.slug] = Source(origin, error=str(exc))
    finally:
        os.close(fd)
    return learner


def _learner_progress(top_fd: int, raw: bytes, exercises: list[Exercise]) -> Learner:
    file = name_from_bytes(raw, normalise=False)
    name = name_from_bytes(raw[: -len(b".json")])
    learner = Learner(id=name, name=name, origin=file)
    try:
        codes = progress_codes(read_regular(top_fd, os.fsdecode(raw), file, PROGRESS_BYTES), file)
    except Refused as exc:
        learner.error = str(exc)
        return learner
    for ex in exercises:
        source = _source_from_progress(codes, ex, file)
        if source is not None:
            learner.sources[ex.slug] = source
    return learner


def read_folder(folder: Path, exercises: list[Exercise]) -> list[Learner]:
    """The learners of a class handed in as a folder: a folder per learner holding SLUG.py files, or a progress
    file per learner (LEARNER.json). Anything else at the top is left alone; a link there is its learner's error."""
    try:
        top_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise LoopcraftError(
            f"{folder}: not a folder ({exc.strerror}); it should hold a folder or a progress file per learner"
        ) from None
    try:
        learners = []
        for raw, info in _entries(top_fd):
            if stat.S_ISDIR(info.st_mode):
                learners.append(_learner_folder(top_fd, raw, exercises))
            elif raw.endswith(b".json") and len(raw) > len(b".json"):
                learners.append(_learner_progress(top_fd, raw, exercises))
            elif stat.S_ISLNK(info.st_mode):
                name = name_from_bytes(raw)
                learners.append(Learner(id=name, name=name, origin=name, error=f"{name}: a link; it was not followed"))
    finally:
        os.close(top_fd)
    if not learners:
        raise LoopcraftError(f"{folder}: no learner folders or progress files in it")
    return distinct(learners)


def distinct(learners: Iterable[Learner]) -> list[Learner]:
    """The learners sorted by id, every id unique: learners whose ids came out the same (names that differ only by
    Unicode normalisation, `bob/` beside `bob.json`) each become an error row of their own, "ID #1", "ID #2"..."""
    by_id: dict[str, list[Learner]] = {}
    for learner in learners:
        by_id.setdefault(learner.id, []).append(learner)
    out = []
    for same in by_id.values():
        if len(same) == 1:
            out.extend(same)
            continue
        # The origins as ASCII: names that read the same are told apart only by their code points.
        origins = ", ".join(learner.origin.encode("ascii", "backslashreplace").decode() for learner in same)
        for number, learner in enumerate(same, 1):
            learner.id = f"{learner.id} #{number}"
            learner.sources = {}
            learner.error = (
                f"{len(same)} hand-ins have names that read the same ({origins}); none of them was graded. "
                "Rename them so that each learner has a name of their own, and grade again"
            )
            out.append(learner)
    return sorted(out, key=lambda learner: learner.id)


def read_solutions(path: Path) -> list[Source]:
    """The instructor's `python -m grader SLUG PATH`: PATH is one solution file, or a folder whose `*.py` files are
    each a solution. Read by the same rules as a class (regular files only, capped, strict UTF-8): a file that
    breaks one is a Source with an error, graded as an error verdict."""
    path = Path(path)
    if path.is_dir() and not path.is_symlink():
        folder, names = path, None
    else:
        folder, names = path.parent, [os.fsencode(path.name)]
    try:
        dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise LoopcraftError(f"{folder}: cannot be read ({exc.strerror})") from None
    try:
        if names is None:
            names = [raw for raw, _ in _entries(dir_fd) if raw.endswith(b".py")]
            if not names:
                raise LoopcraftError(f"{path}: no .py files in this folder")
        elif not os.path.lexists(path):
            raise LoopcraftError(f"{path}: no such file")
        sources = []
        for raw in names:
            origin = str(folder / name_from_bytes(raw))
            try:
                sources.append(
                    Source(origin, text=decode(read_regular(dir_fd, os.fsdecode(raw), origin, SOURCE_BYTES), origin))
                )
            except Refused as exc:
                sources.append(Source(origin, error=str(exc)))
        return sources
    finally:
        os.close(dir_fd)
