"""A name as intake reads it: a learner's folder or file, a zip's entry, the class's own file, whatever its bytes,
as the one text a row is keyed by and the teacher reads (escaped by printable.py's rule, and then some).
"""

from __future__ import annotations

import re
import unicodedata

from .printable import HAZARDS, escaped

# In names, also what shows nothing or may show as anything: spaces other than " ", private-use and unassigned code
# points, and the letters and marks that render blank (Hangul fillers, the braille blank, variation selectors, the
# combining grapheme joiner...): "bob" and "bob" followed by one of them would be two rows that read the same.
_NAME_HAZARDS = HAZARDS | {"Zs", "Co", "Cn"}
_BLANK = re.compile("[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\uffa0\ufe00-\ufe0f\U000e0100-\U000e01ef]")
# A space at either end of a name, or after another (HTML shows a run of spaces as one).
_LOOSE_SPACE = re.compile("^ | $|(?<= ) ")


def _hazard(char: str) -> bool:
    return unicodedata.category(char) in _NAME_HAZARDS or bool(_BLANK.match(char))


def name_from_bytes(raw: bytes, *, normalise: bool = True) -> str:
    """A name as the file system or a zip gave it, as text: UTF-8 where it is, `\\xNN` for each byte where it is
    not, normalised to NFC (so that "é" typed two ways is one name) unless told not to, and shown as `name` shows
    it: two names that read the same are the same name."""
    text = raw.decode("utf-8", "backslashreplace")
    return name(unicodedata.normalize("NFC", text) if normalise else text)


def name(text: str) -> str:
    """`text` as a name is shown: on one line, every character that shows nothing or could disguise it escaped
    (see _NAME_HAZARDS), and spaces at its ends or after another space too."""
    return _LOOSE_SPACE.sub("\\\\x20", escaped(text, _hazard))
