"""Text a learner supplied (names of files and folders, messages, printed output), made safe for where it is
shown: a terminal, a spreadsheet, a file name. HTML escaping is Jinja2's (autoescape); this is everything else.
"""

from __future__ import annotations

import hashlib
import re
import sys
import unicodedata

# Characters escaped wherever learner text is shown, by Unicode category: controls (C0, C1, DEL), format characters
# (the bidirectional overrides and isolates that reorder a line, zero-width and invisible ones: U+200B, U+2060,
# soft hyphen, tags), lone surrogates (no UTF-8 output can hold one) and line/paragraph separators: any of them can
# forge or disguise a line.
_HAZARDS = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))
# In names, also what shows nothing or may show as anything: spaces other than " ", private-use and unassigned code
# points, and the letters and marks that render blank (Hangul fillers, the braille blank, variation selectors, the
# combining grapheme joiner...): "bob" and "bob" followed by one of them would be two rows that read the same.
_NAME_HAZARDS = _HAZARDS | {"Zs", "Co", "Cn"}
_BLANK = re.compile("[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\uffa0\ufe00-\ufe0f\U000e0100-\U000e01ef]")
_NOT_PRINTABLE_ASCII = re.compile("[^\x20-\x7e]+")
# A space at either end of a name, or after another (HTML shows a run of spaces as one).
_LOOSE_SPACE = re.compile("^ | $|(?<= ) ")


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _escaped(text: str, categories: frozenset[str]) -> str:
    def run(match: re.Match) -> str:
        return "".join(
            _escape(char)
            if unicodedata.category(char) in categories or (categories is _NAME_HAZARDS and _BLANK.match(char))
            else char
            for char in match.group()
        )

    return _NOT_PRINTABLE_ASCII.sub(run, text)


def name_from_bytes(raw: bytes, *, normalise: bool = True) -> str:
    """A name as the file system or a zip gave it, as text: UTF-8 where it is, `\\xNN` for each byte where it is
    not, normalised to NFC (so that "é" typed two ways is one name) unless told not to, and shown as `name` shows
    it: two names that read the same are the same name."""
    text = raw.decode("utf-8", "backslashreplace")
    return name(unicodedata.normalize("NFC", text) if normalise else text)


def name(text: str) -> str:
    """`text` as a name is shown: on one line, every character that shows nothing or could disguise it escaped
    (see _NAME_HAZARDS), and spaces at its ends or after another space too."""
    return _LOOSE_SPACE.sub("\\\\x20", _escaped(text, _NAME_HAZARDS))


def one_line(text: str) -> str:
    """`text` on one line, every control and invisible character escaped, newlines included (a name: `name`)."""
    return _escaped(text, _HAZARDS)


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
