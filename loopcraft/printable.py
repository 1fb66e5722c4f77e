"""Text a learner supplied (names of files and folders, messages, printed output), made safe for where it is
shown: a terminal, a spreadsheet, a file name. HTML escaping is Jinja2's (autoescape); this is everything else.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

# C0 and C1 controls, DEL, and the characters that reorder or hide text (bidirectional overrides and isolates,
# zero-width and line/paragraph separators): a file name holding them can forge or disguise a line.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def name_from_bytes(raw: bytes, *, normalise: bool = True) -> str:
    """A name as the file system or a zip gave it, as text: UTF-8 where it is, `\\xNN` for each byte where it is
    not, normalised to NFC (so that "é" typed two ways is one name) unless told not to, every unsafe character
    escaped."""
    text = raw.decode("utf-8", "backslashreplace")
    return one_line(unicodedata.normalize("NFC", text) if normalise else text)


def one_line(text: str) -> str:
    """`text` with every control and invisible character escaped, newlines included: for names, on one line."""
    text = _SURROGATE.sub(lambda m: _escape(m.group()), text)
    return _UNSAFE.sub(lambda m: _escape(m.group()), text)


def lines(text: str) -> str:
    """`text` as several lines: newlines and tabs kept, every other control or invisible character escaped."""
    return "\n".join(one_line(line).replace("\\x09", "\t") for line in text.split("\n"))


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def csv_cell(text: str) -> str:
    """A cell a spreadsheet shows as text: one that it would read as a formula gets a leading `'` (OWASP's advice
    for CSV injection), and controls are escaped."""
    text = one_line(text) if isinstance(text, str) else text
    if isinstance(text, str) and text.startswith(_FORMULA_START):
        return "'" + text
    return text


_FILE_SAFE = re.compile(r"[^a-z0-9._ -]")


def _percent(char: str) -> str:
    return "".join(f"%{b:02X}" for b in char.encode("utf-8", "surrogatepass"))


def file_name(name: str, limit: int = 120) -> str:
    """A file or folder name for `name`, safe on any file system and distinct for distinct names, even where the
    file system ignores case: lower-case letters, digits, ".", "_", " " and "-" as they are, anything else as %XX
    of its UTF-8 bytes ("Bob" is "%42ob"), never starting with ".", " " or "-" nor ending with " " or "."; a long
    one is cut and ends with a hash of the whole."""
    out = _FILE_SAFE.sub(lambda m: _percent(m.group()), name)
    if out[:1] in (".", " ", "-"):
        out = _percent(out[0]) + out[1:]
    if out[-1:] in (" ", "."):
        out = out[:-1] + _percent(out[-1])
    if len(out) > limit:
        out = f"{out[: limit - 17]}~{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:16]}"
    return out or "%"
