"""The LMS's import files, gradebooks out and feedback back: the class's scores in the import layouts of Canvas and
Moodle, on the LMS's own scale, for learners matched with the LMS's own export (the roster, read as the LMS wrote it,
lms.py). Rendered from gradebook.json and the roster alone, so a merged, a resumed and a one-run class write the same
bytes. Every rule here comes from the LMS's source (docs/teachers.md cites each):

- Canvas (`canvas-import.csv`): the roster is Grades > Export (instructure/canvas-lms, lib/gradebook_exporter.rb):
  `Student`, `ID`, `SIS User ID`, `SIS Login ID`, `Section`..., a column per assignment titled `Title (id)`, a
  `    Points Possible` row. Written with `;` between fields when the user's settings or locale say so
  (lib/csv_with_i18n.rb), and read back by lib/gradebook_importer.rb, which tells `;` from `,` by the first lines,
  finds an assignment by the id in its column's title (else by its whole title, else makes a new one), sets every
  assignment's points from the Points Possible row, and matches a learner by `ID`. So the import keeps the export's
  separator, its identity columns, its column titles and its points possible.
- Moodle: the roster is the assignment's grading worksheet (Assignment > Download grading worksheet; mod/assign/
  gradingtable.php: `Identifier` is `Participant N`, N the id in the download's folder names; `Grade`, `Maximum
  Grade`, `Last modified (grade)`, `Feedback comments`) or the course's gradebook export (Grades > Export > Plain
  text file: no participant ids, so learners are matched by their full name, when exactly one roster row has it).
  `moodle-import.csv` has the roster's identity columns and the score columns, for Grades > Import > CSV; with a
  worksheet, `moodle-worksheet.csv` is that worksheet with `Grade` (on its Maximum Grade) and `Feedback comments`
  filled, for the assignment's "Upload grading worksheet" (mod/assign/feedback/offline/importgradeslib.php).

A score is the column's points times the course-points-weighted share of cases passed of the challenges it holds. A
learner with nothing handed in for a column is blank there by default (`--missing blank`): the LMS keeps what it
has (a grade entered by hand, an excuse, its own missing-work policy); `--missing zero` writes 0. Learners that
match no roster row are listed in `<lms>-unmatched.csv` with the reason, never dropped silently.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from . import phpcsv
from .gradebook import MISSING, UNREAD
from .lms import (
    CANVAS_IDENTITY,
    MOODLE_FEEDBACK,
    MOODLE_IDENTITY,
    MOODLE_KEYS,
    Column,
    Export,
    Matched,
    lms_id_of,
    match,
    unsafe_key,
)
from .printable import csv_cell
from .store import write_atomically


def score(cells: dict[str, dict], column: Column, missing: str = "blank") -> float | None:
    """A learner's score in `column` from their gradebook cells: None (no score: the LMS keeps what it has) if they
    handed in nothing for it (unless `missing` is "zero"), or if a hand-in of it could not be read (nothing ran: the
    teacher is told, and decides)."""
    statuses = [cells[slug]["status"] for slug in column.weights]
    if UNREAD in statuses:
        return None
    if all(status == MISSING for status in statuses):
        return 0.0 if missing == "zero" else None
    share = sum(
        weight * cells[slug]["passed"] / cells[slug]["total"]
        for slug, weight in column.weights.items()
        if cells[slug]["status"] != MISSING and cells[slug]["total"]
    )
    return column.points * share / sum(column.weights.values())


def number(value: float | None, mark: str = ".") -> str:
    """A score as an import holds it: two decimals at most, in the export's decimal mark."""
    if value is None:
        return ""
    return f"{value:.2f}".rstrip("0").rstrip(".").replace(".", mark)


def _csv(rows: list[list], delimiter: str = ",", lms: str = "canvas") -> str:
    """A file for the LMS to read, every cell safe to open in a spreadsheet: Canvas reads RFC 4180 (Ruby's CSV),
    Moodle PHP's dialect (phpcsv.py)."""
    cells = [[csv_cell(cell) for cell in row] for row in rows]
    if lms == "moodle":
        return phpcsv.write(cells, delimiter)
    text = io.StringIO()
    csv.writer(text, delimiter=delimiter, lineterminator="\n").writerows(cells)
    return text.getvalue()


def _comments(learner: dict | None, titles: dict[str, str], worth: dict[str, float], mark: str) -> str:
    """A learner's feedback comment for the LMS: per challenge handed in, its points and cases passed, and what
    stopped it; only what the learner's own feedback page shows."""
    if learner is None:
        return ""
    if learner["error"]:  # its reason holds names the learner chose: it is on their page, not in the LMS's field
        return "Your hand-in could not be graded: your feedback page says why."
    said = []
    for slug, cell in learner["challenges"].items():
        if cell["status"] == MISSING or slug not in worth:
            continue
        title = titles.get(slug, slug)
        if cell["status"] == UNREAD:
            said.append(
                f"{title}: not graded, since nothing of your hand-in could be run (your feedback page says why)"
            )
            continue
        got = worth[slug] * cell["passed"] / cell["total"] if cell["total"] else 0.0
        said.append(
            f"{title}: {number(got, mark) or '0'} of {number(worth[slug], mark)} points, "
            f"{cell['passed']} of {cell['total']} cases passed"
            + {"timeout": " (a case ran out of time)", "error": " (the code raised an error)"}.get(cell["status"], "")
        )
    return ". ".join(said) + "." if said else ""


def matchable(export: Export) -> bool:
    """Whether Moodle's grade import can match `moodle-import.csv`'s rows: by a column it matches users by (grade/
    import/csv: Email address, ID number or Username), which a blind worksheet has none of."""
    return export.lms == "canvas" or any(key in export.roster.header for key in MOODLE_KEYS)


def files(export: Export) -> set[str]:
    """The files an export writes into OUT."""
    names = {f"{export.lms}-unmatched.csv"}
    if matchable(export):
        names.add(f"{export.lms}-import.csv")
    if export.lms == "moodle" and export.roster.worksheet:
        names.add("moodle-worksheet.csv")
    return names


def write(
    out: Path, doc: dict, export: Export, titles: dict[str, str] | None = None, matched: Matched | None = None
) -> list[str]:
    """OUT/<lms>-import.csv (and, from a Moodle worksheet, OUT/moodle-worksheet.csv) and OUT/<lms>-unmatched.csv;
    returns what the teacher should be told. A line is written only for a learner with a score to give: a blank
    where the LMS has a grade would clear it (Canvas: GradebookImporter#no_change_to_value? takes a blank beside a
    score for a change), so a learner with nothing to score is left out, and in a line of several columns a column
    with no score holds the export's own value, which the LMS reads as no change."""
    matched = matched or match(doc, export)
    roster = export.roster
    known = CANVAS_IDENTITY if export.lms == "canvas" else MOODLE_IDENTITY
    identity = [name for name in known if name in roster.header]
    columns = export.columns
    table = [identity + [c.heading for c in columns]]
    if export.lms == "canvas":
        # Canvas's importer sets every assignment's points from this row: the export's own, unless --points.
        table.append(["Points Possible", *[""] * (len(identity) - 1), *(number(c.points) for c in columns)])
    written = 0
    for i, roster_row in enumerate(roster.rows):
        learner = matched.rows.get(i)
        if learner is None and (export.missing == "blank" or i in matched.claimed):
            continue  # nothing handed in (or not known to be theirs): left out, so that the LMS keeps what it has
        cells = learner["challenges"] if learner else {slug: {"status": MISSING} for slug in doc["challenges"]}
        if learner is None and unsafe_key(export, roster_row):
            continue
        scores = [score(cells, c, export.missing) for c in columns]
        if all(value is None for value in scores):
            continue
        shown = [
            number(v, roster.mark) if v is not None else roster_row.get(c.heading, "")
            for v, c in zip(scores, columns, strict=True)
        ]
        table.append([roster_row[name] for name in identity] + shown)
        written += 1
    name = f"{export.lms}-import.csv"
    out_files = {}
    said = []
    if matchable(export):
        out_files[name] = _csv(table, roster.delimiter, export.lms)
        said.append(f"{name}: {written} of the roster's {len(roster.rows)} learners")
    else:
        said.append(
            f"{name} not written: the worksheet names no learner by a column Moodle's grade import matches users by "
            f"({', '.join(MOODLE_KEYS)}; blind marking shows none): upload moodle-worksheet.csv instead (the "
            "assignment's Upload grading worksheet)"
        )
    if export.lms == "moodle" and roster.worksheet:
        out_files["moodle-worksheet.csv"] = _worksheet(matched, export, titles or {})
    lms_id = f"{'Canvas user' if export.lms == 'canvas' else 'Moodle participant'} id"
    listing = [["learner", "name", "origin", lms_id, "why"]]
    listing += [[r["learner"], r["name"], r["origin"], lms_id_of(r, export.lms), why] for r, why in matched.unmatched]
    out_files[f"{export.lms}-unmatched.csv"] = _csv(listing)
    for file, text in out_files.items():
        write_atomically(out, file, text)
    for column in columns:
        if column.new:
            said.append(
                f"{name}: no assignment of the export is titled {column.heading!r}: Canvas will make a new one "
                "(give --assignment to fill one it has)"
            )
    if matched.unmatched:
        said.append(f"left out of {name}: {len(matched.unmatched)} (see {export.lms}-unmatched.csv, which says why)")
    return said


def _worksheet(matched: Matched, export: Export, titles: dict[str, str]) -> str:
    """The grading worksheet as Moodle wrote it, `Grade` and `Feedback comments` filled for the learners graded: its
    upload (importgradeslib.php) matches a row by its Identifier, reads Grade with the site's decimal mark (the one
    the worksheet's own numbers use), skips a row whose Grade is blank, and skips a row whose grade changed in
    Moodle since the worksheet's `Last modified (grade)`, unless told to ignore that."""
    roster = export.roster
    header = roster.header + ([MOODLE_FEEDBACK] if MOODLE_FEEDBACK not in roster.header else [])
    mark = roster.mark
    worth = export.worth()
    rows = [header]
    for i, roster_row in enumerate(roster.rows):
        row = {**roster_row, MOODLE_FEEDBACK: roster_row.get(MOODLE_FEEDBACK, "")}
        learner = matched.rows.get(i)
        if learner is not None or (export.missing == "zero" and i not in matched.claimed):
            cells = learner["challenges"] if learner else {slug: {"status": MISSING} for slug in worth}
            given = score(cells, export.columns[0], export.missing)
            if given is not None:
                row["Grade"] = number(given, mark)
                row[MOODLE_FEEDBACK] = _comments(learner, titles, worth, mark)
        rows.append([row.get(name, "") for name in header])
    return _csv(rows, roster.delimiter, "moodle")
