"""Gradebooks out: the class's scores in the import layout of Canvas or Moodle, for learners matched with the LMS's
own gradebook export (the roster, read as the LMS wrote it). Rendered from gradebook.json and the roster alone, so a
merged, a resumed and a one-run class write the same bytes.

A challenge's score is its points (`points` in track.yaml, 1 unless set) times the share of its cases passed; a
challenge the learner handed nothing in for is left blank (the LMS keeps what it has); an error scores 0.

- Canvas (`canvas-import.csv`): the roster is Grades > Export. Learners are matched by their Canvas user id (the
  download's file names hold it; the export's `ID` column). The import has the export's identity columns (`Student`,
  `ID`, `SIS User ID`, `SIS Login ID`, `Section`...), then a column per challenge, named as the export names its
  assignment if it has one of that title (`Title (1234)`: Canvas updates it), else by the challenge's title (Canvas
  makes a new assignment); a `Points Possible` row gives each challenge's points.
- Moodle (`moodle-import.csv`): the roster is the assignment's grading worksheet (Assignment > View all
  submissions > Download grading worksheet: its `Identifier` is `Participant N`, the id in the download's folder
  names) or the course's gradebook export (Grades > Export > Plain text file: no participant ids, so learners are
  matched by their full name, when exactly one roster row has it). The import has the roster's identity columns
  (`Email address`, `ID number`, names...), then a column per challenge, which the teacher maps to a grade item
  (or to a new one) at import.

Learners that match no roster row are listed in `<lms>-unmatched.csv` with the reason, never dropped silently.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from ..errors import LoopcraftError
from ..printable import csv_cell
from .store import write_atomically

LMSS = ("canvas", "moodle")
ROSTER_BYTES = 50 * 1024 * 1024
CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Integration ID", "Root Account", "Section"]
MOODLE_IDENTITY = ["Full name", "First name", "Last name", "ID number", "Username", "Email address"]
MOODLE_KEYS = ["Email address", "ID number", "Username"]  # what Moodle's import can match a user by
_PARTICIPANT = re.compile(r"\S+ (\d+)")  # "Participant 123456", in the site's language


@dataclass(frozen=True)
class Column:
    slug: str
    title: str
    points: float


@dataclass(frozen=True)
class Roster:
    path: Path
    header: list[str]
    rows: list[dict[str, str]]  # the learners' rows, in the export's order


@dataclass(frozen=True)
class Export:
    """What an LMS's import file is made from besides the gradebook: which LMS, its roster, the challenges."""

    lms: str
    roster: Roster
    columns: dict[str, Column]  # by slug


def read_roster(lms: str, path: Path) -> Roster:
    """The LMS's gradebook export, as it wrote it; a LoopcraftError (`path:line: message`) if it is not one."""
    try:
        with path.open("rb") as f:
            data = f.read(ROSTER_BYTES + 1)
    except OSError as exc:
        raise LoopcraftError(f"{path}: cannot be read ({exc.strerror})") from None
    if len(data) > ROSTER_BYTES:
        raise LoopcraftError(f"{path}: over {ROSTER_BYTES:,} bytes: not a gradebook export")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LoopcraftError(f"{path}: not UTF-8 (byte 0x{data[exc.start]:02x}); export it again as UTF-8") from None
    try:
        table = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as exc:
        raise LoopcraftError(f"{path}: not CSV ({exc})") from None
    if not table:
        raise LoopcraftError(f"{path}: empty")
    header = [cell.strip() for cell in table[0]]
    rows = []
    for line, cells in enumerate(table[1:], 2):
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) > len(header):
            raise LoopcraftError(f"{path}:{line}: {len(cells)} cells, more than the header's {len(header)}")
        rows.append((line, dict(zip(header, [*cells, *[""] * (len(header) - len(cells))], strict=True))))
    if lms == "canvas":
        return _canvas_roster(path, header, rows)
    return _moodle_roster(path, header, rows)


def _canvas_roster(path: Path, header: list[str], rows: list[tuple[int, dict]]) -> Roster:
    missing = [name for name in ("Student", "ID") if name not in header]
    if missing:
        raise LoopcraftError(
            f"{path}:1: not a Canvas gradebook export (no {' or '.join(missing)} column); export it from Grades > "
            "Export > Export Entire Gradebook"
        )
    learners, seen = [], {}
    for line, row in rows:
        user = row["ID"].strip()
        if not user:  # "Points Possible", "Manual Posting" and such rows
            continue
        if user in seen:
            raise LoopcraftError(f"{path}:{line}: ID {user} again (first on line {seen[user]})")
        seen[user] = line
        learners.append(row)
    return Roster(path, header, learners)


def _moodle_roster(path: Path, header: list[str], rows: list[tuple[int, dict]]) -> Roster:
    if "Identifier" not in header and "Full name" not in header and not {"First name", "Last name"} <= set(header):
        raise LoopcraftError(
            f"{path}:1: not a Moodle grading worksheet (no Identifier column) nor a gradebook export (no First name "
            "and Last name columns)"
        )
    if not any(key in header for key in MOODLE_KEYS):
        raise LoopcraftError(
            f"{path}:1: no column Moodle's import can match a learner by ({', '.join(MOODLE_KEYS)}); export it with "
            "one of them shown"
        )
    if "Identifier" in header:
        for line, row in rows:
            if _PARTICIPANT.fullmatch(row["Identifier"].strip()) is None:
                raise LoopcraftError(f"{path}:{line}: Identifier {row['Identifier']!r} is not 'Participant NUMBER'")
    return Roster(path, header, [row for _, row in rows])


def prepare(lms: str, roster: Path, tracks, slugs: list[str]) -> Export:
    """The export of `slugs` (the gradebook's challenges) to `lms`; the roster is read now, so that a wrong one
    stops the run before anything is graded."""
    columns = {
        ex.slug: Column(ex.slug, ex.title, track.points_of(ex.slug))
        for track in tracks
        for ex in track.exercises
        if ex.slug in slugs
    }
    unknown = [slug for slug in slugs if slug not in columns]
    if unknown:
        raise LoopcraftError(f"the gradebook has challenges this course does not: {', '.join(unknown)}")
    return Export(lms, read_roster(lms, roster), {slug: columns[slug] for slug in slugs})


def _key(name: str) -> str:
    """A name as compared with another: NFC, case-folded, underscores as spaces (Moodle's folders have them so)."""
    return " ".join(unicodedata.normalize("NFC", name).replace("_", " ").casefold().split())


def _roster_keys(export: Export) -> dict[str, list[int]]:
    """Roster row numbers by the key learners are matched with."""
    keys: dict[str, list[int]] = {}
    for i, row in enumerate(export.roster.rows):
        if export.lms == "canvas":
            found = [row["ID"].strip()]
        elif "Identifier" in row:
            found = [_PARTICIPANT.fullmatch(row["Identifier"].strip())[1]]
        elif "Full name" in row:
            found = [_key(row["Full name"])]
        else:
            first, last = row.get("First name", ""), row.get("Last name", "")
            found = sorted({_key(f"{first} {last}"), _key(f"{last} {first}")})
        for key in found:
            keys.setdefault(key, []).append(i)
    return keys


def _match(learner: dict, export: Export, keys: dict[str, list[int]]) -> tuple[int | None, str]:
    """(the roster row of a gradebook row, or None; why not)."""
    lms = "Canvas" if export.lms == "canvas" else "Moodle"
    user = learner["lms"].get(export.lms)
    if user is None:
        return None, f"no {lms} id: not handed in through {lms}'s download"
    by_name = export.lms == "moodle" and "Identifier" not in export.roster.header
    key = _key(learner["name"]) if by_name else user
    rows = keys.get(key, [])
    if len(rows) == 1:
        return rows[0], ""
    if by_name:
        found = "no roster row has this name" if not rows else f"{len(rows)} roster rows have this name"
        return None, f"{found} (the roster is a gradebook export: matched by full name; the grading worksheet has ids)"
    return None, f"{'Canvas user' if export.lms == 'canvas' else 'Moodle participant'} {user} is not in the roster"


def _unsafe_key(export: Export, roster_row: dict[str, str]) -> str | None:
    """Why a roster row's import line cannot be written, if it cannot: a cell the LMS matches the learner by (a
    learner may choose their email) that a spreadsheet would run as a formula. Neutralised, the LMS would match no
    one with it; as it is, the import is not safe to open. So the learner is listed, to be graded by hand."""
    keys = ["ID"] if export.lms == "canvas" else MOODLE_KEYS
    for key in keys:
        value = roster_row.get(key)
        if value is not None and csv_cell(value) != value:
            return (
                f"the roster's {key} {csv_cell(value)} would be read as a formula by a spreadsheet (or holds a control "
                "character), and altered the LMS would match no one by it: enter this learner's grade by hand"
            )
    return None


def _score(cell: dict, points: float) -> str:
    if cell["status"] == "missing":
        return ""
    value = points * cell["passed"] / cell["total"] if cell["total"] else 0.0
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _heading(column: Column, export: Export) -> str:
    """The import column of a challenge: for Canvas, the export's column of an assignment of that title, if any."""
    if export.lms == "canvas":
        for name in export.roster.header:
            if re.fullmatch(rf"(?:{re.escape(column.title)}|{re.escape(column.slug)})(?: \(\d+\))?", name):
                return name
    return column.title


def _csv(rows: list[list]) -> str:
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows([[csv_cell(cell) for cell in row] for row in rows])
    return text.getvalue()


def write(out: Path, doc: dict, export: Export) -> list[str]:
    """OUT/<lms>-import.csv and OUT/<lms>-unmatched.csv; returns what the teacher should be told."""
    keys = _roster_keys(export)
    matched: dict[int, list[dict]] = {}
    unmatched: list[tuple[dict, str]] = []
    for learner in doc["learners"]:
        row, why = _match(learner, export, keys)
        if row is None:
            unmatched.append((learner, why))
        else:
            matched.setdefault(row, []).append(learner)
    for row, learners in list(matched.items()):
        if len(learners) > 1:  # several learners for one roster row: none of them is known to be its
            del matched[row]
            unmatched.extend((learner, f"{len(learners)} learners match one roster row") for learner in learners)
        elif (unsafe := _unsafe_key(export, export.roster.rows[row])) is not None:
            del matched[row]
            unmatched.append((learners[0], unsafe))
    known = CANVAS_IDENTITY if export.lms == "canvas" else MOODLE_IDENTITY
    identity = [name for name in known if name in export.roster.header]
    columns = list(export.columns.values())
    table = [identity + [_heading(column, export) for column in columns]]
    if export.lms == "canvas":
        table.append(["Points Possible", *[""] * (len(identity) - 1), *(f"{c.points:g}" for c in columns)])
    for i, roster_row in enumerate(export.roster.rows):
        if i in matched:
            cells = matched[i][0]["challenges"]
            table.append([roster_row[name] for name in identity] + [_score(cells[c.slug], c.points) for c in columns])
    name = f"{export.lms}-import.csv"
    write_atomically(out / name, _csv(table))
    lms_id = f"{'Canvas user' if export.lms == 'canvas' else 'Moodle participant'} id"
    listing = [["learner", "name", "origin", lms_id, "why"]]
    listing += [[r["learner"], r["name"], r["origin"], r["lms"].get(export.lms, ""), why] for r, why in unmatched]
    write_atomically(out / f"{export.lms}-unmatched.csv", _csv(listing))
    said = [f"{name}: {len(matched)} of the roster's {len(export.roster.rows)} learners"]
    if unmatched:
        said.append(f"left out of {name}: {len(unmatched)} (see {export.lms}-unmatched.csv, which says why)")
    return said
