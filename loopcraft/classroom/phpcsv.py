"""CSV as PHP reads and writes it, for Moodle's files: Moodle writes its worksheets and exports with PHP's `fputcsv`
and reads every upload with `fgetcsv` (moodle/moodle, lib/csvlib.class.php, csv_import_reader::load_csv_content:
the text made UTF-8, its BOM dropped, "\\r\\n" and "\\r" made "\\n", trimmed, then read line by line with
`fgetcsv($fp, 0, $delimiter, '"')`, PHP's default escape character `\\`). PHP's dialect is not RFC 4180's: inside a
quoted field a backslash makes the next character plain, so `"a \\" b"` is one field `a \\" b` (Python's csv ends
the field at that quote), and `fputcsv` does not double a quote that follows a backslash. Restated from php-src,
ext/standard/file.c, php_fgetcsv and php_fputcsv; tests/lms_rules.py restates them again, independently, to make
the fixtures.
"""

from __future__ import annotations

_ESCAPE = "\\"
_QUOTE = '"'
_SPACE = " \t\n\r\v\f"  # C's isspace in the "C" locale


def moodle_text(text: str) -> str:
    """An upload's text as csv_import_reader hands it to fgetcsv: newlines made "\\n", the whole text trimmed."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip(" \n\t\r\0\x0b")


def _lines(text: str):
    """The lines fgetcsv reads, each with its "\\n" (php_stream_get_line)."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end + 1
        yield text[start:end]
        start = end


def _trailing(line: str) -> int:
    """Where a line ends without its line break (php_fgetcsv_lookup_trailing_spaces: one "\\n", "\\r" or "\\r\\n")."""
    if line.endswith("\r\n"):
        return len(line) - 2
    if line.endswith(("\n", "\r")):
        return len(line) - 1
    return len(line)


def read(text: str, delimiter: str = ",") -> list[list[str]]:
    """The rows of `text` as Moodle's upload reads them (csv_import_reader: blank lines left out)."""
    lines = _lines(moodle_text(text))
    rows = []
    for line in lines:
        row = _row(line, lines, delimiter)
        if row is not None:
            rows.append(row)
    return rows


def _row(buf: str, more, delimiter: str) -> list[str] | None:
    """php_fgetcsv on one line (`more` gives the lines a quoted field runs on into); None for a blank line."""
    limit = line_end = _trailing(buf)
    ending = buf[line_end:]
    fields: list[str] = []
    at = 0
    first = True
    while True:
        # Spaces before a quote are skipped (a quote after them opens a quoted field); otherwise they are kept.
        skip = at
        while skip < limit and buf[skip] != delimiter and buf[skip] in _SPACE:
            skip += 1
        if skip < limit and buf[skip] == _QUOTE:
            at = skip
        if first and at == line_end:
            return None
        first = False
        if at < limit and buf[at] == _QUOTE:
            field, state = [], 0
            at += 1
            while True:
                if at >= limit:
                    if state == 2:  # the quote just read closed the field
                        break
                    # The line ends inside the quotes: its line break is the field's, and the next line goes on.
                    field.append(ending)
                    buf = next(more, None)
                    if buf is None:  # unterminated: the rest of the text is the field
                        fields.append("".join(field))
                        return fields
                    limit = line_end = _trailing(buf)
                    ending = buf[line_end:]
                    at, state = 0, 0
                    continue
                char = buf[at]
                if state == 1:  # after the escape character: plain, whatever it is
                    field.append(char)
                    state = 0
                elif state == 2:  # after a quote: a second one is a quote, anything else ended the field
                    if char != _QUOTE:
                        break
                    field.append(char)
                    state = 0
                elif char == _QUOTE:
                    state = 2
                else:
                    field.append(char)
                    if char == _ESCAPE:
                        state = 1
                at += 1
            # What follows the closing quote, up to the delimiter, is the field's too.
            end = buf.find(delimiter, at, limit)
            end = limit if end < 0 else end
            field.append(buf[at:end])
            fields.append("".join(field))
            if end >= limit:
                return fields
            at = end + 1
        else:
            end = buf.find(delimiter, at, limit)
            end = limit if end < 0 else end
            fields.append(buf[at:end])
            if end >= limit:
                return fields
            at = end + 1


def _field(field: str, delimiter: str) -> str:
    """One field as fgetcsv reads it back. Quoted as fputcsv quotes (if it holds the delimiter, a quote, a backslash,
    a line break, a tab or a space), and written by fgetcsv's own states rather than fputcsv's, which it misreads: a
    quote is doubled unless a backslash just before it takes it as plain (fputcsv leaves the quote of `\\\\"` single,
    and the field never ends); a field that ends in such a backslash closes its quotes before it, since the closing
    quote would be taken as plain too (fgetcsv keeps text after the quotes as the field's)."""
    if not any(c in field for c in (delimiter, _QUOTE, _ESCAPE, "\n", "\r", "\t", " ")):
        return field
    quoted, pending = [_QUOTE], False
    for char in field:
        if pending:  # taken as it is, whatever it is
            pending = False
        elif char == _ESCAPE:
            pending = True
        elif char == _QUOTE:
            quoted.append(_QUOTE)
        quoted.append(char)
    if pending:
        return "".join(quoted[:-1]) + _QUOTE + _ESCAPE
    return "".join(quoted) + _QUOTE


def write(rows: list[list[str]], delimiter: str = ",") -> str:
    """`rows` as PHP's fputcsv writes them (one "\\n" a row), so that Moodle's fgetcsv reads back every field as
    it is (`_field`); a "\\r" in a field is read back as "\\n", since Moodle's upload turns every "\\r" into one."""
    return "".join(delimiter.join(_field(field, delimiter) for field in row) + "\n" for row in rows)
