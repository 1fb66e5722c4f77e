"""Text a learner supplied (messages, printed output, names once read), made safe for where it is shown: a terminal,
a spreadsheet, a file name. HTML escaping is Jinja2's (autoescape); this is everything else. How a name is read
from the bytes of a file's or a zip entry's name is intake's (names.py), by the same escaping.
"""

from __future__ import annotations

import hashlib
import re
import sys
import unicodedata
from collections.abc import Callable

# Characters escaped wherever learner text is shown, by Unicode category: controls (C0, C1, DEL), format characters
# (the bidirectional overrides and isolates that reorder a line, zero-width and invisible ones: U+200B, U+2060,
# soft hyphen, tags), lone surrogates (no UTF-8 output can hold one) and line/paragraph separators: any of them can
# forge or disguise a line. A name escapes more (names.py).
HAZARDS = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))
_NOT_PRINTABLE_ASCII = re.compile("[^\x20-\x7e]+")


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def hazard(char: str) -> bool:
    """Whether `char` is escaped wherever learner text is shown (HAZARDS)."""
    return unicodedata.category(char) in HAZARDS


def escaped(text: str, hazardous: Callable[[str], bool] = hazard) -> str:
    """`text` with every character outside printable ASCII that is `hazardous` as `\\xNN`, `\\uNNNN` or `\\UNNNNNNNN`."""

    def run(match: re.Match) -> str:
        return "".join(_escape(char) if hazardous(char) else char for char in match.group())

    return _NOT_PRINTABLE_ASCII.sub(run, text)


def one_line(text: str) -> str:
    """`text` on one line, every control and invisible character escaped, newlines included (a name: `names.name`)."""
    return escaped(text)


def lines(text: str) -> str:
    """`text` as several lines: newlines and tabs kept, every other control or invisible character escaped."""
    return "\n".join(one_line(line).replace("\\x09", "\t") for line in text.split("\n"))


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def csv_cell(text: str) -> str:
    """A cell a spreadsheet shows as text: one that it would read as a formula gets a leading `'` (OWASP's advice
    for CSV injection), and controls are escaped."""
    text = one_line(text) if isinstance(text, str) else text
    # A lone "-" is no formula (a spreadsheet shows it as it is), and Moodle's worksheet writes it for "never".
    if isinstance(text, str) and text.startswith(_FORMULA_START) and text != "-":
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


def say(text: str) -> None:
    """A line for the teacher, on the terminal (standard error): what a class run did, and what needs them."""
    print(text, file=sys.stderr)
