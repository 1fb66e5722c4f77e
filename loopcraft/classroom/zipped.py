"""Zips in: a class handed in as one zip, read into `Learner` records by intake's rules (`intake.take`: which file is
which challenge's; its caps, decoding and names), plus the rules of zip entries. Nothing is unpacked to disk: an
entry is read, into memory and capped, only when it is a file some challenge needs.

Three layouts, told apart by the entries' names (the one most entries follow; an entry that follows none is a row
of its own, with an error):
- plain: the class folder zipped (a folder per learner holding SLUG.py files, or LEARNER.json), possibly inside one
  folder of its own;
- Canvas's "Download Submissions": flat files `<name>_<user id>_<attachment id>_<original name>`, `_late` after the
  name for late ones; a file handed in again is renamed `<original>-1.py`, `-2`...: the latest is kept;
- Moodle's "Download all submissions": folders `<Full Name>_<participant id>_assignsubmission_file_` holding the
  learner's files (or, downloaded without folders, files named so followed by the original name).
One learner per LMS user, keyed by the LMS's id (kept in `Learner.lms`, to match the LMS's gradebook).

Every hazard of an entry is that entry's learner's, never the class's: a path with `..` or an absolute one, a link
or a device (the entry's Unix mode), a name that is not UTF-8 (flagged UTF-8 and not, or not flagged and neither
ASCII nor UTF-8), two entries of one name, an encrypted entry, an unknown compression method, a damaged entry (one whose
data overlaps another's too: read again and again from the same bytes, it would spend the budget below), a zip
bomb (each entry read through the decompressor up to its cap plus one byte, whatever size it declares; at most
MAX_RATIO times its compressed size past RATIO_GRACE; the whole zip at most min(TOTAL_BYTES, MAX_RATIO times its own
size)). An entry that is a challenge's file is that challenge's error; one that is not is left aside and noted; one
that belongs to no learner (a stray file, an absolute path at the top) is a row of its own. Only a file that is no
zip at all, or whose index (the central directory) is damaged, is the class's error.

The index is read here rather than by `zipfile`, whose reader refuses the whole archive over one entry's name that
claims UTF-8 and is not, or one damaged extra field.
"""

from __future__ import annotations

import os
import re
import stat
import struct
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from itertools import zip_longest
from pathlib import Path
from typing import BinaryIO

from loopcraft.course.course import Exercise
from loopcraft.course.errors import LoopcraftError

from .files import Refused, too_big
from .intake import HandedIn, Learner, distinct, read_beneath, take, walk
from .names import name_from_bytes

MAX_ENTRIES = 100_000
TOTAL_BYTES = 1 << 30  # all entries read from one zip, uncompressed
MAX_RATIO = 100  # uncompressed bytes per compressed byte, past RATIO_GRACE; text compresses about 4:1
RATIO_GRACE = 64 * 1024

_EOCD, _EOCD64, _LOCATOR = b"PK\x05\x06", b"PK\x06\x06", b"PK\x06\x07"
_CENTRAL, _LOCAL = b"PK\x01\x02", b"PK\x03\x04"
_CENTRAL_HEADER = struct.Struct("<4sBBHHHHHIIIHHHHHII")  # 46 bytes
_LOCAL_HEADER = struct.Struct("<4sHHHHHIIIHH")  # 30 bytes
_UTF8_FLAG, _ENCRYPTED = 1 << 11, 1
_STORED, _DEFLATED = 0, 8
_FULL32 = 0xFFFFFFFF


@dataclass(frozen=True)
class Entry:
    """An entry of the zip's index (its central directory)."""

    raw: bytes  # the name as stored
    flags: int
    method: int
    crc: int
    csize: int
    usize: int
    offset: int  # of its local header
    mode: int  # the Unix mode in its external attributes, 0 if none
    damaged: str | None = None  # what is wrong with its index record, if anything


def _damaged(path: Path, what: str) -> LoopcraftError:
    return LoopcraftError(f"{path}: not a zip this grader can read ({what}); download it again")


def _zip64_extra(extra: bytes, usize: int, csize: int, offset: int) -> tuple[int, int, int]:
    """The sizes and offset a ZIP64 extra field gives where the record holds 0xFFFFFFFF."""
    at = 0
    while at + 4 <= len(extra):
        tag, size = struct.unpack_from("<HH", extra, at)
        body = extra[at + 4 : at + 4 + size]
        if len(body) < size:
            raise ValueError("an extra field runs past its end")
        if tag == 1:
            values, want = iter(struct.unpack_from(f"<{len(body) // 8}Q", body)), []
            for value in (usize, csize, offset):
                want.append(next(values) if value == _FULL32 else value)
            return want[0], want[1], want[2]
        at += 4 + size
    if _FULL32 in (usize, csize, offset):
        raise ValueError("sizes of 0xFFFFFFFF without a ZIP64 extra field")
    return usize, csize, offset


def read_index(f: BinaryIO, size: int, path: Path) -> tuple[list[Entry], int]:
    """The zip's entries and where the archive starts in the file (after anything prepended, as a self-extractor
    has); a LoopcraftError if the file is not a zip or its index is damaged."""
    tail_start = max(0, size - (22 + 0xFFFF))
    f.seek(tail_start)
    tail = f.read()
    at = tail.rfind(_EOCD)
    while at >= 0 and len(tail) - at < 22:
        at = tail.rfind(_EOCD, 0, at)
    if at < 0:
        raise LoopcraftError(f"{path}: not a zip file (no end of central directory)")
    _, disk, cd_disk, _, count, cd_size, cd_offset, _ = struct.unpack_from("<4sHHHHIIH", tail, at)
    end = tail_start + at
    if _FULL32 in (cd_size, cd_offset) or count == 0xFFFF:
        locator = tail[at - 20 : at] if at >= 20 else b""
        if len(locator) != 20 or not locator.startswith(_LOCATOR):
            raise _damaged(path, "a ZIP64 archive without its locator")
        (eocd64_offset,) = struct.unpack_from("<Q", locator, 8)
        f.seek(eocd64_offset)
        record = f.read(56)
        if len(record) != 56 or not record.startswith(_EOCD64):
            # Prepended data shifts every offset: the record sits right before its locator.
            f.seek(end - 20 - 56)
            record = f.read(56)
            if len(record) != 56 or not record.startswith(_EOCD64):
                raise _damaged(path, "no ZIP64 end of central directory")
        _, _, _, _, disk, cd_disk, _, count, cd_size, cd_offset = struct.unpack("<4sQHHIIQQQQ", record)
        end = end - 20 - 56
    if disk != 0 or cd_disk != 0:
        raise LoopcraftError(f"{path}: a zip split over several files; join them into one zip first")
    if count > MAX_ENTRIES:
        raise LoopcraftError(f"{path}: {count:,} entries, over the {MAX_ENTRIES:,} a class zip may have")
    start = end - cd_size - cd_offset  # bytes prepended before the archive
    if start < 0:
        raise _damaged(path, "its central directory lies outside the file")
    f.seek(start + cd_offset)
    cd = f.read(cd_size)
    if len(cd) != cd_size:
        raise _damaged(path, "its central directory is cut short")
    entries, pos = [], 0
    for _ in range(count):
        if pos + _CENTRAL_HEADER.size > len(cd) or not cd.startswith(_CENTRAL, pos):
            raise _damaged(path, f"entry {len(entries) + 1} of {count} is missing from its central directory")
        (_, _, _, _, flags, method, _, _, crc, csize, usize, nlen, xlen, clen, _, _, external, offset) = (
            _CENTRAL_HEADER.unpack_from(cd, pos)
        )
        pos += _CENTRAL_HEADER.size
        raw, extra = cd[pos : pos + nlen], cd[pos + nlen : pos + nlen + xlen]
        pos += nlen + xlen + clen
        if pos > len(cd):
            raise _damaged(path, "its central directory is cut short")
        damaged = None
        try:
            usize, csize, offset = _zip64_extra(extra, usize, csize, offset)
        except (ValueError, struct.error) as exc:
            damaged = f"its record in the zip's index is damaged ({exc})"
        entries.append(Entry(raw, flags, method, crc, csize, usize, offset, external >> 16, damaged))
    return _overlapping(entries, cd_offset), start


def _overlapping(entries: list[Entry], cd_offset: int) -> list[Entry]:
    """`entries`, those whose data runs into the next entry's (or into the index) marked damaged. A zip crafted so
    that entries overlap is read many times over from the same bytes: 260 entries each holding all the later ones
    spent the whole zip's budget on 270 KB, and the learners after them were refused."""
    by_offset = sorted(range(len(entries)), key=lambda i: entries[i].offset)
    out = list(entries)
    for here, after in zip_longest(by_offset, by_offset[1:]):  # the last entry runs up to the index
        entry = entries[here]
        limit = cd_offset if after is None else entries[after].offset
        # Its local header (at least 30 bytes and its name: its extra field may be longer), then its data.
        if entry.damaged is None and entry.offset + _LOCAL_HEADER.size + len(entry.raw) + entry.csize > limit:
            out[here] = replace(entry, damaged="its data overlaps another entry's in the zip (a crafted zip)")
    return out


class Reader:
    """Reads entries of one open zip, each capped, all of them within one budget."""

    def __init__(self, f: BinaryIO, start: int, size: int):
        self.f, self.start = f, start
        self.left = min(TOTAL_BYTES, MAX_RATIO * size + RATIO_GRACE)

    def read(self, entry: Entry, origin: str, cap: int) -> bytes:
        if entry.damaged:
            raise Refused(f"{origin}: {entry.damaged}; download the zip again")
        if entry.flags & _ENCRYPTED:
            raise Refused(f"{origin}: encrypted; hand it in without a password")
        if entry.method not in (_STORED, _DEFLATED):
            raise Refused(
                f"{origin}: compressed with method {entry.method}, which the grader does not read (only stored and "
                "deflated entries); zip it again with the usual settings"
            )
        if entry.usize > cap:
            raise too_big(origin, entry.usize, cap)
        # Deflate never grows data by more than a few bytes per block: a larger compressed size is not a file
        # within the cap, whatever its record says.
        if entry.csize > cap + cap // 100 + 1024:
            raise too_big(origin, entry.csize, cap)
        self.f.seek(self.start + entry.offset)
        header = self.f.read(_LOCAL_HEADER.size)
        if len(header) != _LOCAL_HEADER.size or not header.startswith(_LOCAL):
            raise Refused(f"{origin}: damaged in the zip (no local header); download the zip again")
        *_, nlen, xlen = _LOCAL_HEADER.unpack(header)
        if self.f.read(nlen) != entry.raw:
            raise Refused(f"{origin}: its name at its data differs from the zip's index; it was not read")
        self.f.seek(xlen, 1)
        data = self.f.read(entry.csize)
        if len(data) != entry.csize:
            raise Refused(f"{origin}: damaged in the zip (cut short); download the zip again")
        if entry.method == _STORED:
            out = data
        else:
            inflate = zlib.decompressobj(-15)
            try:
                out = inflate.decompress(data, cap + 1)  # never more than the cap and one byte, whatever it claims
            except zlib.error as exc:
                raise Refused(f"{origin}: damaged in the zip ({exc}); download the zip again") from None
            if len(out) > cap:
                raise too_big(origin, len(out), cap)
            if not inflate.eof:
                raise Refused(f"{origin}: damaged in the zip (its data ends early); download the zip again")
        if len(out) > RATIO_GRACE and len(out) > MAX_RATIO * len(data):
            raise Refused(
                f"{origin}: compressed {len(out) // max(len(data), 1):,} to 1, more than the {MAX_RATIO} to 1 a zip "
                "bomb's guard allows; it was not read"
            )
        if len(out) != entry.usize or zlib.crc32(out) != entry.crc:
            raise Refused(f"{origin}: damaged in the zip (its size or checksum is wrong); download the zip again")
        if len(out) > self.left:
            self.left = 0
            raise Refused(
                f"{origin}: the zip's files hold more than it may in all ({TOTAL_BYTES:,} bytes, and at most "
                f"{MAX_RATIO} times the zip's own size); this file was not read"
            )
        self.left -= len(out)
        return out


# --- names ---------------------------------------------------------------------------------------------------------

# Canvas's "Download Submissions" (instructure/canvas-lms, lib/content_zipper.rb at 05e9653c, ContentZipper#get_filename
# and #add_upload_submission): "<name>_LATE_<user id>_<attachment id>_<file>", "_LATE" only for late work. The name is
# the learner's sortable name in lower case, stripped of all but word characters, with "_<digits>_" runs taken out
# (so that Canvas's own re-upload finds the ids: Assignment#infer_comment_context_from_filename takes the first two
# parts that are all digits); Canvas before 2019 lower-cased the whole name ("_late_"). Anonymous grading writes
# "anon_<anonymous id>" for the user id and no name; a text entry is "<prefix>_text.html", a URL "<prefix>_link.html".
# A name may still end in "_<digits>" (sanitize_user_name only joins runs between two underscores, and its removal of
# other characters makes new ones), so one entry's name can read several ways: `canvas_readings` gives every one.
_DIGITS = re.compile(r"[0-9]+")
_ANONYMOUS = re.compile(r"[A-Za-z0-9]+")
# A name that reads as Canvas's: used only to tell the layout (the readings decide whose each entry is).
_CANVAS = re.compile(r"(?:[^/]*_)?(?:[0-9]+|anon_[A-Za-z0-9]+)_(?:[0-9]+_.+|(?:text|link)\.html)", re.S)
# Moodle's "Download all submissions" (moodle/moodle, mod/assign/classes/downloader.php, get_student_prefix and
# load_submissionplugin_filelist): "<full name>_<participant id>_<plugin>", any "_" in the name made a space (Moodle
# before 4.1 added a "_"), a folder holding the files ("..._<plugin>_<file>" flat, without the download-as-folders
# preference); blind marking writes "Participant" (the site's string) for the name; a team submission writes its
# group's name and id, or, for the learners in no group, the "Default group" string and no id at all.
_MOODLE = re.compile(
    r"(?P<name>[^_/]+?)(?:_(?P<user>[0-9]+))?_(?P<plugin>assign(?:submission|feedback)_[a-z]+)(?:_(?P<file>.*))?",
    re.S,
)
_RESUBMITTED = re.compile(r"(?P<stem>.+)-(?P<number>\d+)(?P<ext>\.[A-Za-z0-9]+)", re.S)
_ABSOLUTE = re.compile(rb"[/\\]|[A-Za-z]:")  # at a name's start: "/etc", "\\server", "C:"


@dataclass
class Named:
    """An entry of the zip, its name read: the parts of its path, or why the name cannot be taken."""

    entry: Entry
    name: str  # printable, whole
    parts: list[str]  # its path's parts, "" and "." dropped
    raw_parts: list[bytes]  # the same as stored: learner folders whose names read the same are told apart
    directory: bool = False
    refused: str | None = None

    @property
    def absolute(self) -> bool:
        return _ABSOLUTE.match(self.entry.raw) is not None

    @property
    def hidden(self) -> bool:
        # A Moodle learner's folder is named after them, and a name may start with a dot (Canvas's never does).
        parts = self.parts[1:] if self.parts and _MOODLE.fullmatch(self.parts[0]) else self.parts
        return any(part.startswith(".") or part == "__MACOSX" for part in parts)


@dataclass(frozen=True)
class Reading:
    """One way an LMS's rules read a download entry's name: whose hand-in it is, and the file's own name. Which
    reading is the entry's is for the roster to confirm (loopcraft/classroom/lms.py, `identify`), never guessed."""

    lms: str  # "canvas" or "moodle"
    kind: str  # "user" (a Canvas user, a Moodle participant), "team" (a Moodle group), "anonymous" (Canvas)
    user: str  # the id the name gives: Canvas's user id or "anon_<id>"; Moodle's participant or group id ("": none)
    name: str  # the name as the download wrote it
    prefix: str = ""  # Canvas: the part of the name every file of this reading's user starts with
    late: bool = False
    attachment: str | None = None  # Canvas: the id of the file in the user's submission
    file: str = ""  # the file's own name under this reading
    online: str | None = None  # Canvas: "text" (a text entry) or "link" (a website URL)

    def says(self) -> str:
        """This reading as the teacher reads it: "Canvas user 12 (smithann)"."""
        if self.kind == "anonymous":
            return f"Canvas's anonymous {self.user}"
        if self.kind == "team":  # without an id: Moodle's team of the learners in no group ("Default group")
            return (
                f"Moodle group {self.user} ({self.name})"
                if self.user
                else f"Moodle's team of the learners in no group ({self.name})"
            )
        return f"{'Canvas user' if self.lms == 'canvas' else 'Moodle participant'} {self.user} ({self.name})"


def canvas_readings(top: str) -> list[Reading]:
    """Every reading of a Canvas download's entry name that Canvas's rules allow (see _CANVAS's comment): the user id
    may be any all-digit part, with the name before it, "LATE" between, and an attachment id and a file (or
    "text.html", "link.html") after it."""
    parts = top.split("_")
    found = []
    for i, part in enumerate(parts):
        anonymous = i >= 1 and parts[i - 1] == "anon" and _ANONYMOUS.fullmatch(part) is not None
        if not (anonymous or _DIGITS.fullmatch(part)):
            continue
        head, user = (parts[: i - 1], f"anon_{part}") if anonymous else (parts[:i], part)
        rest = parts[i + 1 :]
        if rest in (["text.html"], ["link.html"]):
            attachment, file, online = None, rest[0], rest[0][: -len(".html")]
        elif len(rest) >= 2 and _DIGITS.fullmatch(rest[0]) and "_".join(rest[1:]):
            attachment, file, online = rest[0], "_".join(rest[1:]), None
        else:
            continue
        prefix = "_".join(parts[: i + 1])
        # "LATE" is the flag (the name is lower case); "late" may be the flag (Canvas before 2019) or the name's.
        ways = [(head, False)]
        if head and head[-1] in ("LATE", "late"):
            ways = [(head[:-1], True)] + (ways if head[-1] == "late" else [])
        for name_parts, late in ways:
            if anonymous and name_parts:  # an anonymous download names no one
                continue
            kind = "anonymous" if anonymous else "user"
            found.append(Reading("canvas", kind, user, "_".join(name_parts), prefix, late, attachment, file, online))
    return found


def moodle_readings(top: str) -> list[Reading]:
    """The readings of a Moodle download's folder (or flat file) name: a participant's, or a team's (the download
    writes both alike; the roster tells which the assignment has), or Moodle's default team (no id)."""
    match = _MOODLE.fullmatch(top)
    if match is None:
        return []
    name, user = match["name"], match["user"] or ""
    teams = [Reading("moodle", "team", user, name)]
    return ([Reading("moodle", "user", user, name)] if user else []) + teams


def by_name_alone(readings: list[Reading]) -> tuple[Reading | None, str | None]:
    """Whose an entry is without a roster to confirm it: its one reading (for Moodle, a participant's before a team's,
    as most assignments are); None, and why, for a name that reads as two learners', which only a roster can tell
    apart. A hand-in read so is never put in an LMS's files unless a roster confirms it later (`lms.match`)."""
    users = {(r.kind, r.user) for r in readings if r.lms == "canvas"}
    if len(users) > 1:
        return None, (
            f"its name reads as {len(users)} learners' by Canvas's rules ({', '.join(r.says() for r in readings)}); "
            "give --lms canvas and --roster to tell which, or grade it by hand"
        )
    return (readings[0] if readings else None), None


def _name(entry: Entry, zip_name: str) -> Named:
    raw = entry.raw
    name = name_from_bytes(raw)
    # Split before escaping: an escaped name holds backslashes of its own.
    raw_parts = [part for part in re.split(rb"[/\\]", raw) if part not in (b"", b".")]
    parts = [name_from_bytes(part) for part in raw_parts]
    named = Named(entry, name, parts, raw_parts, directory=raw.endswith((b"/", b"\\")))
    origin = f"{zip_name}: {name}"
    try:
        raw.decode("utf-8")
        utf8 = True
    except UnicodeDecodeError as exc:
        utf8, bad = False, f"byte 0x{raw[exc.start]:02x} at offset {exc.start}"
    kind = stat.S_IFMT(entry.mode)
    if not utf8:  # flagged as UTF-8 and not, or not flagged and neither ASCII nor UTF-8: a code page, but which?
        flagged = "marked as UTF-8 and is not" if entry.flags & _UTF8_FLAG else "not UTF-8"
        named.refused = f"{origin}: its name is {flagged} ({bad}); name files in UTF-8 and hand them in again"
    elif named.absolute:
        named.refused = f"{origin}: an absolute path; it was not read"
    elif ".." in parts:
        named.refused = f"{origin}: its path climbs out of the zip's folder (..); it was not read"
    elif kind == stat.S_IFLNK:
        named.refused = f"{origin}: a link; only regular files are read"
    elif kind == stat.S_IFDIR and not named.directory:
        named.refused = f"{origin}: a folder where a file should be; it was not read"
    elif kind not in (0, stat.S_IFREG, stat.S_IFDIR):
        named.refused = f"{origin}: not a regular file (a device, a pipe or a socket); only regular files are read"
    return named


def _layout(names: list[Named]) -> str:
    """ "canvas", "moodle" or "plain": the layout most of the files follow."""
    canvas = sum(bool(n.parts) and _CANVAS.fullmatch(n.parts[0]) is not None for n in names)
    moodle = sum(bool(n.parts) and _MOODLE.fullmatch(n.parts[0]) is not None for n in names)
    if max(canvas, moodle) * 2 > len(names):  # a Moodle folder's name reads as a Canvas file's too: Moodle first
        return "moodle" if moodle >= canvas else "canvas"
    return "plain"


def _unwrap(names: list[Named]) -> list[Named]:
    """Strip a folder that holds everything (the class folder zipped whole, a download unpacked and zipped again)."""
    while True:
        sound = [n for n in names if n.refused is None and not n.hidden and not n.directory]
        if not sound or _layout(sound) != "plain" or any(len(n.parts) < 2 for n in sound):
            return names
        top = sound[0].parts[0]
        if any(n.parts[0] != top for n in sound):
            return names
        inner = [n.parts[1:] for n in sound]
        # One learner's folder zipped (Python files at its top) stays a learner; a class folder holds learners.
        learners_inside = any(len(parts) > 1 or parts[0].endswith(".json") for parts in inner)
        if not learners_inside or any(len(parts) == 1 and parts[0].endswith(".py") for parts in inner):
            if _layout([Named(n.entry, n.name, n.parts[1:], n.raw_parts[1:]) for n in sound]) == "plain":
                return names
        for n in names:
            if n.parts[:1] == [top]:
                n.parts, n.raw_parts = n.parts[1:], n.raw_parts[1:]


@dataclass
class _Hand:
    """One learner's entries, as gathered from the zip."""

    learner: Learner
    files: list[HandedIn]


def _stray(named: Named, zip_name: str, why: str) -> Learner:
    origin = f"{zip_name}: {named.name}"
    return Learner(id=named.name, name=named.name, origin=origin, error=named.refused or f"{origin}: {why}")


def read_zip(
    path: Path, exercises: list[Exercise], challenge: str | None, identify: Identify, zip_name: str
) -> list[Learner]:
    """The learners of a class handed in as one zip (see the module's docstring), named `zip_name` in their rows'
    origins; an LMS's entries go to the learners `identify` gives their readings to (the roster's rules,
    lms.identifier, or the name alone)."""
    path = Path(path)
    try:
        f = path.open("rb")
    except OSError as exc:
        raise LoopcraftError(f"{path}: cannot be read ({exc.strerror})") from None
    with f:
        size = f.seek(0, 2)
        entries, start = read_index(f, size, path)
        reader = Reader(f, start, size)
        names = [_name(entry, zip_name) for entry in entries]
        slugs = {ex.slug for ex in exercises}
        read_of = lambda n, origin: partial(reader.read, n.entry, origin)  # noqa: E731
        return _taken(_learners(names, read_of, zip_name, "zip", slugs, identify), exercises, challenge)


def read_download(
    folder: Path, exercises: list[Exercise], challenge: str | None, identify: Identify, where: str
) -> list[Learner] | None:
    """The learners of an LMS's download that a browser unzipped (Canvas's flat files, Moodle's folders), named
    `where` in their rows' origins, read by the rules of its zip, what a zip's index says of an entry being what
    lstat says of the file; None if the folder is not laid out as an LMS's download (a class folder:
    intake.read_folder)."""
    folder = Path(folder)
    try:
        top_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise LoopcraftError(f"{folder}: not a folder ({exc.strerror})") from None
    try:
        try:
            # Hidden files are listed, and left alone as a zip's are (a Moodle learner's name may start with a dot).
            found = walk(top_fd, depth=MAX_DEPTH, most=MAX_ENTRIES, what=str(folder), hidden=lambda name: False)
        except Refused as exc:
            raise LoopcraftError(f"{exc}: not a class's download") from None
        entries = {b"/".join(path) + (b"/" if stat.S_ISDIR(mode) else b""): (path, mode) for path, mode in found}
        names = [_name(Entry(raw, 0, _STORED, 0, 0, 0, 0, mode), where) for raw, (_, mode) in entries.items()]
        files = [n for n in names if not n.directory and n.refused is None and not n.hidden]
        # _unwrap strips the parts of what it is given: the layout is told on copies.
        if _layout(_unwrap([replace(n, parts=list(n.parts), raw_parts=list(n.raw_parts)) for n in files])) == "plain":
            return None
        slugs = {ex.slug for ex in exercises}
        read_of = lambda n, origin: partial(read_beneath, top_fd, entries[n.entry.raw][0], origin)  # noqa: E731
        return _taken(_learners(names, read_of, where, "folder", slugs, identify), exercises, challenge)
    finally:
        os.close(top_fd)


MAX_DEPTH = 8  # of folders in an unzipped download: Moodle's are two deep


def _learners(
    names: list[Named], read_of, where: str, kind: str, slugs: set[str], identify: Identify
) -> tuple[list[_Hand], list[Learner]]:
    """The hand-ins of the entries `names` (a zip's, or a folder's as a zip would name them), read with
    `read_of(named, origin)`; and the rows of entries that belong to no learner."""
    # Hidden entries (".DS_Store", "__MACOSX/") are left alone, as a folder's are, unless they are a hazard.
    names = _unwrap([n for n in names if n.refused is not None or not n.hidden])
    files = [n for n in names if not n.directory]
    seen = Counter("/".join(n.parts) for n in files)
    for n in files:
        if n.refused is None and seen["/".join(n.parts)] > 1:
            count = seen["/".join(n.parts)]
            n.refused = f"{where}: {n.name}: the {kind} holds {count} entries of this name; none of them was read"
    layout = _layout([n for n in files if n.refused is None] or files)
    hands: dict[tuple, _Hand] = {}
    strays = []
    for n in names:
        if n.directory and (not n.parts or n.refused or layout == "canvas"):
            continue
        place = _place(n, layout, where, slugs, identify)
        if place == SKIP:
            continue
        if place is None:
            strays.append(_stray(n, where, _STRAY[layout]))
            continue
        key, learner, file_name, stem, version, notes, online = place
        hand = hands.setdefault(key, _Hand(learner, []))
        if learner.name < hand.learner.name and learner.lms:  # one LMS user under two names: a crafted zip
            hand.learner.name = learner.name
        hand.learner.notes.extend(note for note in notes if note not in hand.learner.notes)
        for name, value in learner.lms.items():
            hand.learner.lms.setdefault(name, value)
        if file_name is None:  # the learner's folder itself
            continue
        origin = f"{where}: {n.name}"
        read: Callable[[int], bytes] | None = None if n.refused else read_of(n, origin)
        if file_name.endswith("/"):  # a folder in a plain zip's learner folder: as a folder reader sees it
            if any(f.name == file_name[:-1] for f in hand.files):
                continue
            origin = f"{learner.origin.rstrip('/')}/{file_name[:-1]}"
            file_name, read = file_name[:-1], partial(_folder, origin)
        hand.files.append(HandedIn(file_name, origin, read, n.refused, stem, version, online))
    return list(hands.values()), strays


def _taken(found: tuple[list[_Hand], list[Learner]], exercises, challenge: str | None) -> list[Learner]:
    """The learners of the hand-ins `found`, their files read by intake's rules (`take`)."""
    hands, strays = found
    exercises = [ex for ex in exercises if challenge is None or ex.slug == challenge]
    learners = [take(hand.learner, hand.files, exercises, challenge) for hand in hands]
    for learner in learners:
        ids = [learner.lms[key] for key in ("canvas", "moodle", "moodle_group") if key in learner.lms]
        if ids:
            user = ids[0]
            learner.id = (
                f"{learner.name}_{user}" if learner.name and user and learner.name != user else learner.name or user
            )
    return distinct(learners, strays)


def _folder(origin: str, cap: int) -> bytes:
    raise Refused(f"{origin}: not a regular file; only regular files are read")


_STRAY = {
    "canvas": "not named as Canvas names a learner's file (NAME_USERID_ID_FILE); it was not read",
    "moodle": "not in a folder named as Moodle names a learner's (NAME_ID_assignsubmission_file_); it was not read",
    "plain": "not in a learner's folder; it was not read",
}


SKIP = "skip"  # an entry the layout leaves alone (a stray file at a plain zip's top, as a folder's is)


Identify = Callable[[list[Reading]], tuple[Reading | None, str | None]]
_ONLINE = {"text": "a text entry", "link": "a website URL"}


def _place(n: Named, layout: str, zip_name: str, slugs: set[str], identify: Identify):
    """(learner key, a Learner for them, the file's own name, stem, version, notes, what online entry it is or None)
    for an entry, or None if it is no learner's. An LMS's entry goes to the learner `identify` gives for its readings;
    one it gives to no one is a hand-in of its own, for no one (`Learner.unattributed` says why)."""
    if not n.parts:
        return None
    top = n.parts[0]
    if layout == "canvas":
        readings = canvas_readings(top)
        if not readings:
            return None
        reading, why = identify(readings)
        seen = reading or readings[0]  # for no one: the file as its first reading names it, for the teacher to read
        if seen.online:
            file = f"{seen.file} ({_ONLINE[seen.online]})"
        else:
            file = "/".join([seen.file, *n.parts[1:]])  # a folder only in a crafted zip
        stem, number = file, 0
        again = _RESUBMITTED.fullmatch(file)
        if again and not (file.endswith(".py") and file[:-3] in slugs):
            stem, number = again["stem"] + again["ext"], int(again["number"])
        version = (number, int(seen.attachment or 0))
        online = _ONLINE.get(seen.online)
        if reading is None:  # a name that reads as two learners': a hand-in of its own, for no one
            candidates = {"canvas_candidates": " ".join(sorted({r.user for r in readings}))}
            learner = Learner(id=top, name=top, origin=f"{zip_name}: {top}", lms=candidates, unattributed=why)
            return ("unattributed", n.raw_parts[0]), learner, file, stem, version, [], online
        notes = ["handed in late (Canvas)"] if reading.late else []
        name = reading.user if reading.kind == "anonymous" else reading.name
        lms = {"canvas": reading.user, "canvas_prefix": reading.prefix}
        if reading.attachment:  # Canvas's re-upload attaches a comment to a learner by one of their files' ids
            lms["canvas_attachment"] = reading.attachment
        # One learner's by its name; `why`: one the roster does not confirm, whose ids are kept for the teacher to
        # look up, and who is given to no one (lms.match takes `unattributed` first).
        learner = Learner(id="", name=name, origin=f"{zip_name}: {reading.prefix}_*", lms=lms, unattributed=why)
        # Keyed by the name too: Canvas writes one name for all of a user's files, and a name made to read as
        # another learner's ids ("eve_ 12_ 500_" reduces to "eve_12_500_...") is then a learner of its own, whose name
        # the roster's for that id does not match, instead of spoiling that learner's hand-in with a second file.
        key = ("canvas" if why is None else "unattributed", reading.user, name)
        return key, learner, file, stem, version, notes, online
    if layout == "moodle":
        match = _MOODLE.fullmatch(top)
        if match is None:
            return None
        reading, why = identify(moodle_readings(top))
        if reading is None:  # not given by identify: kept as the folder names it, given to no one
            reading = moodle_readings(top)[0]
            why = why or "not attributed"
        ids = {"moodle": reading.user} if reading.kind == "user" else {"moodle_group": reading.user}
        learner = Learner(id="", name=reading.name, origin=f"{zip_name}: {top}", lms=ids, unattributed=why)
        key = ("moodle" if why is None else "unattributed", reading.kind, reading.user, reading.name)
        if n.directory:  # the learner's folder, or one in it: files count wherever they are
            return key, learner, None, None, (), [], None
        file = n.parts[-1] if len(n.parts) > 1 else match["file"] or ""
        online = None
        if match["plugin"] != "assignsubmission_file" or not file:  # online text, feedback: not files to grade
            online = "online text" if match["plugin"] == "assignsubmission_onlinetext" else None
            file = f"{file} ({match['plugin']})"
        return key, learner, file, None, (), [], online
    if top == ".." or n.absolute:
        return None
    if len(n.parts) == 1 and not n.directory:  # at the top: a progress file is a learner, anything else is left alone
        if top.endswith(".json") and top != ".json":
            name = top[: -len(".json")]
            learner = Learner(id=name, name=name, origin=f"{zip_name}: {top}")
            return ("plain", n.raw_parts[0], ".json"), learner, top, None, (), [], None
        return None if n.refused else SKIP
    learner = Learner(id=top, name=top, origin=f"{zip_name}: {top}/")
    key = ("plain", n.raw_parts[0])  # by its bytes: names that differ only so are distinct()'s to tell apart
    if n.directory:  # the learner's folder, or a folder in it
        return key, learner, f"{n.parts[1]}/" if len(n.parts) > 1 else None, None, (), [], None
    if len(n.parts) == 2:
        file = n.parts[1]
    else:  # deeper, as a folder reader sees it: a folder in the learner's folder (or the path, if refused)
        file = "/".join(n.parts[1:]) if n.refused else f"{n.parts[1]}/"
    return key, learner, file, None, (), [], None
