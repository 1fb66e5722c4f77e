"""Intake: the only code that touches what learners handed in. It turns a class's submissions into plain records
(`Learner`: an id, a display name, per challenge a source text or the reason there is none) and applies every
rule about hostile input here, in one place; nothing downstream opens a learner's file.

The rules:
- Only regular files are read: a link (to a classmate's file, the reference solution, /etc/passwd or
  /proc/self/mem), a hard link (a file with another name elsewhere), a device, a FIFO or a folder where a file should
  be is that submission's error, never followed.
  Files are opened relative to their folder's descriptor with O_NOFOLLOW and checked with fstat, so a file swapped
  for a link meanwhile is refused too (`files.read_regular`, which the store reads its own files with).
- Sizes are capped before reading: SOURCE_BYTES for a solution, PROGRESS_BYTES for a progress file.
- Text is decoded strictly (UTF-8, an optional BOM): an undecodable file is that learner's error.
- Every learner name is taken whatever its bytes (`names.name_from_bytes`: escaped where not UTF-8, NFC,
  controls escaped); learners whose names become the same are each an error row, and the others go on.
- A progress file that fails to parse or to match schemas/progress.schema.json, for any reason (depth, size,
  types), is that learner's error (or, beside solution files, a note).
- Which of a learner's files is which challenge's (`take`): SLUG.py; with `--challenge SLUG`, their one Python file;
  a progress file (*.json) for the challenges no SLUG.py gives; of an LMS's resubmissions the latest. The same for a
  folder and a zip (`zipped.py`, which adds the rules of zip entries).
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from loopcraft.course.course import Exercise
from loopcraft.course.errors import LoopcraftError
from loopcraft.course.schemas import document, validation_error

from .files import NO_LINK_FOLDER, Refused, read_regular, too_big
from .names import name_from_bytes

SOURCE_BYTES = 256 * 1024
CODE_PREFIX = "loopcraft:code:"


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
    # Why an LMS's download gives this hand-in to no learner of its roster, or None: its name reads as two
    # learners', or as none the roster confirms (zipped.py, lms.identify). Graded, and put in no LMS file.
    unattributed: str | None = None


@dataclass(frozen=True)
class HandedIn:
    """A file of one learner's hand-in, found but not read yet: a file in their folder, an entry of a zip."""

    name: str  # its own name, printable: "limit.py"
    origin: str  # where it is, printable: "alice/limit.py", "class.zip: doejohn_12_34_limit.py"
    read: Callable[[int], bytes] | None  # its bytes, at most the cap it is given (raises Refused); None if refused
    refused: str | None = None  # why it cannot be read at all (a link, a path out of the zip, ...), for the learner
    stem: str | None = None  # its name without an LMS's resubmission suffix ("limit.py" for "limit-2.py")
    version: tuple = ()  # of the files of one stem, the one with the highest version is the latest: it is kept
    online: str | None = None  # what an LMS's online entry is ("a text entry", "online text"), not a file

    @property
    def base(self) -> str:
        return self.stem or self.name


def decode(data: bytes, origin: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Refused(
            f"{origin}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8 and hand it in again"
        ) from None


PROGRESS_BYTES = document("progress.schema.json")["maxBytes"]  # the site's importer refuses a larger file too


def progress_codes(data: bytes, origin: str) -> dict[str, str]:
    """{"TRACK/SLUG": code} from a progress file the site exported, read by schemas/progress.schema.json's rules
    (the site's importer, frontend/src/transfer.js, applies the same)."""
    text = decode(data, origin)
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise Refused(f"{origin}: not a progress file: not JSON ({type(exc).__name__}: {str(exc)[:200]})") from None
    problem = validation_error(doc, "progress.schema.json")
    if problem is not None:
        raise Refused(f"{origin}: not a progress file this grader reads: {problem}")
    return {key[len(CODE_PREFIX) :]: code for key, code in doc["entries"].items() if key.startswith(CODE_PREFIX)}


def _source_from_progress(codes: dict[str, str], ex: Exercise, origin: str) -> Source | None:
    code = codes.get(f"{ex.track}/{ex.slug}")
    if code is None:
        return None
    where = f"{origin} ({ex.slug})"
    if len(code.encode("utf-8", "surrogatepass")) > SOURCE_BYTES:
        return Source(where, error=str(too_big(where, len(code.encode("utf-8", "surrogatepass")), SOURCE_BYTES)))
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


def _learner_folder(top_fd: int, raw: bytes, exercises: list[Exercise], challenge: str | None) -> Learner:
    name = name_from_bytes(raw)
    learner = Learner(id=name, name=name, origin=f"{name_from_bytes(raw, normalise=False)}/")
    try:
        fd = os.open(raw, NO_LINK_FOLDER, dir_fd=top_fd)
    except OSError as exc:
        learner.error = f"{name}/: could not be opened ({exc.strerror})"
        return learner
    try:
        files = []
        for raw_name, _ in _entries(fd):
            file, origin = name_from_bytes(raw_name), f"{name}/{name_from_bytes(raw_name)}"
            files.append(HandedIn(file, origin, partial(read_regular, fd, os.fsdecode(raw_name), origin)))
        return take(learner, files, exercises, challenge)
    finally:
        os.close(fd)


def _learner_progress(top_fd: int, raw: bytes, exercises: list[Exercise], challenge: str | None) -> Learner:
    file = name_from_bytes(raw, normalise=False)
    name = name_from_bytes(raw[: -len(b".json")])
    learner = Learner(id=name, name=name, origin=file)
    return take(
        learner, [HandedIn(file, file, partial(read_regular, top_fd, os.fsdecode(raw), file))], exercises, challenge
    )


def _listed(names: list[str], most: int = 5) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def _latest(files: list[HandedIn], what: str) -> tuple[HandedIn | None, str | None, str | None]:
    """(the file kept, or None; why none could be, or None; a note on the resubmissions left aside, or None)."""
    stems = sorted({f.base for f in files})
    if len(stems) > 1:
        return None, f"{len(stems)} files could be {what} ({_listed(stems)}); hand in one", None
    ordered = sorted(files, key=lambda f: f.version)
    kept = ordered[-1]
    tied = [f for f in files if f.version == kept.version]
    if len(tied) > 1:  # not versions of one file: the same file twice (its refusal says so, if it was refused)
        problem = f"{len(tied)} files named {kept.base} ({_listed([f.origin for f in tied])}); hand in one"
        return (kept, None, None) if kept.refused else (None, problem, None)
    older = [f.name for f in ordered[:-1]]
    note = f"{what}: kept {kept.name}, the latest of {len(files)} (left aside: {_listed(older)})" if older else None
    return kept, None, note


def _defines(text: str, entry) -> bool:
    """Whether `text` defines the challenge's entry at its top level (every name of it, for several)."""
    names = [entry] if isinstance(entry, str) else list(entry)
    return bool(names) and all(
        re.search(rf"^(?:def|class)\s+{re.escape(name)}\b|^{re.escape(name)}\s*=", text, re.M) for name in names
    )


def _defining(files: list[HandedIn], entry, slug: str, problem: str) -> tuple[HandedIn | None, str, str | None]:
    """Of several Python files, none named SLUG.py, the one that defines the challenge's entry (the latest version
    of each name read): (it, "", a note) if exactly one does; else (None, why, None), the learner's hand-in not graded."""
    latest = {}
    for f in files:
        if f.base not in latest or f.version > latest[f.base].version:
            latest[f.base] = f
    defining = []
    for f in latest.values():
        source = _read_source(f)
        if source.text is not None and _defines(source.text, entry):
            defining.append(f)
    shown = entry if isinstance(entry, str) else ", ".join(entry)
    if len(defining) == 1:
        others = sorted(set(latest) - {defining[0].base})
        return (
            defining[0],
            "",
            f"{slug}: graded {defining[0].name}, the one of {len(latest)} .py files that defines {shown} (left aside: {_listed(others)})",
        )
    which = "none" if not defining else f"{len(defining)}"
    return (
        None,
        f"{problem}, and {which} of them {'define' if len(defining) > 1 else 'defines'} {shown}: nothing was graded",
        None,
    )


def _read_source(file: HandedIn) -> Source:
    if file.refused is not None:
        return Source(file.origin, error=file.refused)
    try:
        return Source(file.origin, text=decode(file.read(SOURCE_BYTES), file.origin))
    except Refused as exc:
        return Source(file.origin, error=str(exc))


def _read_progress(file: HandedIn) -> dict[str, str]:
    if file.refused is not None:
        raise Refused(file.refused)
    return progress_codes(file.read(PROGRESS_BYTES), file.origin)


def take(learner: Learner, files: list[HandedIn], exercises: list[Exercise], challenge: str | None = None) -> Learner:
    """Fill in `learner` from the files they handed in: SLUG.py is the challenge SLUG's (with `challenge`, their one
    Python file is its, SLUG.py first if there are several); a progress file (*.json) gives the challenges no .py file
    gives; of several versions of one file, the latest; anything else is left aside, and said so in the notes. A file
    that cannot be read is the error of the challenge it is for; an unreadable progress file, the learner's (a note
    only, beside .py files)."""
    slugs = {ex.slug for ex in exercises}
    by_slug: dict[str, list[HandedIn]] = {}
    progress, aside = [], []
    for file in files:
        if file.base.endswith(".py") and (challenge is not None or file.base[:-3] in slugs):
            by_slug.setdefault(challenge or file.base[:-3], []).append(file)
        elif file.base.endswith(".json"):
            progress.append(file)
        else:
            aside.append(file)
    entries = {ex.slug: ex.entry for ex in exercises}
    for slug, candidates in by_slug.items():
        named = [f for f in candidates if f.base == f"{slug}.py"]
        kept, problem, note = _latest(named or candidates, f"the solution of {slug}")
        if kept is None and not named:
            kept, problem, note = _defining(candidates, entries.get(slug, ""), slug, problem)
        learner.sources[slug] = _read_source(kept) if kept else Source(learner.origin, error=problem)
        if note:
            learner.notes.append(note)
        if named and len(named) < len(candidates):
            others = sorted({f.base for f in candidates} - {f"{slug}.py"})
            learner.notes.append(f"{slug}: graded {slug}.py (left aside: {_listed(others)})")
    if progress:
        kept, problem, note = _latest(progress, "the progress file")
        try:
            if kept is None:
                raise Refused(problem)
            codes = _read_progress(kept)
        except Refused as exc:
            if not by_slug:
                learner.error = str(exc)
                return learner
            learner.notes.append(f"left aside: {exc}")
        else:
            if note:
                learner.notes.append(note)
            for ex in exercises:
                source = _source_from_progress(codes, ex, kept.origin)
                if source is not None and ex.slug in learner.sources:
                    learner.notes.append(f"{ex.slug}: graded {learner.sources[ex.slug].origin}, not {kept.name}'s code")
                elif source is not None:
                    learner.sources[ex.slug] = source
    online = [f for f in aside if f.online]
    if online and not learner.sources:
        # An LMS's text box holds no file to run: said by learner, never graded as a 0 (nor skipped in silence).
        kinds = sorted({f.online for f in online})
        reason = (
            f"handed in {' and '.join(kinds)} ({_listed([f.origin for f in online])}), not a .py file: nothing was "
            "graded; grade it by hand, or ask for the code as a file"
        )
        if challenge is not None:
            learner.sources[challenge] = Source(online[0].origin, error=reason)
        else:
            learner.error = reason
    refused = [f"{f.origin} ({f.refused})" for f in aside if f.refused is not None]
    if refused:
        learner.notes.append(f"refused: {_listed(refused)}")
    others = [f.name for f in aside if f.refused is None]
    if others:
        what = "a .py file" if challenge else "SLUG.py or a progress file"
        learner.notes.append(f"left aside, not {what}: {_listed(others)}")
    return learner


def read_folder(folder: Path, exercises: list[Exercise], challenge: str | None = None) -> list[Learner]:
    """The learners of a class handed in as a folder: a folder per learner holding SLUG.py files (or, with
    `challenge`, one Python file), a progress file per learner (LEARNER.json), or, with `challenge`, a Python file
    per learner (LEARNER.py, the commonest thing a teacher has). Anything else at the top is left alone; a link there
    is its learner's error."""
    try:
        top_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise LoopcraftError(
            f"{folder}: not a folder ({exc.strerror}); it should hold a folder or a progress file per learner"
        ) from None
    loose = []
    try:
        learners = []
        for raw, info in _entries(top_fd):
            if stat.S_ISDIR(info.st_mode):
                learners.append(_learner_folder(top_fd, raw, exercises, challenge))
            elif raw.endswith(b".json") and len(raw) > len(b".json"):
                learners.append(_learner_progress(top_fd, raw, exercises, challenge))
            elif raw.endswith(b".py") and len(raw) > len(b".py"):
                loose.append(name_from_bytes(raw))
                if challenge is not None:
                    learners.append(_learner_file(top_fd, raw, exercises, challenge))
            elif stat.S_ISLNK(info.st_mode):
                name = name_from_bytes(raw)
                learners.append(Learner(id=name, name=name, origin=name, error=f"{name}: a link; it was not followed"))
    finally:
        os.close(top_fd)
    if loose and challenge is None and not learners:
        slugs = ", ".join(ex.slug for ex in exercises[:3]) + (", ..." if len(exercises) > 3 else "")
        raise LoopcraftError(
            f"{folder}: holds {len(loose)} .py file(s) at its top ({_listed(loose)}), taken as one learner each only "
            f"with --challenge SLUG, which says whose challenge they are ({slugs}); or put each learner's files in a "
            "folder of their own, named SLUG.py"
        )
    if not learners:
        raise LoopcraftError(f"{folder}: no learner folders, progress files or .py files in it")
    return distinct(learners)


def _learner_file(top_fd: int, raw: bytes, exercises: list[Exercise], challenge: str) -> Learner:
    """A learner handed in as one Python file at the class folder's top: named after it, it is their solution."""
    file = name_from_bytes(raw, normalise=False)
    name = name_from_bytes(raw[: -len(b".py")])
    learner = Learner(id=name, name=name, origin=file)
    return take(
        learner, [HandedIn(file, file, partial(read_regular, top_fd, os.fsdecode(raw), file))], exercises, challenge
    )


def _hidden(name: str) -> bool:
    return name.startswith(".") or name == "__MACOSX"


def walk(
    top_fd: int, *, depth: int, most: int, what: str, hidden: Callable[[str], bool] = _hidden
) -> list[tuple[tuple[bytes, ...], int]]:
    """Every file and folder below the folder open as `top_fd`, in order, as (its path's names, lstat's mode): never
    following a link, not looking in a folder more than `depth` deep, leaving the `hidden` ones alone (by default
    .git and the like, and __MACOSX, a Mac zip's copies of its files' metadata); Refused past `most` (counted as
    listed: a huge folder costs no more)."""
    found: list[tuple[tuple[bytes, ...], int]] = []
    listed = 0

    def visit(fd: int, path: tuple[bytes, ...]) -> None:
        nonlocal listed
        entries = []
        with os.scandir(fd) as listing:
            for entry in listing:
                if hidden(entry.name):
                    continue
                listed += 1
                if listed > most:
                    raise Refused(f"{what}: over {most:,} files and folders")
                entries.append((os.fsencode(entry.name), entry.stat(follow_symlinks=False).st_mode))
        for raw, mode in sorted(entries):
            found.append(((*path, raw), mode))
            if stat.S_ISDIR(mode) and len(path) < depth:
                try:
                    inner = os.open(raw, NO_LINK_FOLDER, dir_fd=fd)
                except OSError:
                    continue  # gone or swapped meanwhile: nothing in it is read
                try:
                    visit(inner, (*path, raw))
                finally:
                    os.close(inner)

    visit(top_fd, ())
    return found


def read_beneath(top_fd: int, path: tuple[bytes, ...], origin: str, cap: int) -> bytes:
    """The regular file at `path` below the folder open as `top_fd`, every folder on the way opened again without
    following a link (one swapped for a link since the walk is refused), at most `cap` bytes."""
    fds = [top_fd]
    try:
        for part in path[:-1]:
            fds.append(os.open(part, NO_LINK_FOLDER, dir_fd=fds[-1]))
        return read_regular(fds[-1], os.fsdecode(path[-1]), origin, cap)
    except OSError as exc:
        raise Refused(f"{origin}: could not be opened ({exc.strerror})") from None
    finally:
        for fd in fds[1:]:
            os.close(fd)


def read_submission(
    folder: Path, exercises: list[Exercise], challenge: str | None = None, *, depth: int = 8, most: int = 2_000
) -> Learner:
    """One learner's files wherever they lie in `folder` (Gradescope's submission/, which keeps the folders of a zip
    or a GitHub upload), taken by `take`'s rules, with a source for every challenge: its text, or why there is none
    and what the folder holds. The walk is `walk`'s: bounded by `depth` and `most` (past which the hand-in is
    refused whole), links never followed, a FIFO or a device refused, never opened."""
    folder = Path(folder)
    learner = Learner(id=folder.name, name=folder.name, origin=f"{folder.name}/")
    files: list[HandedIn] = []
    found: list[str] = []  # printable paths, to tell the learner what was found
    try:
        top_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise LoopcraftError(f"{folder}: cannot be read ({exc.strerror})") from None
    try:
        for path, mode in walk(top_fd, depth=depth, most=most, what=learner.origin):
            shown = "/".join(name_from_bytes(raw) for raw in path)
            if stat.S_ISDIR(mode):
                if len(path) > depth:
                    found.append(f"{shown}/ (not looked in: over {depth} folders deep)")
                continue
            refused = None
            if stat.S_ISLNK(mode):
                refused = f"{shown}: a link; it was not followed"
            elif not stat.S_ISREG(mode):
                refused = f"{shown}: not a regular file; only regular files are read"
            reader = None if refused else partial(read_beneath, top_fd, path, shown)
            files.append(HandedIn(name_from_bytes(path[-1]), shown, reader, refused=refused))
            found.append(shown)
        take(learner, files, exercises, challenge)
    except Refused as exc:
        learner.error = f"{exc}; hand in only your solution"
        return learner
    except OSError as exc:  # a folder that could not be listed or opened: swapped meanwhile, say
        learner.error = f"{learner.origin}: could not be read ({exc.strerror})"
        return learner
    finally:
        os.close(top_fd)
    holds = f"Your submission holds: {_listed(found, most=10)}" if found else "Your submission holds no files"
    if learner.error:
        learner.error = f"{learner.error}. {holds}"
        return learner
    for ex in exercises:
        source = learner.sources.get(ex.slug)
        if source is None:
            what = ".py file" if challenge else f"{ex.slug}.py"
            error = f"No {what} found, nor a progress file holding this challenge's code. {holds}"
            learner.sources[ex.slug] = Source(learner.origin, error=error)
        elif source.error is not None:
            learner.sources[ex.slug] = Source(source.origin, error=f"{source.error}. {holds}")
    return learner


def distinct(learners: Iterable[Learner], strays: Iterable[Learner] = ()) -> list[Learner]:
    """The learners sorted by id, every id unique: learners whose ids came out the same (names that differ only by
    Unicode normalisation, `bob/` beside `bob.json`) each become an error row of their own, "ID #1", "ID #2"...,
    numbered past any id already taken (a learner may be named "bob #1"). `strays` are rows of what belongs to no
    learner (an entry of a zip outside every learner's files): errors already, they never take a learner's id (one
    named as a learner is would make that learner an error row too), and are numbered so."""
    by_id: dict[str, list[Learner]] = {}
    for learner in learners:
        by_id.setdefault(learner.id, []).append(learner)
    taken = set(by_id)
    out = []

    def renamed(base: str) -> str:
        number = 1
        while f"{base} #{number}" in taken:
            number += 1
        taken.add(f"{base} #{number}")
        return f"{base} #{number}"

    for same in by_id.values():
        if len(same) == 1:
            out.extend(same)
            continue
        # The origins as ASCII: names that read the same are told apart only by their code points.
        origins = ", ".join(learner.origin.encode("ascii", "backslashreplace").decode() for learner in same)
        for learner in same:
            learner.id = renamed(learner.id)
            learner.sources = {}
            learner.error = (
                f"{len(same)} hand-ins have names that read the same ({origins}); none of them was graded. "
                "Rename them so that each learner has a name of their own, and grade again"
            )
            out.append(learner)
    for stray in strays:
        if stray.id in taken:
            stray.id = renamed(stray.id)
        taken.add(stray.id)
        out.append(stray)
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
