"""Gradebooks out, feedback back: the class's scores in the import layouts of Canvas and Moodle, on the LMS's own
scale, for learners matched with the LMS's own export (the roster, read as the LMS wrote it). Rendered from
gradebook.json and the roster alone, so a merged, a resumed and a one-run class write the same bytes. Every rule
here comes from the LMS's source (docs/teachers.md cites each):

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
import difflib
import io
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import LoopcraftError
from ..printable import csv_cell
from .store import write_atomically

LMSS = ("canvas", "moodle")
MISSING = ("blank", "zero")
ROSTER_BYTES = 50 * 1024 * 1024
CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Integration ID", "Root Account", "Section"]
# Canvas's importer leaves out any column whose title holds one of these (GradebookImporter#strip_non_assignment_columns).
CANVAS_TOTALS = re.compile(r"Current Score|Current Points|Current Grade|Final Score|Final Points|Final Grade|Override")
MOODLE_IDENTITY = ["Full name", "First name", "Last name", "ID number", "Username", "Email address"]
MOODLE_KEYS = ["Email address", "ID number", "Username"]  # what Moodle's import can match a user by
MOODLE_MAXIMUM = ("Maximum Grade", "Maximum grade")  # the worksheet's header, as Moodle's English strings have it
MOODLE_FEEDBACK = "Feedback comments"
_PARTICIPANT = re.compile(r"\S+ (\d+)")  # "Participant 123456", in the site's language
_NUMBER = re.compile(r"-?[\d.,]+")


@dataclass(frozen=True)
class Roster:
    path: Path
    header: list[str]
    rows: list[dict[str, str]]  # the learners' rows, in the export's order
    delimiter: str = ","  # as the LMS wrote it
    points: dict[str, str] = field(default_factory=dict)  # Canvas: the Points Possible row, by column

    @property
    def worksheet(self) -> bool:
        return "Identifier" in self.header

    @property
    def mark(self) -> str:
        """The decimal mark its numbers use, for the numbers written back (Canvas's importer reads either; Moodle's
        reads the site's own): a Moodle worksheet's Maximum Grade tells it."""
        maximum = next((h for h in MOODLE_MAXIMUM if h in self.header), None)
        return "," if maximum and any("," in row[maximum] for row in self.rows) else "."


@dataclass(frozen=True)
class Column:
    """A score column of an import: its heading, the challenges it scores (weighted by their course points) and
    what it is worth in the LMS."""

    heading: str
    weights: dict[str, float]  # by slug
    points: float
    new: bool = False  # Canvas: no assignment of the export has this heading; its import will make one


@dataclass(frozen=True)
class Export:
    """What an LMS's import files are made from besides the gradebook: which LMS, its roster, the columns."""

    lms: str
    roster: Roster
    columns: list[Column]
    missing: str = "blank"

    def worth(self) -> dict[str, float]:
        """What each challenge is worth on the LMS's scale: its share of its column's points."""
        return {
            slug: column.points * weight / sum(column.weights.values())
            for column in self.columns
            for slug, weight in column.weights.items()
        }


def decimal(text: str) -> float | None:
    """A number as an LMS's export writes it, "." or "," its decimal mark (Canvas's importer reads both:
    GradebookImporter's decimal_comma_to_period takes the last mark as the decimal one); None if it is not one."""
    text = text.strip()
    if not _NUMBER.fullmatch(text):
        return None
    *whole, fraction = re.split(r"[.,]", text)
    try:
        return float("".join(whole) + "." + fraction) if whole else float(fraction)
    except ValueError:
        return None


def _delimiter(text: str) -> str:
    """`;` or `,`, as Canvas's importer tells them (GradebookImporter#identify_delimiter): each of the first three
    lines split both ways; a separator counts only if every line has as many fields, and `;` wins only with more."""
    lines = text.splitlines()[:3]

    def fields(sep: str) -> int:
        counts = {len(next(csv.reader([line], delimiter=sep), [])) for line in lines}
        return counts.pop() if len(counts) == 1 else 0

    return ";" if fields(";") > fields(",") else ","


def read_roster(lms: str, path: Path) -> Roster:
    """The LMS's export, as it wrote it; a LoopcraftError (`path:line: message`) if it is not one."""
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
    delimiter = _delimiter(text)
    try:
        table = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
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
        return _canvas_roster(path, header, rows, delimiter)
    return _moodle_roster(path, header, rows, delimiter)


def _canvas_roster(path: Path, header: list[str], rows: list[tuple[int, dict]], delimiter: str) -> Roster:
    missing = [name for name in ("Student", "ID") if name not in header]
    if missing:
        raise LoopcraftError(
            f"{path}:1: not a Canvas gradebook export (no {' or '.join(missing)} column); export it from Grades > "
            "Export > Export Entire Gradebook"
        )
    learners, seen, points = [], {}, {}
    for line, row in rows:
        if "Points Possible" in row[header[0]] and not row["ID"].strip():
            points = row
            continue
        user = row["ID"].strip()
        if not user:  # "Manual Posting" and such rows
            continue
        if user in seen:
            raise LoopcraftError(f"{path}:{line}: ID {user} again (first on line {seen[user]})")
        seen[user] = line
        learners.append(row)
    return Roster(path, header, learners, delimiter, points)


def _moodle_roster(path: Path, header: list[str], rows: list[tuple[int, dict]], delimiter: str) -> Roster:
    if "Identifier" not in header and "Full name" not in header and not {"First name", "Last name"} <= set(header):
        raise LoopcraftError(
            f"{path}:1: not a Moodle grading worksheet (no Identifier column) nor a gradebook export (no First name "
            "and Last name columns)"
        )
    if "Identifier" not in header and not any(key in header for key in MOODLE_KEYS):
        raise LoopcraftError(
            f"{path}:1: no column Moodle's import can match a learner by ({', '.join(MOODLE_KEYS)}); export it with "
            "one of them shown"
        )
    if "Identifier" in header:
        for line, row in rows:
            if _PARTICIPANT.fullmatch(row["Identifier"].strip()) is None:
                raise LoopcraftError(f"{path}:{line}: Identifier {row['Identifier']!r} is not 'Participant NUMBER'")
    return Roster(path, header, [row for _, row in rows], delimiter)


def _canvas_assignments(roster: Roster) -> list[str]:
    """The export's assignment columns: after its identity and custom columns, not a total."""
    after = roster.header.index("Section") + 1 if "Section" in roster.header else 2
    return [name for name in roster.header[after:] if name and not CANVAS_TOTALS.search(name)]


def _find(name: str, candidates: list[str], roster: Roster) -> str:
    """The column `--assignment NAME` names: its whole title, its title without Canvas's " (id)", or its id."""
    for candidate in candidates:
        title = re.fullmatch(r"(.*) \((\d+)\)", candidate)
        if name in (candidate, *(title.groups() if title else ())):
            return candidate
    close = difflib.get_close_matches(name, candidates, n=3, cutoff=0.4)
    hint = f"; the closest: {', '.join(repr(c) for c in close)}" if close else ""
    raise LoopcraftError(f"{roster.path}:1: --assignment {name!r} is not a column of this export{hint}")


def _maximum(roster: Roster) -> float | None:
    """A Moodle worksheet's Maximum Grade (the same on every row: the assignment's)."""
    heading = next((h for h in MOODLE_MAXIMUM if h in roster.header), None)
    found = {decimal(row[heading]) for row in roster.rows} - {None} if heading else set()
    return found.pop() if len(found) == 1 else None


def prepare(
    lms: str,
    roster: Path,
    tracks,
    slugs: list[str],
    *,
    assignment: str | None = None,
    points: float | None = None,
    missing: str = "blank",
) -> Export:
    """The export of `slugs` (the gradebook's challenges) to `lms`; the roster is read now, so that a wrong one (or
    an --assignment it has no column of) stops the run before anything is graded."""
    course = {ex.slug: (ex.title, track.points_of(ex.slug)) for track in tracks for ex in track.exercises}
    unknown = [slug for slug in slugs if slug not in course]
    if unknown:
        raise LoopcraftError(f"the gradebook has challenges this course does not: {', '.join(unknown)}")
    read = read_roster(lms, roster)
    weights = {slug: course[slug][1] for slug in slugs}
    if lms == "canvas":
        columns = _canvas_columns(read, slugs, course, weights, assignment)
    elif read.worksheet:  # one assignment's own worksheet: one score, on its Maximum Grade
        if assignment is not None:
            raise LoopcraftError(f"{roster}: a grading worksheet is one assignment's own: --assignment is not needed")
        columns = [Column("Grade", weights, _maximum(read) or sum(weights.values()))]
    elif assignment is not None:
        columns = [Column(_find(assignment, read.header, read), weights, sum(weights.values()))]
    else:
        columns = [Column(course[slug][0], {slug: weights[slug]}, weights[slug]) for slug in slugs]
    if points is not None:
        if len(columns) > 1:
            raise LoopcraftError(
                f"--points {points:g} is one column's worth, and the import has {len(columns)} (a column per "
                "challenge): give --assignment too, or --challenge"
            )
        columns = [Column(columns[0].heading, columns[0].weights, points, columns[0].new)]
    return Export(lms, read, columns, missing)


def _canvas_columns(roster: Roster, slugs, course, weights, assignment: str | None) -> list[Column]:
    assignments = _canvas_assignments(roster)

    def worth(heading: str, default: float) -> float:
        cell = roster.points.get(heading, "")
        if re.search(r"read\s+only", cell):  # Canvas's importer leaves such a column out
            raise LoopcraftError(f"{roster.path}: {heading!r} is read only in Canvas: its scores cannot be imported")
        value = decimal(cell)
        return default if value is None else value

    if assignment is not None:
        heading = _find(assignment, assignments, roster)
        return [Column(heading, weights, worth(heading, sum(weights.values())))]
    columns = []
    for slug in slugs:
        title = course[slug][0]
        found = [
            name
            for name in assignments
            if re.fullmatch(rf"(?:{re.escape(title)}|{re.escape(slug)})(?: \(\d+\))?", name)
        ]
        heading = found[0] if found else title
        columns.append(Column(heading, {slug: weights[slug]}, worth(heading, weights[slug]), new=not found))
    return columns


def _key(name: str) -> str:
    """A name as compared with another: NFC, case-folded, underscores as spaces (Moodle's folders have them so)."""
    return " ".join(unicodedata.normalize("NFC", name).replace("_", " ").casefold().split())


def _letters(name: str) -> str:
    """A name reduced as Canvas reduces it in a download's file names (lower case, word characters only), and a
    little more (no underscores or marks), so that the two sides compare whatever their version."""
    return "".join(c for c in unicodedata.normalize("NFKC", name).casefold() if c.isalnum())


_ESCAPE = re.compile(r"\\(?:x([0-9a-f]{2})|u([0-9a-f]{4})|U([0-9a-f]{8}))")


def _unescaped(name: str) -> str:
    """A name of a Canvas download as the file had it: names are read with what shows nothing escaped
    (`printable.name`), and a Canvas name holds no backslash of its own (only word characters)."""
    return _ESCAPE.sub(lambda m: chr(int(next(g for g in m.groups() if g), 16)), name)


def _roster_keys(export: Export) -> dict[str, list[int]]:
    """Roster row numbers by the key learners are matched with."""
    keys: dict[str, list[int]] = {}
    for i, row in enumerate(export.roster.rows):
        if export.lms == "canvas":
            found = [row["ID"].strip()]
        elif export.roster.worksheet:
            found = [_PARTICIPANT.fullmatch(row["Identifier"].strip())[1]]
        elif "Full name" in row:
            found = [_key(row["Full name"])]
        else:
            first, last = row.get("First name", ""), row.get("Last name", "")
            found = sorted({_key(f"{first} {last}"), _key(f"{last} {first}")})
        for key in found:
            keys.setdefault(key, []).append(i)
    return keys


def roster_name(export: Export, row: dict[str, str]) -> str:
    """A roster row's learner as the LMS names them."""
    if export.lms == "canvas":
        return row["Student"]
    if "Full name" in row:
        return row["Full name"]
    if "First name" in row:
        return f"{row.get('First name', '')} {row.get('Last name', '')}".strip()
    return row.get("Identifier", "")


def _match(learner: dict, export: Export, keys: dict[str, list[int]]) -> tuple[int | None, str]:
    """(the roster row of a gradebook row, or None; why not)."""
    lms = "Canvas" if export.lms == "canvas" else "Moodle"
    user = learner["lms"].get(export.lms)
    if user is None:
        return None, f"no {lms} id: not handed in through {lms}'s download"
    if user.startswith("anon_"):
        return None, "an anonymous download names no Canvas user: download the submissions with anonymity off"
    by_name = export.lms == "moodle" and not export.roster.worksheet
    key = _key(learner["name"]) if by_name else user
    rows = keys.get(key, [])
    if len(rows) == 1:
        if export.lms == "canvas":
            # The download's name is the learner's own (sortable, reduced): one that does not reduce to the roster's
            # name for this id may be a name made to look like another learner's ids ("x_ 12_ 34_" reduces so).
            roster = export.roster.rows[rows[0]]["Student"]
            if _letters(_unescaped(learner["name"])) != _letters(roster):
                return None, (
                    f"the download names Canvas user {user} {learner['name']!r}, the roster {roster!r}: a group's "
                    "hand-in (Canvas names it after the group and one member), a learner renamed since the export, or "
                    "a name made to look like another learner's file; grade by hand"
                )
        if export.roster.worksheet and learner["name"] != "Participant" and "Full name" in export.roster.header:
            # A team's folder bears the group's name and id (mod/assign/classes/downloader.php), and a group's id
            # may be a participant's too; blind marking writes "Participant" and the worksheet no names.
            roster = export.roster.rows[rows[0]]["Full name"]
            if _letters(_unescaped(learner["name"])) != _letters(roster):
                return None, (
                    f"the download names participant {user} {learner['name']!r}, the worksheet {roster!r}: a team's "
                    "hand-in (Moodle names it after the group and its id) or a learner renamed since; grade by hand"
                )
        return rows[0], ""
    if by_name:
        found = "no roster row has this name" if not rows else f"{len(rows)} roster rows have this name"
        return None, f"{found} (the roster is a gradebook export: matched by full name; the grading worksheet has ids)"
    return None, f"{'Canvas user' if export.lms == 'canvas' else 'Moodle participant'} {user} is not in the roster"


def _unsafe_key(export: Export, roster_row: dict[str, str]) -> str | None:
    """Why a roster row's import line cannot be written, if it cannot: a cell the LMS matches the learner by (a
    learner may choose their email) that a spreadsheet would run as a formula. Neutralised, the LMS would match no
    one with it; as it is, the import is not safe to open. So the learner is listed, to be graded by hand."""
    if export.lms == "canvas" and "Points Possible" in roster_row["Student"]:
        # Canvas's importer takes any row whose first cell holds these words for its points row (#process_pp).
        return "Canvas's import reads a row whose name holds 'Points Possible' as its points: enter this grade by hand"
    keys = ["ID"] if export.lms == "canvas" else ["Identifier", *MOODLE_KEYS]
    for key in keys:
        value = roster_row.get(key)
        if value is not None and csv_cell(value) != value:
            return (
                f"the roster's {key} {csv_cell(value)} would be read as a formula by a spreadsheet (or holds a control "
                "character), and altered the LMS would match no one by it: enter this learner's grade by hand"
            )
    return None


def score(cells: dict[str, dict], column: Column, missing: str = "blank") -> float | None:
    """A learner's score in `column` from their gradebook cells: None (blank) if they handed in nothing for it."""
    if all(cells[slug]["status"] == "missing" for slug in column.weights):
        return 0.0 if missing == "zero" else None
    share = sum(
        weight * cells[slug]["passed"] / cells[slug]["total"]
        for slug, weight in column.weights.items()
        if cells[slug]["status"] != "missing" and cells[slug]["total"]
    )
    return column.points * share / sum(column.weights.values())


def number(value: float | None, mark: str = ".") -> str:
    """A score as an import holds it: two decimals at most, in the export's decimal mark."""
    if value is None:
        return ""
    return f"{value:.2f}".rstrip("0").rstrip(".").replace(".", mark)


def _csv(rows: list[list], delimiter: str = ",") -> str:
    text = io.StringIO()
    csv.writer(text, delimiter=delimiter, lineterminator="\n").writerows(
        [[csv_cell(cell) for cell in row] for row in rows]
    )
    return text.getvalue()


@dataclass
class Matched:
    """The gradebook rows matched with the roster's, and those that are not (with why)."""

    rows: dict[int, dict] = field(default_factory=dict)  # by roster row
    unmatched: list[tuple[dict, str]] = field(default_factory=list)
    claimed: set[int] = field(default_factory=set)  # roster rows some learner matched, kept in `rows` or not


def match(doc: dict, export: Export) -> Matched:
    keys = _roster_keys(export)
    found: dict[int, list[dict]] = {}
    out = Matched()
    for learner in doc["learners"]:
        row, why = _match(learner, export, keys)
        if row is None:
            out.unmatched.append((learner, why))
        else:
            found.setdefault(row, []).append(learner)
    out.claimed = set(found)
    for row, learners in found.items():
        if len(learners) > 1:  # several learners for one roster row: none of them is known to be its
            out.unmatched.extend((learner, f"{len(learners)} learners match one roster row") for learner in learners)
        elif (unsafe := _unsafe_key(export, export.roster.rows[row])) is not None:
            out.unmatched.append((learners[0], unsafe))
        else:
            out.rows[row] = learners[0]
    return out


def _comments(learner: dict | None, titles: dict[str, str], worth: dict[str, float], mark: str) -> str:
    """A learner's feedback comment for the LMS: per challenge handed in, its points and cases passed, and what
    stopped it; only what the learner's own feedback page shows."""
    if learner is None:
        return ""
    if learner["error"]:  # its reason holds names the learner chose: it is on their page, not in the LMS's field
        return "Your hand-in could not be graded: your feedback page says why."
    said = []
    for slug, cell in learner["challenges"].items():
        if cell["status"] == "missing" or slug not in worth:
            continue
        got = worth[slug] * cell["passed"] / cell["total"] if cell["total"] else 0.0
        said.append(
            f"{titles.get(slug, slug)}: {number(got, mark) or '0'} of {number(worth[slug], mark)} points, "
            f"{cell['passed']} of {cell['total']} cases passed"
            + {"timeout": " (a case ran out of time)", "error": " (the code could not be run)"}.get(cell["status"], "")
        )
    return ". ".join(said) + "." if said else ""


def write(
    out: Path, doc: dict, export: Export, titles: dict[str, str] | None = None, matched: Matched | None = None
) -> list[str]:
    """OUT/<lms>-import.csv (and, from a Moodle worksheet, OUT/moodle-worksheet.csv) and OUT/<lms>-unmatched.csv;
    returns what the teacher should be told."""
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
            continue  # nothing handed in: left out, so that the LMS keeps what it has (Canvas's importer takes a
            # blank where it has a score for a change)
        cells = learner["challenges"] if learner else {slug: {"status": "missing"} for slug in doc["challenges"]}
        if learner is None and _unsafe_key(export, roster_row):
            continue
        scores = [number(score(cells, c, export.missing), roster.mark) for c in columns]
        table.append([roster_row[name] for name in identity] + scores)
        written += 1
    name = f"{export.lms}-import.csv"
    files = {name: _csv(table, roster.delimiter)}
    if export.lms == "moodle" and roster.worksheet:
        files["moodle-worksheet.csv"] = _worksheet(matched, export, titles or {})
    lms_id = f"{'Canvas user' if export.lms == 'canvas' else 'Moodle participant'} id"
    listing = [["learner", "name", "origin", lms_id, "why"]]
    listing += [
        [r["learner"], r["name"], r["origin"], r["lms"].get(export.lms, ""), why] for r, why in matched.unmatched
    ]
    files[f"{export.lms}-unmatched.csv"] = _csv(listing)
    for file, text in files.items():
        write_atomically(out, file, text)
    said = [f"{name}: {written} of the roster's {len(roster.rows)} learners"]
    nothing = len(roster.rows) - len(matched.claimed)
    if nothing and export.missing == "blank":
        said.append(f"{name}: {nothing} roster learners handed nothing in: left blank (--missing zero writes 0)")
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
    the worksheet's own numbers use), and skips a row whose grade changed in Moodle since the worksheet's `Last
    modified (grade)`, unless told to ignore that."""
    roster = export.roster
    header = roster.header + ([MOODLE_FEEDBACK] if MOODLE_FEEDBACK not in roster.header else [])
    mark = roster.mark
    worth = export.worth()
    rows = [header]
    for i, roster_row in enumerate(roster.rows):
        row = {**roster_row, MOODLE_FEEDBACK: roster_row.get(MOODLE_FEEDBACK, "")}
        learner = matched.rows.get(i)
        if learner is not None or (export.missing == "zero" and i not in matched.claimed):
            cells = learner["challenges"] if learner else {slug: {"status": "missing"} for slug in worth}
            row["Grade"] = number(score(cells, export.columns[0], export.missing), mark) or row.get("Grade", "")
            row[MOODLE_FEEDBACK] = _comments(learner, titles, worth, mark)
        rows.append([row.get(name, "") for name in header])
    return _csv(rows, roster.delimiter)


def people(
    doc: dict, export: Export, totals: dict[str, int], matched: Matched | None = None
) -> tuple[dict[str, dict], list[dict]]:
    """Who the gradebook's learners are in the LMS ({learner: {"name": as the roster names them, "lms_id"}}), and a
    gradebook row for each roster learner no hand-in matched (nothing handed in: every challenge missing)."""
    matched = matched or match(doc, export)
    found = {r["learner"]: {"lms_id": r["lms"].get(export.lms, "")} for r, _ in matched.unmatched}
    for i, learner in matched.rows.items():
        found[learner["learner"]] = {
            "name": roster_name(export, export.roster.rows[i]),
            "lms_id": learner["lms"][export.lms],
        }
    taken = {r["learner"] for r in doc["learners"]}
    absent = []
    for i, row in enumerate(export.roster.rows):
        if i in matched.claimed:
            continue
        name = roster_name(export, row)
        lms_id = row["ID"].strip() if export.lms == "canvas" else ""
        if export.roster.worksheet:
            lms_id = _PARTICIPANT.fullmatch(row["Identifier"].strip())[1]
        learner = f"{name} ({lms_id})" if lms_id else name
        while learner in taken:
            learner += " (roster)"
        taken.add(learner)
        absent.append(
            {
                "learner": learner,
                "name": name,
                "lms_id": lms_id,
                "origin": f"{export.roster.path.name} (the roster)",
                "error": None,
                "notes": ["nothing handed in: on the roster, not in the download"],
                "lms": {export.lms: lms_id} if lms_id else {},
                "challenges": {slug: {"status": "missing", "passed": 0, "total": totals[slug]} for slug in totals},
            }
        )
    return found, absent
