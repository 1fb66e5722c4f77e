"""The LMSs' own rules for the files they write, restated from their source so that fixtures are made by the rules
and not from our reading of an example (docs/teachers.md, "Where each format comes from", cites the same):

- Canvas's "Download Submissions": instructure/canvas-lms, lib/content_zipper.rb at 05e9653c, ContentZipper:
  #get_user_name and #sanitize_user_name (the sortable name, "_<digits>_" runs joined, lower case), #get_filename
  ([name, "LATE" if late, user id or "anon_<anonymous id>"] joined with "_", then #sanitize_file_name: every
  character but word characters removed), #add_upload_submission ("<that>_<attachment id>_<display name>", the
  display name through #sanitize_attachment_filename) and #add_text_or_url ("<that>_text.html", "<that>_link.html").
  A file handed in again under the same name is renamed by Attachment.make_unique_filename ("hw-1.py").
- Canvas's gradebook export: lib/gradebook_exporter.rb (GradebookExporter#csv_data: `Student`, `ID`, `SIS User ID`,
  `SIS Login ID`, `Section`, assignments as "Title (id)", totals; a "    Points Possible" row) and lib/csv_with_i18n.rb
  (`;` between fields by the user's setting or a decimal-comma locale; a BOM by another setting).
- Canvas's re-upload of marked-up submissions: app/models/assignment.rb, Assignment#infer_comment_context_from_filename.
- Moodle's "Download all submissions": mod/assign/classes/downloader.php (get_student_prefix: the full name with "_" made
  a space, or "Participant" under blind marking, "_" and the participant id, through clean_filename; a folder
  "<prefix>_assignsubmission_<plugin>" per plugin, "_" after it before Moodle 4.1; flat "<prefix>_assignsubmission_
  <plugin>_<file>" without the download-as-folders preference) and lib/classes/param.php (clean_filename).
- Moodle's grading worksheet: mod/assign/gradingtable.php (its columns) and its upload, mod/assign/feedback/offline/
  importgradeslib.php; the feedback files zip: mod/assign/feedback/file/importziplib.php, is_valid_filename_for_import.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
import unicodedata

_ATTACHMENT_UNSAFE = re.compile(r'[\x00/\\:*?"<>|]+')  # sanitize_attachment_filename


def _canvas_prefix(sortable_name: str | None, user: str, late: bool) -> str:
    name = None
    if sortable_name is not None:
        name = re.sub(r"_(\d+)_", r"\1", sortable_name)  # sanitize_user_name
        name = re.sub(r"^(\d+)$", r"\1", name).lower()
    joined = "_".join(part for part in (name, "LATE" if late else None, user) if part is not None)
    return "".join(c for c in joined if _word(c))  # sanitize_file_name: [^[[:word:]]] removed


def _word(char: str) -> bool:
    """Ruby's [[:word:]]: a letter, a mark, a decimal digit or a connector punctuation (Onigmo's definition)."""
    category = unicodedata.category(char)
    return category[0] in "LM" or category in ("Nd", "Pc")


def canvas_entry(
    sortable_name: str | None,
    user: int | str,
    file: str,
    *,
    attachment: int,
    late: bool = False,
    anonymous_id: str | None = None,
    kind: str = "upload",
) -> str:
    """A zip entry's name in Canvas's download. `anonymous_id`: the download of an anonymously graded assignment (no
    name, "anon_<id>" for the user); `kind`: "upload", "text" (a text entry) or "url"."""
    if anonymous_id is not None:
        prefix = _canvas_prefix(None, f"anon_{anonymous_id}", late)
    else:
        prefix = _canvas_prefix(sortable_name, str(user), late)
    if kind == "text":
        return f"{prefix}_text.html"
    if kind == "url":
        return f"{prefix}_link.html"
    return f"{prefix}_{attachment}_{_ATTACHMENT_UNSAFE.sub('_', file)}"


def canvas_reupload_owner(name: str) -> tuple[str, str | None] | None:
    """(user id, attachment id) as Canvas reads them from a re-uploaded file's name: the first two parts between
    underscores that are all digits; no attachment for a "link..." last part or a "._" name."""
    base = name.rsplit("/", 1)[-1]
    parts = base.split("_")
    digits = [part for part in parts if re.fullmatch(r"\d+", part)][:2]
    if not digits:
        return None
    attachment = digits[1] if len(digits) > 1 else None
    if parts[-1].startswith("link") or base.startswith("._"):
        attachment = None
    return digits[0], attachment


def canvas_export(
    learners: list[dict],
    assignments: list[tuple[str, int, float]],
    *,
    semicolons: bool = False,
    bom: bool = False,
    decimal_comma: bool = False,
) -> bytes:
    """Canvas's "Export Entire Gradebook": `learners` ({"name", "id", "sis", "login", "section"}), `assignments`
    (title, id, points possible), the totals Canvas adds, in the layout and dialect the settings give."""

    def number(value: float) -> str:
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return text.replace(".", ",") if decimal_comma else text

    header = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    header += [f"{title} ({aid})" for title, aid, _ in assignments] + ["Current Score", "Final Score"]
    rows = [header, ["    Points Possible", "", "", "", "", *(number(p) for _, _, p in assignments), "", ""]]
    for learner in learners:
        rows.append(
            [learner["name"], str(learner["id"]), learner.get("sis", ""), learner.get("login", ""),
             learner.get("section", "")] + [""] * len(assignments) + ["", ""]
        )  # fmt: skip
    text = io.StringIO()
    csv.writer(text, delimiter=";" if semicolons else ",", lineterminator="\n").writerows(rows)
    return (codecs.BOM_UTF8 if bom else b"") + text.getvalue().encode("utf-8")


_MOODLE_UNCLEAN = re.compile(r"[\x00-\x1f\x7f&<>\"`|':\\/]")  # what clean_filename (PARAM_FILE) removes


def moodle_prefix(full_name: str, participant: int, *, blind: bool = False) -> str:
    name = "Participant" if blind else full_name.replace("_", " ")
    return _MOODLE_UNCLEAN.sub("", f"{name}_{participant}")


def moodle_entry(
    full_name: str, participant: int, file: str, *, blind: bool = False, legacy: bool = False, folders: bool = True,
    plugin: str = "file",
) -> str:  # fmt: skip
    """A zip entry's name in Moodle's download: in the learner's folder (`legacy`: Moodle before 4.1, whose folder
    names end in "_"), or flat (`folders=False`)."""
    prefix = moodle_prefix(full_name, participant, blind=blind)
    if not folders:
        return _MOODLE_UNCLEAN.sub("", f"{prefix}_assignsubmission_{plugin}_{file}")
    return f"{prefix}_assignsubmission_{plugin}{'_' if legacy else ''}/{file}"


def moodle_import_owner(path: str) -> tuple[str, str] | None:
    """(participant id, file name) as Moodle's feedback zip import reads a path: the first part that splits on "_"
    (into five at most) into at least four pieces, the second a number, the third and fourth a plugin's type and
    name; the file is what follows."""
    parts = path.split("/")
    for at, part in enumerate(parts):
        pieces = part.split("_", 4)
        if len(pieces) >= 4 and pieces[1].isdigit() and pieces[2] in ("assignsubmission", "assignfeedback"):
            rest = [pieces[4]] if len(pieces) == 5 and pieces[4] else []
            return pieces[1], "/".join(rest + parts[at + 1 :])
    return None


WORKSHEET_HEADER = [
    "Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade", "Grade can be changed",
    "Last modified (submission)", "Last modified (grade)", "Feedback comments",
]  # fmt: skip


def moodle_team_entry(group: str | None, group_id: int | None, file: str) -> str:
    """A zip entry of a team assignment's download (downloader.php, get_student_prefix: the group's name, "_" made a
    space, "_" and the group's id; the learners in no group are "Default group", the defaultteam string, with no id),
    in its folder."""
    prefix = f"{group.replace('_', ' ')}_{group_id}" if group is not None else "Default group"
    return f"{_MOODLE_UNCLEAN.sub('', prefix)}_assignsubmission_file/{file}"


def moodle_worksheet(
    learners: list[dict], maximum: float, *, decimal_comma: bool = False, blind: bool = False, teams: bool = False,
    online: bool = False,
) -> bytes:  # fmt: skip
    """The assignment's grading worksheet as Moodle writes it (gradingtable.php's columns, through PHP's fputcsv):
    `learners` ({"participant", "name", "email", "status", "group", "text"}), every grade empty, Maximum Grade in the
    site's decimal mark. `blind`: blind marking, for a marker who may not see who is who (Identifier, no name or
    email); `teams`: a team assignment's Group column (the group's name, or "Default group"); `online`: an online text
    submission's column."""
    top = f"{maximum:.2f}".replace(".", "," if decimal_comma else ".")
    header = ["Identifier"] + ([] if blind else ["Full name", "Email address"]) + ["Status"]
    header += ["Group"] * teams + ["Grade", "Maximum Grade", "Grade can be changed", "Last modified (submission)"]
    header += ["Online text"] * online + ["Last modified (grade)", "Feedback comments"]
    rows = [header]
    for learner in learners:
        row = [f"Participant {learner['participant']}"]
        row += [] if blind else [learner["name"], learner["email"]]
        row += [learner.get("status", "")] + [learner.get("group") or "Default group"] * teams
        row += ["", top, "Yes", "Monday, 30 November 2026, 9:00 AM"] + [learner.get("text", "")] * online + ["-", ""]
        rows.append(row)
    return php_fputcsv(rows).encode("utf-8")


def php_fputcsv(rows: list[list[str]], delimiter: str = ",") -> str:
    """PHP's fputcsv (php-src, ext/standard/file.c, php_fputcsv), escape character "\\": a field holding the delimiter,
    a quote, a backslash, "\\n", "\\r", "\\t" or a space is quoted, and inside it a quote is doubled unless the last
    backslash before it made `escaped` (which only a character other than a backslash or an unescaped quote clears)."""
    lines = []
    for row in rows:
        out = []
        for field in row:
            if not any(c in field for c in (delimiter, '"', "\\", "\n", "\r", "\t", " ")):
                out.append(field)
                continue
            text, escaped = '"', False
            for c in field:
                if c == "\\":
                    escaped = True
                elif not escaped and c == '"':
                    text += '"'
                else:
                    escaped = False
                text += c
            out.append(text + '"')
        lines.append(delimiter.join(out) + "\n")
    return "".join(lines)


def php_fgetcsv_all(text: str, delimiter: str = ",") -> list[list[str]]:
    """The rows Moodle's upload reads (lib/csvlib.class.php, csv_import_reader::load_csv_content: "\\r\\n" and "\\r" made
    "\\n", the text trimmed, then fgetcsv line by line, blank lines dropped), each line read by php_fgetcsv's states:
    0 plain, 1 after the escape character (the next character is taken as it is, the backslash kept), 2 after a
    quote (a second quote is one quote, anything else ended the quotes; what follows them up to the delimiter is the
    field's too); a line end inside quotes is the field's, and the next line goes on."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip(" \n\r\t\v\0")
    lines = [line + "\n" for line in text.split("\n")] if text else []
    rows, at_line = [], 0
    while at_line < len(lines):
        line = lines[at_line][:-1]
        at_line += 1
        if line == "":
            continue
        row, pos = [], 0
        while True:
            start = pos
            while pos < len(line) and line[pos] in " \t\v\f" and line[pos] != delimiter:
                pos += 1
            if not (pos < len(line) and line[pos] == '"'):
                pos = start
            if pos < len(line) and line[pos] == '"':
                pos += 1
                value, state = "", 0
                while True:
                    if pos == len(line):
                        if state == 2:
                            break
                        if at_line == len(lines):  # never closed: the rest is the field
                            break
                        value += "\n"
                        line, pos, state = lines[at_line][:-1], 0, 0
                        at_line += 1
                        continue
                    c = line[pos]
                    if state == 2 and c != '"':
                        break
                    if state == 1:
                        state = 0
                    elif state == 2:
                        state = 0
                    elif c == '"':
                        state = 2
                        pos += 1
                        continue
                    elif c == "\\":
                        state = 1
                    value += c
                    pos += 1
                end = line.find(delimiter, pos)
                end = len(line) if end < 0 else end
                row.append(value + line[pos:end])
            else:
                end = line.find(delimiter, pos)
                end = len(line) if end < 0 else end
                row.append(line[pos:end])
            if end >= len(line):
                break
            pos = end + 1
        rows.append(row)
    return rows


_CANVAS_TOTALS = re.compile(r"Current Score|Current Points|Current Grade|Final Score|Final Points|Final Grade|Override")


def _decimal_comma_to_period(cell: str) -> str:
    """GradebookImporter's converter: a field of digits, "." and "," (a "-" before, a "%" after) has its last mark
    taken for the decimal one."""
    if not re.fullmatch(r"-?[\d.,]+%?", cell):
        return cell
    *whole, last = re.split(r"[.,]", cell)
    return "".join(whole) + "." + last if whole else last


def canvas_import_reads(data: bytes) -> tuple[dict[str, float], dict[str, dict[str, float | None]]]:
    """What Canvas's gradebook import (lib/gradebook_importer.rb) reads in an import file: the points possible of
    each assignment column by its id (`#parse_assignments`: the id in "Title (id)"; `#process_pp`), and each
    learner's scores by their Canvas user id (`#process_student`: the ID column). It fails as Canvas would refuse
    the file: a header whose first cells are not Student and ID or with no Section, a row without an ID, a score
    that is not a number or blank."""
    text = data.decode("utf-8-sig")
    lines = text.splitlines()[:3]

    def fields(sep: str) -> int:  # #identify_delimiter
        counts = {len(next(csv.reader([line], delimiter=sep), [])) for line in lines}
        return counts.pop() if len(counts) == 1 else 0

    delimiter = ";" if fields(";") > fields(",") else ","
    table = [row for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter) if row]
    header = table[0]
    assert len(header) > 3 and "Student" in header[0] and "ID" in header[1], f"Invalid header row: {header}"
    section = max(i for i, name in enumerate(header) if "Section" in name)
    columns = {
        i: re.fullmatch(r"(.*)\s\((\d+)\)", name)[2]
        for i, name in enumerate(header)
        if i > section and not _CANVAS_TOTALS.search(name)
    }
    points, scores = {}, {}
    for row in table[1:]:
        if "Points Possible" in row[0]:
            points = {aid: float(_decimal_comma_to_period(row[i])) for i, aid in columns.items()}
            continue
        assert row[1].strip().isdigit(), f"a learner's row without a Canvas user id: {row}"
        got = {}
        for i, aid in columns.items():
            cell = _decimal_comma_to_period(row[i].strip())
            got[aid] = None if cell in ("", "-") else float(cell)
        scores[row[1].strip()] = got
    return points, scores


def moodle_worksheet_reads(data: bytes, decimal_comma: bool = False) -> dict[str, tuple[float | None, str]]:
    """What Moodle's grading worksheet upload (mod/assign/feedback/offline/importgradeslib.php) reads: per
    participant id (the Identifier less "Participant "), the grade (unformat_float in the site's decimal mark;
    None for a blank, which it skips) and the feedback comments; it fails where Moodle would refuse the file (no
    Identifier, Grade or Last modified (grade) column) or skip a grade (negative, above the Maximum Grade)."""
    table = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    header = table[0]
    for required in ("Identifier", "Grade", "Last modified (grade)"):
        assert required in header, f"the upload needs a {required} column: {header}"
    out = {}
    for cells in table[1:]:
        row = dict(zip(header, cells, strict=True))
        participant = row["Identifier"][len("Participant ") :]
        grade = row["Grade"].strip()
        value = float(grade.replace(",", ".") if decimal_comma else grade) if grade else None
        maximum = float(row["Maximum Grade"].replace(",", ".") if decimal_comma else row["Maximum Grade"])
        assert value is None or 0 <= value <= maximum, f"Moodle skips a grade of {value} out of {maximum}"
        out[participant] = (value, row.get("Feedback comments", ""))
    return out
