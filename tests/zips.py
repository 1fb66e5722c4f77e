"""Zips as LMSs make them and as attackers make them, byte by byte: `zipfile` writes only well-formed archives (it
cannot store a name that is not UTF-8, nor lie about a size), so the tests write their own.

Also the class the LMS tests share: a few learners of one challenge, handed in as Canvas and Moodle would, with the
course's own right and wrong solutions, and each system's gradebook export to match them against.
"""

from __future__ import annotations

import csv
import io
import os
import stat
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

from tests.helpers import ROOT

COURSE = ROOT / "exercises" / "build-an-agent"
LIMIT = "consecutive-error-limit"
RIGHT = (COURSE / LIMIT / "solution.py").read_text()
WRONG = (COURSE / LIMIT / "wrong" / "no_reset.py").read_text()


@dataclass
class Member:
    name: bytes | str
    data: bytes | str = b""
    deflate: bool = True
    utf8_flag: bool | None = None  # None: set when the name is not ASCII, as zip tools do
    mode: int = stat.S_IFREG | 0o644
    declared_size: int | None = None  # a lie about the uncompressed size
    crc: int | None = None  # a lie about the checksum
    local_name: bytes | None = None  # a different name at the data than in the index
    encrypted: bool = False
    compressed: bytes | None = None  # the entry's data as stored, in place of `data` deflated

    @property
    def raw(self) -> bytes:
        return self.name.encode() if isinstance(self.name, str) else self.name

    @property
    def content(self) -> bytes:
        return self.data.encode() if isinstance(self.data, str) else self.data


def build(members: list[Member], prefix: bytes = b"", zip64: bool = False) -> bytes:
    """A zip of `members` in order (duplicates and all), after `prefix` (as a self-extractor's stub); `zip64`: its
    index as ZIP64 writes it (every size and offset in an extra field, the counts in a record of their own)."""
    out, central = io.BytesIO(), io.BytesIO()
    out.write(prefix)
    full = 0xFFFFFFFF
    for m in members:
        data = m.content
        body = data if m.compressed is None else m.compressed
        if m.deflate and m.compressed is None:
            packer = zlib.compressobj(9, zlib.DEFLATED, -15)
            body = packer.compress(data) + packer.flush()
        flag = (not m.raw.isascii()) if m.utf8_flag is None else m.utf8_flag
        flags = (1 << 11 if flag else 0) | (1 if m.encrypted else 0)
        crc = zlib.crc32(data) if m.crc is None else m.crc
        size = len(data) if m.declared_size is None else m.declared_size
        method = 8 if m.deflate else 0
        offset = out.tell() - len(prefix)
        local = m.raw if m.local_name is None else m.local_name
        out.write(
            struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, flags, method, 0, 0x21, crc, len(body), size, len(local), 0)
        )
        out.write(local + body)
        extra = struct.pack("<HHQQQ", 1, 24, size, len(body), offset) if zip64 else b""
        sizes = (full, full, full) if zip64 else (len(body), size, offset)
        central.write(
            struct.pack(
                "<4sBBHHHHHIIIHHHHHII",
                b"PK\x01\x02",
                45 if zip64 else 20,
                3,  # made on Unix: the external attributes' high half is the mode
                20,
                flags,
                method,
                0,
                0x21,
                crc,
                sizes[0],
                sizes[1],
                len(m.raw),
                len(extra),
                0,
                0,
                0,
                m.mode << 16,
                sizes[2],
            )
        )
        central.write(m.raw + extra)
    cd = central.getvalue()
    cd_offset = out.tell() - len(prefix)
    out.write(cd)
    count = len(members)
    if zip64:
        record = out.tell() - len(prefix)
        out.write(struct.pack("<4sQHHIIQQQQ", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, len(cd), cd_offset))
        out.write(struct.pack("<4sIQI", b"PK\x06\x07", 0, record, 1))
        count, cd_size, cd_offset = 0xFFFF, full, full
    else:
        cd_size = len(cd)
    out.write(struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, count, count, cd_size, cd_offset, 0))
    return out.getvalue()


def overlapping(names: list[str], pad: bytes, then: list[Member]) -> bytes:
    """A zip whose first entries overlap (as in David Fifield's non-recursive zip bomb): each is stored, and its data
    runs from its own header's end over every later one's header and data, `pad` after each header; then `then`,
    plain stored entries. Read whole, entry after entry, the same bytes are read as many times as there are
    entries."""

    def local(name: bytes, data: bytes) -> bytes:
        return struct.pack(
            "<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0, 0, 0, 0x21, zlib.crc32(data), len(data), len(data), len(name), 0
        )

    raws = [name.encode() for name in names]
    out, at = bytearray(), []
    for raw in raws:
        at.append(len(out))
        out += bytes(30 + len(raw)) + pad
    end = len(out)
    for i in reversed(range(len(raws))):  # from the last: a header's checksum covers the later headers
        start = at[i] + 30 + len(raws[i])
        out[at[i] : start] = local(raws[i], bytes(out[start:end])) + raws[i]
    entries = [(raw, at[i], bytes(out[at[i] + 30 + len(raw) : end])) for i, raw in enumerate(raws)]
    for m in then:
        entries.append((m.raw, len(out), m.content))
        out += local(m.raw, m.content) + m.raw + m.content
    central = b"".join(
        struct.pack(
            "<4sBBHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 3, 20, 0, 0, 0, 0x21, zlib.crc32(data), len(data),
            len(data), len(raw), 0, 0, 0, 0, (stat.S_IFREG | 0o644) << 16, offset,
        )
        + raw
        for raw, offset, data in entries
    )  # fmt: skip
    count = len(entries)
    return (
        bytes(out) + central + struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, count, count, len(central), len(out), 0)
    )


def zip_folder(folder: Path) -> list[Member]:
    """What a zip tool makes of `folder`: names as the file system's bytes, links and FIFOs kept as what they are
    (a link's data is its target), a folder as an entry of its own."""
    members, root = [], os.fsencode(folder)
    for where, folders, files in os.walk(root):
        prefix = os.path.relpath(where, root) + b"/" if where != root else b""
        for name in sorted(folders) + sorted(files):
            path = os.path.join(where, name)
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                members.append(Member(prefix + name, os.readlink(path), mode=info.st_mode))
            elif stat.S_ISDIR(info.st_mode):
                members.append(Member(prefix + name + b"/", mode=info.st_mode))
            elif stat.S_ISREG(info.st_mode):
                with open(path, "rb") as f:
                    members.append(Member(prefix + name, f.read(), mode=info.st_mode))
            else:
                members.append(Member(prefix + name, mode=info.st_mode))
    return members


def deflated(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


def canvas_name(name: str, user: int, attachment: int, file: str, late: bool = False) -> str:
    return f"{name}{'_late' if late else ''}_{user}_{attachment}_{file}"


def moodle_folder(full_name: str, participant: int) -> str:
    return f"{full_name}_{participant}_assignsubmission_file_"


def csv_text(rows: list[list[str]]) -> str:
    text = io.StringIO()
    csv.writer(text, lineterminator="\r\n").writerows(rows)
    return text.getvalue()
