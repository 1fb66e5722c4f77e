"""The verdict store: the class run's only state, one file per (learner, challenge) in OUT/verdicts/, each kept
under a key that hashes everything the verdict was made from (the submission's text or the reason it could not
be read, the challenge, the grader). A run that crashed resumes where it stopped, an unchanged submission is never
graded twice, a shard fills part of a store, and `merge` is the union of stores.

A record: {"key", "learner", "challenge", "origin", "source", "result", "signature"}; `source` is the code handed in
(null when it could not be read: the class report compares submissions), `result` is `RunResult.to_dict()`
(grader/results.py decides what it may hold: a private case's name and status only, every part bounded), `signature`
the teacher's key's HMAC of the rest (signing.py). Written compact and atomically; read back validated against
schemas/verdict.schema.json, so a damaged or foreign file is a miss (grading again) or, in `merge`, a clear error.
A record is trusted (kept by a resumed run, taken by `merge`) only as written: its bytes those the store writes for
it, its signature the key's.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path

from grader.results import RunResult

from ..course import Exercise
from ..errors import LoopcraftError
from ..printable import file_name
from ..project import Project
from ..schemas import validation_error
from .intake import Learner, Refused, Source, read_regular
from .signing import Signer

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


def write_atomically(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    if isinstance(data, bytes):
        tmp.write_bytes(data)
    else:
        tmp.write_text(data, encoding="utf-8", errors="surrogatepass")
    os.replace(tmp, path)


def compact(doc) -> str:
    """JSON as every class output writes it: no indentation, which would multiply a deep value's size."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def fingerprint(ex: Exercise, project: Project) -> str:
    """Everything about a challenge that a verdict depends on, hashed (with the grader, results.py included)."""
    cases = [[c.name, c.args, c.expected, c.hidden, c.private] for c in ex.cases]
    text = json.dumps([ex.entry, ex.sandbox_source, ex.time_limit_seconds, cases], sort_keys=True, default=str)
    return hashlib.sha256((project.grader_hash + text).encode("utf-8")).hexdigest()


def key(fingerprint_: str, source: Source) -> str:
    """A submission's key: the challenge's fingerprint and what was handed in (its text, or why it has none)."""
    given = f"text\0{source.text}" if source.error is None else f"refused\0{source.error}"
    return hashlib.sha256(f"{fingerprint_}\0{given}".encode("utf-8", "surrogatepass")).hexdigest()


class VerdictStore:
    def __init__(self, out: Path, signer: Signer | None = None):
        """The store in OUT/verdicts/; `signer` signs what it puts (`class`, `merge`) and checks what it keeps."""
        self.folder = out / "verdicts"
        self.signer = signer

    def path(self, learner_id: str, slug: str) -> Path:
        return self.folder / file_name(learner_id) / f"{slug}.json"

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

    def result(self, learner_id: str, slug: str) -> RunResult:
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

    def put(self, learner: Learner, slug: str, source: Source, key_: str, result: dict) -> None:
        record = {
            "key": key_,
            "learner": learner.id,
            "challenge": slug,
            "origin": source.origin,
            "source": source.text,
            "result": result,
        }
        if self.signer is not None:
            record = self.signer.sign_record(record)
        write_atomically(self.path(learner.id, slug), compact(record) + "\n")

    def take_all(self, other: VerdictStore) -> None:
        """Move every record of `other` here, replacing what is here under the same name."""
        for path in sorted(other.folder.glob("*/*.json")):
            target = self.folder / path.relative_to(other.folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, target)

    def copy(self, record: dict) -> None:
        """`merge`: a record read from another store, written here as it is."""
        write_atomically(self.path(record["learner"], record["challenge"]), compact(record) + "\n")
