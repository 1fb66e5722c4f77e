"""The verdict store, the class run's stage between identity and grading, and its only state: one file per
(learner, challenge) in OUT/verdicts/, each kept under a key that hashes everything the verdict was made from (the
submission's text or the reason it could not be read, the challenge, the grader). `VerdictStore.receive` takes a
run's hand-ins: a verdict kept, one stored as refused, or a submission to grade. A run that crashed resumes where it
stopped, an unchanged submission is never graded twice, a shard fills part of a store, and `merge` is the union of
stores.

A record: {"key", "run", "learner", "challenge", "origin", "source", "result", "signature"}; `run` is the class run it
was graded in (its gradebook's class.run); `source` is the code handed in (null when it could not be read: the class
report compares submissions), `result` is `RunResult.to_dict()` (grader/results.py decides what it may hold: a
private case's name and status only, every part bounded), `signature` the teacher's key's HMAC of the rest
(`Signer`, which signs the gradebook too, with signing.py's key). Written compact and atomically; read back validated
against schemas/verdict.schema.json, so a damaged or foreign file is a miss (grading again) or, in `merge`, a clear
error. A record is trusted (kept by a resumed run, taken by `merge`) only as written: its bytes those the store
writes for it, its signature the key's.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import json
import os
import stat
import threading
from dataclasses import dataclass, field
from pathlib import Path

from grader.results import RunResult
from loopcraft.course.cases import case_key
from loopcraft.course.course import Exercise
from loopcraft.course.errors import LoopcraftError
from loopcraft.course.project import Project
from loopcraft.course.schemas import validation_error

from .files import NO_LINK_FOLDER, Refused, read_regular
from .intake import Learner, Source
from .printable import file_name, one_line

# What a kept verdict may weigh: far more than any this store writes (a result of SUBMISSION_CHARS characters, at
# most 4 bytes each, and a source of SOURCE_BYTES with its escapes: about 6 MB), far less than a FIFO, /dev/zero or
# a file made to fill the memory that a folder posing as a shard could hold in its place.
VERDICT_BYTES = 16 * 1024 * 1024


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def read_json(path: Path, cap: int, what: str):
    """A class file written by this grader (a verdict, a gradebook), read back as intake reads a learner's: a regular
    file only (a link, a FIFO, a device refused), at most `cap` bytes, UTF-8 (lone surrogates as the store writes
    them) and strict JSON (no NaN or Infinity, which no browser's JSON reads). A LoopcraftError `path: message` if it
    is not one."""
    return _read_json(path, cap, what)[0]


def _read_json(path: Path, cap: int, what: str) -> tuple[object, str]:
    """`read_json`'s value, and the text it was read from."""
    try:
        text = read_regular(None, str(path), str(path), cap).decode("utf-8", "surrogatepass")
        return json.loads(text, parse_constant=_no_constant), text
    except Refused as exc:  # its reason, said as a learner's file's would be: how big it is, that it is a link...
        raise LoopcraftError(f"{path}: no readable {what}: {str(exc).removeprefix(f'{path}: ')}") from None
    except (ValueError, RecursionError) as exc:
        raise LoopcraftError(f"{path}: no readable {what} ({type(exc).__name__}: {str(exc)[:200]})") from None


# Every write and removal of `class` and `merge` is inside --out, by a name relative to it, through folders opened
# one by one without following a link (as intake reads): a link planted in --out (as --out itself, a folder or a
# file, to 3 levels: OUT/verdicts/LEARNER/SLUG.json) is refused, naming it, before anything is written
# (`refuse_links`), and a write that meets one later refuses too; nothing is written or removed outside --out.
OUT_DEPTH = 3


def _planted(where: Path, done: str = "nothing was written through it") -> LoopcraftError:
    return LoopcraftError(
        f"{where}: a link, planted in the output folder: class and merge write only files and folders of their own "
        f"there, never through a link; remove it ({done})"
    )


def _open_folder(path: Path, dir_fd: int | None = None, name: str | None = None, make: bool = False) -> int:
    """The folder `name` in `dir_fd` (or `path` itself), opened without following a link; made first if `make`."""
    target = str(path) if name is None else name
    if make:
        try:
            os.mkdir(target, 0o755, dir_fd=dir_fd)
        except FileExistsError:
            pass
    try:
        return os.open(target, NO_LINK_FOLDER, dir_fd=dir_fd)
    except OSError as exc:
        # O_NOFOLLOW with O_DIRECTORY: a link is ENOTDIR, or ELOOP.
        if exc.errno == errno.ELOOP or (exc.errno == errno.ENOTDIR and os.path.islink(path)):
            raise _planted(path) from None
        if exc.errno == errno.ENOTDIR:
            raise LoopcraftError(f"{path}: not a folder, where class and merge keep one") from None
        raise LoopcraftError(f"{path}: cannot be opened ({exc.strerror})") from None


def _parts(name: str) -> list[str]:
    parts = name.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise ValueError(f"{name!r} is not a name inside the output folder")
    return parts


def _open_inside(out: Path, folders: list[str], make: bool) -> int:
    """The folder OUT/folders[0]/folders[1]/... opened, each part without following a link; made if `make`."""
    if make:
        out.parent.mkdir(parents=True, exist_ok=True)
    fd, where = _open_folder(out, make=make), out
    try:
        for part in folders:
            where = where / part
            inner = _open_folder(where, fd, part, make)
            os.close(fd)
            fd = inner
    except BaseException:
        os.close(fd)
        raise
    return fd


def _folder_of(out: Path, name: str, make: bool) -> tuple[int, str]:
    """The folder holding `name` (relative to `out`) opened, and its last part."""
    *folders, last = _parts(name)
    return _open_inside(out, folders, make), last


def write_atomically(out: Path, name: str, data: str | bytes) -> None:
    """OUT/name (`name` relative to the output folder `out`, parts split by "/") written whole: a new file of its
    own, renamed into place; a link or a folder in its place is refused."""
    fd, last = _folder_of(out, name, make=True)
    try:
        tmp = f".{last}.{os.getpid()}.{threading.get_ident()}.tmp"
        made = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644, dir_fd=fd)
        with os.fdopen(made, "wb") as file:
            file.write(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
        try:
            there = os.stat(last, dir_fd=fd, follow_symlinks=False).st_mode
        except FileNotFoundError:
            there = None
        if there is not None and not stat.S_ISREG(there):
            os.unlink(tmp, dir_fd=fd)
            raise _planted(out / name) if stat.S_ISLNK(there) else LoopcraftError(f"{out / name}: not a file")
        # A rename replaces the name, never what a link there would point to.
        os.replace(tmp, last, src_dir_fd=fd, dst_dir_fd=fd)
    finally:
        os.close(fd)


def remove(out: Path, name: str) -> bool:
    """Remove OUT/name if it is there (a link there is removed itself, never what it points to); whether it was."""
    if not out.exists() and not out.is_symlink():
        return False
    fd, last = _folder_of(out, name, make=False)
    try:
        os.unlink(last, dir_fd=fd)
        return True
    except FileNotFoundError:
        return False
    finally:
        os.close(fd)


def read_inside(out: Path, name: str, cap: int) -> bytes:
    """The bytes of the regular file OUT/name (a file this run wrote), read through no link."""
    fd, last = _folder_of(out, name, make=False)
    try:
        return read_regular(fd, last, str(out / name), cap)
    except Refused as exc:
        raise LoopcraftError(str(exc)) from None
    finally:
        os.close(fd)


def names_in(out: Path, folder: str) -> list[str]:
    """The names in the folder OUT/folder (none if there is no such folder)."""
    if not (out / folder).exists() and not (out / folder).is_symlink():
        return []
    fd = _open_inside(out, _parts(folder), make=False)
    try:
        return sorted(os.listdir(fd))
    finally:
        os.close(fd)


def refuse_links(out: Path) -> None:
    """Before `class` or `merge` writes anything: a LoopcraftError naming every link in the output folder (itself,
    or anything in it, OUT_DEPTH levels down), if there is one."""
    if out.is_symlink():
        raise _planted(out, "nothing was written")
    if not out.exists():
        return
    found: list[Path] = []

    def walk(fd: int, where: Path, depth: int) -> None:
        with os.scandir(fd) as entries:
            for entry in entries:
                if entry.is_symlink():
                    found.append(where / entry.name)
                elif depth < OUT_DEPTH and entry.is_dir(follow_symlinks=False):
                    inner = _open_folder(where / entry.name, fd, entry.name)
                    try:
                        walk(inner, where / entry.name, depth + 1)
                    finally:
                        os.close(inner)

    fd = _open_folder(out)
    try:
        walk(fd, out, 1)
    finally:
        os.close(fd)
    if found:
        shown = ", ".join(map(str, found[:10])) + (f" and {len(found) - 10} more" if len(found) > 10 else "")
        raise LoopcraftError(
            f"{out}: holds {len(found)} link{'s' if len(found) != 1 else ''} ({shown}): class and merge write only "
            "files and folders of their own in the output folder, never through a link; remove them, or choose "
            "another --out (nothing was written)"
        )


def compact(doc) -> str:
    """JSON as every class output writes it: no indentation, which would multiply a deep value's size."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def fingerprint(ex: Exercise, project: Project) -> str:
    """Everything about a challenge that a verdict depends on, hashed (with the grader, results.py included)."""
    # A case as its run spec and expectation have it: its values may be sets, or have keys json.dumps cannot sort.
    cases = [case_key(c, ex.entry) for c in ex.cases]
    text = json.dumps([ex.entry, ex.sandbox_source, ex.time_limit_seconds, cases], sort_keys=True)
    return hashlib.sha256((project.grader_hash + text).encode("utf-8")).hexdigest()


def key(fingerprint_: str, source: Source) -> str:
    """A submission's key: the challenge's fingerprint and what was handed in (its text, or why it has none)."""
    given = f"text\0{source.text}" if source.error is None else f"refused\0{source.error}"
    return hashlib.sha256(f"{fingerprint_}\0{given}".encode("utf-8", "surrogatepass")).hexdigest()


def _same(made: str, given) -> bool:
    """Whether `given` is the signature `made`, in constant time (a forger learns nothing from how long it took)."""
    return isinstance(given, str) and given.isascii() and hmac.compare_digest(made, given)


def _message(kind: str, content: list) -> bytes:
    """What is signed: a label of the kind and version, then the content, as canonical JSON (keys sorted, ASCII, no
    spaces: the same bytes wherever the same content is read)."""
    return json.dumps([f"loopcraft-{kind}", 1, *content], sort_keys=True, ensure_ascii=True, separators=(",", ":"))


class Signer:
    """Signs and checks with the teacher's key, for the course's challenges (`fingerprints`, by slug: what a verdict
    of each depends on, `fingerprint`)."""

    def __init__(self, key: bytes, fingerprints: dict[str, str]):
        self._key = key
        self.fingerprints = fingerprints

    def _mac(self, message: str) -> str:
        return hmac.new(self._key, message.encode("ascii"), hashlib.sha256).hexdigest()

    def _record_mac(self, record: dict) -> str | None:
        fingerprint = self.fingerprints.get(record["challenge"])
        if fingerprint is None:  # no challenge of this course: nothing this course's runs signed
            return None
        source = record["source"]
        digest = None if source is None else hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()
        # The learner and challenge too: a signed verdict copied to another learner's file would be theirs.
        # And the class run: a verdict of another class graded with this key is not this class's.
        content = [fingerprint, record["key"], record["run"], record["learner"], record["challenge"], record["origin"]]
        return self._mac(_message("verdict", [*content, digest, record["result"]]))

    def sign_record(self, record: dict) -> dict:
        return {**record, "signature": self._record_mac(record)}

    def record_verifies(self, record: dict) -> bool:
        try:
            made = self._record_mac(record)
        except RecursionError:  # deeper than any result the grader writes: not one it signed
            return False
        return made is not None and _same(made, record.get("signature"))

    def _book_mac(self, doc: dict) -> str:
        return self._mac(_message("gradebook", [doc["class"], doc["challenges"], doc["learners"]]))

    def sign_book(self, doc: dict) -> dict:
        return {**doc, "signature": self._book_mac(doc)}

    def book_verifies(self, doc: dict) -> bool:
        try:
            return _same(self._book_mac(doc), doc.get("signature"))
        except RecursionError:
            return False


UNSIGNED = "not signed with the verdict key"


@dataclass(frozen=True)
class Submission:
    learner: Learner
    exercise: Exercise
    source: Source
    key: str


@dataclass
class Received:
    """What the store makes of a run's hand-ins: the submissions still to grade, how many verdicts it kept, the
    refused (nothing to run: the grading stage stores their reason as their verdict), the kept ones no run holding the
    key wrote as they are (graded again), and what the teacher is told of the learners and hand-ins that cannot be
    graded."""

    todo: list[Submission] = field(default_factory=list)
    kept: int = 0
    refused: list[Submission] = field(default_factory=list)
    unsigned: list[Path] = field(default_factory=list)
    said: list[str] = field(default_factory=list)


class VerdictStore:
    def __init__(self, out: Path, signer: Signer | None = None, run: str | None = None):
        """The store in OUT/verdicts/; `signer` signs what it puts (`class`, `merge`) and checks what it keeps; `run`,
        the class run it puts verdicts of (a store only read needs none)."""
        self.out = out
        self.run = run
        self.folder = out / "verdicts"
        self.signer = signer

    def name(self, learner_id: str, slug: str) -> str:
        """The record's name inside the output folder."""
        return f"verdicts/{file_name(learner_id)}/{slug}.json"

    def path(self, learner_id: str, slug: str) -> Path:
        return self.out / self.name(learner_id, slug)

    def _load(self, learner_id: str, slug: str) -> tuple[dict, str]:
        path = self.path(learner_id, slug)
        record, text = _read_json(path, VERDICT_BYTES, "verdict")
        problem = validation_error(record, "verdict.schema.json")
        if problem is None and (record["learner"], record["challenge"]) != (learner_id, slug):
            problem = f"it is the verdict of {record['learner']!r} for {record['challenge']!r}"
        if problem:
            raise LoopcraftError(f"{path}: not a verdict of this class: {problem}")
        return record, text

    def read(self, learner_id: str, slug: str) -> dict:
        """The stored record; raises LoopcraftError (`path: message`) if it is missing or not a verdict."""
        return self._load(learner_id, slug)[0]

    def read_signed(self, learner_id: str, slug: str, signer: Signer) -> tuple[dict, bool]:
        """The stored record (a LoopcraftError if it is missing or not a verdict), and whether `signer`'s key signed
        it exactly as it is: its signature verifies, and its bytes are those the store writes for it (so that no
        byte of a signed record can change unseen, not even one JSON would read the same)."""
        record, text = self._load(learner_id, slug)
        return record, text == compact(record) + "\n" and signer.record_verifies(record)

    def run_result(self, learner_id: str, slug: str) -> RunResult:
        """The stored verdict's result; raises LoopcraftError (`path: message`) if there is none to read."""
        try:
            return RunResult.from_dict(self.read(learner_id, slug)["result"])
        except ValueError as exc:
            raise LoopcraftError(f"{self.path(learner_id, slug)}: not a verdict of this grader ({exc})") from None

    def kept(self, learner_id: str, slug: str, key_: str) -> bool | None:
        """Whether the stored verdict made from exactly this (`key_`) may be kept: True if this store's key signed it,
        False if not (edited, or another key's: to be graded again, and said); None if there is none made from this
        (none yet, damaged, or made from another hand-in or version of the challenge: to be graded)."""
        try:
            record, signed = self.read_signed(learner_id, slug, self.signer)
        except LoopcraftError:
            return None
        return signed if record["key"] == key_ else None

    def adopt(self, learner_id: str, slug: str) -> None:
        """A kept verdict made one of this store's class run, signed again if it was another's: it is the verdict of
        exactly the hand-in this run read (its key says so), whichever run graded it."""
        record = self.read(learner_id, slug)
        if record["run"] != self.run:
            record = self.signer.sign_record({**record, "run": self.run})
            write_atomically(self.out, self.name(learner_id, slug), compact(record) + "\n")

    def receive(self, learners: list[Learner], exercises: list[Exercise]) -> Received:
        """Each learner's hand-in of each challenge: its verdict kept (made from exactly it and signed by this store's
        key: adopted into this run), refused (nothing to run: its verdict is the reason), or to grade."""
        out = Received()
        for learner in learners:
            if learner.error is not None:
                out.said.append(
                    f"error: {one_line(learner.id)}: {one_line(learner.error)}; none of their challenges is graded"
                )
                continue
            for ex in exercises:
                source = learner.sources.get(ex.slug)
                if source is None:
                    continue
                sub = Submission(learner, ex, source, key(self.signer.fingerprints[ex.slug], source))
                keep = self.kept(learner.id, ex.slug, sub.key)
                if keep:
                    self.adopt(learner.id, ex.slug)
                    out.kept += 1
                    continue
                if keep is False:  # made from this very hand-in, but no run holding the key wrote it as it is
                    out.unsigned.append(self.path(learner.id, ex.slug))
                if source.error is not None:
                    out.refused.append(sub)
                    out.said.append(f"error: {one_line(learner.id)}: {ex.slug}: {one_line(source.error)}")
                else:
                    out.todo.append(sub)
        return out

    def put(self, learner: Learner, slug: str, source: Source, key_: str, result: dict) -> None:
        record = {
            "key": key_,
            "run": self.run,
            "learner": learner.id,
            "challenge": slug,
            "origin": source.origin,
            "source": source.text,
            "result": result,
        }
        if self.signer is not None:
            record = self.signer.sign_record(record)
        write_atomically(self.out, self.name(learner.id, slug), compact(record) + "\n")

    def take_all(self, other: VerdictStore) -> None:
        """Move every record of `other` (a folder of this run's own) here, replacing what is here under the same name."""
        for path in sorted(other.folder.glob("*/*.json")):
            fd, last = _folder_of(self.out, path.relative_to(other.out).as_posix(), make=True)
            try:  # a rename replaces a link in its place, never what it points to
                os.replace(path, last, dst_dir_fd=fd)
            finally:
                os.close(fd)

    def copy(self, record: dict) -> None:
        """`merge`: a record read from another store, written here as it is."""
        write_atomically(self.out, self.name(record["learner"], record["challenge"]), compact(record) + "\n")
