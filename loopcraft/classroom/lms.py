"""The LMS's side of a class, as its own export (the roster: Canvas's Grades > Export, Moodle's grading worksheet or
gradebook export, read as the LMS wrote it) says it: who a hand-in belongs to (`identify`: a reading of its name the
LMS's rules allow and the roster confirms), the gradebook's rows matched with the roster's (`match`, proved at every
run by `accounted`), and who each learner is in the LMS (`people`, `handback_ids`). The files written back for the
LMS to import, and every rule of their layouts: lmsfiles.py.
"""

from __future__ import annotations

import csv
import difflib
import io
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from loopcraft.course.errors import LoopcraftError

from . import phpcsv
from .gradebook import MISSING
from .printable import csv_cell
from .zipped import Reading

LMSS = ("canvas", "moodle")
MISSING_RULES = ("blank", "zero")
ROSTER_BYTES = 50 * 1024 * 1024
CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Integration ID", "Root Account", "Section"]
# Canvas's importer leaves out any column whose title holds one of these (GradebookImporter#strip_non_assignment_columns).
CANVAS_TOTALS = re.compile(r"Current Score|Current Points|Current Grade|Final Score|Final Points|Final Grade|Override")
MOODLE_IDENTITY = ["Full name", "First name", "Last name", "ID number", "Username", "Email address"]
MOODLE_KEYS = ["Email address", "ID number", "Username"]  # what Moodle's import can match a user by
MOODLE_MAXIMUM = ("Maximum Grade", "Maximum grade")  # the worksheet's header, as Moodle's English strings have it
MOODLE_FEEDBACK = "Feedback comments"
# A team assignment's worksheet has the member's group (mod/assign/gradingtable.php, col_team: the group's name, or
# the "Default group" string for a learner in none), headed get_string('submissionteam', 'assign').
MOODLE_GROUP = "Group"
_PARTICIPANT = re.compile(r"(\S+) (\d+)")  # "Participant 123456", in the site's language
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
    def teams(self) -> bool:
        """A team assignment's worksheet: its download holds a folder per group, none per learner."""
        return self.worksheet and MOODLE_GROUP in self.header

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
    if lms == "moodle":  # written by PHP's fputcsv, read back by Moodle with fgetcsv: PHP's dialect (phpcsv.py)
        table = phpcsv.read(text, delimiter)
    else:
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


_MOODLE_UNCLEAN = re.compile(r"[\x00-\x1f\x7f&<>\"`|':\\/]")


def _moodle_folder(group: str) -> str:
    """A group's name as Moodle's download writes it in its folder's name (downloader.php, get_student_prefix: "_"
    made a space, then clean_filename, lib/classes/param.php: PARAM_FILE's characters removed), NFC as read."""
    return unicodedata.normalize("NFC", _MOODLE_UNCLEAN.sub("", group.replace("_", " ")))


def _unescaped(name: str) -> str:
    """A name of a Canvas download as the file had it: names are read with what shows nothing escaped
    (`names.name`), and a Canvas name holds no backslash of its own (only word characters)."""
    return _ESCAPE.sub(lambda m: chr(int(next(g for g in m.groups() if g), 16)), name)


def _participant(row: dict[str, str]) -> tuple[str, str]:
    """(the site's word, the participant id) of a worksheet row's Identifier ("Participant 123")."""
    word, number = _PARTICIPANT.fullmatch(row["Identifier"].strip()).groups()
    return word, number


@dataclass(frozen=True)
class Identified:
    """Whom a hand-in's readings give it to: the roster rows (a team's members, or one learner), by which reading, or
    none and why."""

    reading: Reading | None
    rows: tuple[int, ...] = ()
    why: str | None = None
    # Not attributed, but of one learner by the name alone (a reading the roster does not confirm, or a user it does
    # not hold): that learner's files stay one hand-in, given to no one. None where the name reads as two learners'.
    near: Reading | None = None


def identifier(export: Export):
    """`identify` bound to the export's roster, as intake asks it (zipped.read_zip: whose each entry is)."""
    index = _Index(export)

    def identify_entry(readings: list[Reading]) -> tuple[Reading | None, str | None]:
        found = identify(export, readings, index)
        return (found.reading, None) if found.reading else (found.near, found.why)

    return identify_entry


class _Index:
    """The roster's rows by what a download's names are matched with."""

    def __init__(self, export: Export):
        rows = export.roster.rows
        self.by_id: dict[str, int] = {}
        self.by_name: dict[str, list[int]] = {}
        self.by_group: dict[str, list[int]] = {}
        for i, row in enumerate(rows):
            if export.lms == "canvas":
                self.by_id[row["ID"].strip()] = i
            elif export.roster.worksheet:
                self.by_id[_participant(row)[1]] = i
                if export.roster.teams:
                    self.by_group.setdefault(_moodle_folder(row[MOODLE_GROUP]), []).append(i)
            else:
                first, last = row.get("First name", ""), row.get("Last name", "")
                names = (
                    [_key(row["Full name"])]
                    if "Full name" in row
                    else {_key(f"{first} {last}"), _key(f"{last} {first}")}
                )
                for name in sorted(names):
                    self.by_name.setdefault(name, []).append(i)


def identify(export: Export, readings: list[Reading], index: _Index | None = None) -> Identified:
    """Attribution as a proof: a hand-in reaches roster rows only through a reading of its name that the LMS's rules
    allow (zipped.canvas_readings, moodle_readings) and the roster confirms. Every reading is tried: one whose id is a
    roster learner's *names* that learner, and is *confirmed* when the name it gives is that learner's as the download
    writes it (Canvas) or as the worksheet has it (Moodle; under blind marking, the site's "Participant"). The hand-in
    is attributed only when exactly one learner (or team) is named and confirmed; a name that names two, or one it
    does not confirm, or none, is attributed to no one, and why is said (NEEDS YOU)."""
    index = index or _Index(export)
    if export.lms == "canvas":
        return _canvas_identify(export, readings, index)
    return _moodle_identify(export, readings, index)


def _canvas_identify(export: Export, readings: list[Reading], index: _Index) -> Identified:
    rows = export.roster.rows
    users = sorted({r.user for r in readings})
    if len(users) > 1:
        # A name that reads as two users' is given to neither, whichever the roster holds and whatever their names:
        # a learner may choose a name that reads as a classmate's ids ("Roe, Ann_2222"), and the reading that looks
        # wrong may be the true one (a learner renamed since the export, one missing from it).
        said = " or as ".join(
            f"Canvas user {u}"
            + (f" ({rows[index.by_id[u]]['Student']!r})" if u in index.by_id else " (not in the roster)")
            for u in users
        )
        return Identified(None, why=f"its name reads, by Canvas's rules, as {said}: given to no one; grade it by hand")
    if not any(r.user in index.by_id for r in readings if r.kind == "user"):
        near = readings[0]
        if near.kind == "anonymous":
            why = "an anonymous download names no Canvas user: download the submissions with anonymity off"
        else:
            why = f"Canvas user {near.user} is not in the roster"
        return Identified(None, why=why, near=near)
    user = users[0]
    confirmed = [r for r in readings if _letters(_unescaped(r.name)) == _letters(rows[index.by_id[user]]["Student"])]
    if confirmed:
        return Identified(confirmed[0], (index.by_id[user],))
    r = readings[0]
    why = (
        f"the download names Canvas user {user} {r.name!r}, the roster {rows[index.by_id[user]]['Student']!r}: a "
        "group's hand-in (Canvas names it after the group and one member), a learner renamed since the export, or a "
        "name made to look like another learner's file; grade by hand"
    )
    return Identified(None, why=why, near=r)


def _moodle_identify(export: Export, readings: list[Reading], index: _Index) -> Identified:
    roster = export.roster
    if roster.teams:  # a team assignment: every folder is a group's (downloader.php, get_student_prefix)
        team = next((r for r in readings if r.kind == "team"), None)
        if team is None:
            return Identified(
                None, why="not a team's folder, and this worksheet is a team assignment's", near=readings[0]
            )
        members = index.by_group.get(_moodle_folder(team.name), [])
        groups = {roster.rows[i][MOODLE_GROUP] for i in members}
        if len(groups) > 1:  # groups whose names Moodle's download writes alike: whose folder it is, nobody can say
            why = f"{team.says()}: the folder of any of {len(groups)} groups of the worksheet ({', '.join(sorted(groups))})"
            return Identified(None, why=why + "; grade by hand", near=team)
        if members:
            return Identified(team, tuple(members))
        return Identified(None, why=f"{team.says()}: no learner of the worksheet is in this group", near=team)
    participants = [r for r in readings if r.kind == "user"]
    if not participants:
        why = (
            f"{readings[0].says()}: a team's folder, and the roster does not say who is in it (a team assignment's "
            "grading worksheet has a Group column: give it as --roster); grade by hand"
        )
        return Identified(None, why=why, near=readings[0])
    r = participants[0]
    if not roster.worksheet:
        rows = index.by_name.get(_key(r.name), [])
        if len(rows) == 1:
            return Identified(r, (rows[0],))
        found = "no roster row has this name" if not rows else f"{len(rows)} roster rows have this name"
        why = f"{found} (the roster is a gradebook export: matched by full name; the grading worksheet has ids)"
        return Identified(None, why=why, near=r)
    i = index.by_id.get(r.user)
    if i is None:
        return Identified(None, why=f"Moodle participant {r.user} is not in the roster", near=r)
    word, full = _participant(roster.rows[i])[0], roster.rows[i].get("Full name")
    # Blind marking names every folder with the site's word for a participant, the worksheet's Identifier's.
    if r.name == word or (full is not None and _letters(_unescaped(r.name)) == _letters(full)):
        return Identified(r, (i,))
    if full is None:
        why = (
            f"the download names participant {r.user} {r.name!r}, and the worksheet names no one (blind marking), where "
            f"Moodle names every folder {word!r}: a team's hand-in (Moodle names it after the group and its id) or not "
            "Moodle's; grade by hand"
        )
    else:
        why = (
            f"the download names participant {r.user} {r.name!r}, the worksheet {full!r}: a team's hand-in (Moodle "
            "names it after the group and its id) or a learner renamed since; grade by hand"
        )
    return Identified(None, why=why, near=r)


def roster_label(export: Export, i: int) -> str:
    """A roster learner as the teacher finds them in the LMS: their name and id there."""
    row = export.roster.rows[i]
    if export.lms == "canvas":
        return f"{row['Student']} (Canvas user {row['ID'].strip()})"
    if export.roster.worksheet:
        return f"{roster_name(export, row)} ({row['Identifier'].strip()})"
    return f"{roster_name(export, row)} (the roster's learner {i + 1})"


def readings_of(row: dict, lms: str) -> list[Reading]:
    """The readings a gradebook row was attributed by (its ids, as its download named it), to be confirmed again
    against a roster: a Moodle folder taken for a participant's without a roster may be a team's."""
    ids, name = row["lms"], row["name"]
    if lms == "canvas" and "canvas" in ids:
        kind = "anonymous" if ids["canvas"].startswith("anon_") else "user"
        return [Reading("canvas", kind, ids["canvas"], name, ids.get("canvas_prefix", ""),
                        attachment=ids.get("canvas_attachment"))]  # fmt: skip
    if lms == "moodle" and "moodle" in ids:
        return [Reading("moodle", "user", ids["moodle"], name), Reading("moodle", "team", ids["moodle"], name)]
    if lms == "moodle" and "moodle_group" in ids:
        return [Reading("moodle", "team", ids["moodle_group"], name)]
    return []


def roster_name(export: Export, row: dict[str, str]) -> str:
    """A roster row's learner as the LMS names them."""
    if export.lms == "canvas":
        return row["Student"]
    if "Full name" in row:
        return row["Full name"]
    if "First name" in row:
        return f"{row.get('First name', '')} {row.get('Last name', '')}".strip()
    return row.get("Identifier", "")


def unsafe_key(export: Export, roster_row: dict[str, str]) -> str | None:
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


@dataclass
class Matched:
    """The gradebook rows matched with the roster's, and those that are not (with why)."""

    rows: dict[int, dict] = field(default_factory=dict)  # by roster row: the learner (a team's row for each member)
    unmatched: list[tuple[dict, str]] = field(default_factory=list)
    claimed: set[int] = field(default_factory=set)  # roster rows some learner matched, kept in `rows` or not


def match(doc: dict, export: Export) -> Matched:
    """Each gradebook row given to the roster rows its reading is confirmed for (`identify`, again: a row graded
    without this roster was attributed by its name alone); no roster row receives two."""
    index = _Index(export)
    lms = "Canvas" if export.lms == "canvas" else "Moodle"
    found: dict[int, list[dict]] = {}
    out = Matched()
    for learner in doc["learners"]:
        if learner.get("unattributed"):
            out.unmatched.append((learner, learner["unattributed"]))
            continue
        readings = readings_of(learner, export.lms)
        if not readings:
            out.unmatched.append((learner, f"no {lms} id: not handed in through {lms}'s download"))
            continue
        got = identify(export, readings, index)
        if got.reading is None:
            out.unmatched.append((learner, got.why))
            continue
        for row in got.rows:
            found.setdefault(row, []).append(learner)
    out.claimed = set(found)
    spoiled = {id(learner) for learners in found.values() if len(learners) > 1 for learner in learners}
    for row, learners in found.items():
        if len(learners) > 1:
            continue
        (learner,) = learners
        if (
            id(learner) in spoiled
        ):  # a team, one of whose members another hand-in claims too: none is known to be theirs
            continue
        if (unsafe := unsafe_key(export, export.roster.rows[row])) is not None:
            out.unmatched.append((learner, unsafe))
        else:
            out.rows[row] = learner
    for learner in doc["learners"]:
        if id(learner) in spoiled:  # several hand-ins for one roster row: none of them is known to be its
            out.unmatched.append((learner, "another hand-in of the download is given to the same roster learner"))
    # Each row receives one learner at most: the import writes one line a roster row, so nothing else can hold.
    assert all(len(v) == 1 for k, v in found.items() if k in out.rows)
    return out


def accounted(doc: dict, export: Export, matched: Matched) -> None:
    """The proof the import rests on, checked at every run: each roster row receives at most one hand-in, only a
    hand-in whose reading the roster confirms for it, and each hand-in is either given to the roster or listed."""
    given = {id(r) for r in matched.rows.values()}
    listed = {id(r) for r, _ in matched.unmatched}
    for r in doc["learners"]:
        if id(r) not in given and id(r) not in listed:
            raise AssertionError(f"{r['learner']}: neither given to a roster learner nor listed")
    for i, learner in matched.rows.items():
        found = identify(export, readings_of(learner, export.lms))
        if i not in found.rows:
            raise AssertionError(
                f"roster row {i + 1} was given {learner['learner']}, which the roster does not confirm"
            )


def lms_id_of(row: dict, lms: str) -> str:
    """A gradebook row's id in the LMS, as the teacher's lists name it."""
    ids = row["lms"]
    if lms == "moodle" and "moodle_group" in ids:
        return f"group {ids['moodle_group']}" if ids["moodle_group"] else "no group"
    return ids.get(lms, "")


def people(
    doc: dict, export: Export, totals: dict[str, int], matched: Matched | None = None
) -> tuple[dict[str, dict], list[dict]]:
    """Who the gradebook's learners are in the LMS ({learner: {"name": as the roster names them (a team: its group,
    and its members), "lms_id"}}), and a gradebook row for each roster learner no hand-in matched (nothing handed
    in: every challenge missing)."""
    matched = matched or match(doc, export)
    found = {r["learner"]: {"lms_id": lms_id_of(r, export.lms)} for r, _ in matched.unmatched}
    members: dict[str, list[int]] = {}
    for i, learner in matched.rows.items():
        members.setdefault(learner["learner"], []).append(i)
    by_learner = {r["learner"]: r for r in doc["learners"]}
    for key, rows in members.items():
        learner = by_learner[key]
        names = [roster_name(export, export.roster.rows[i]) for i in rows]
        if "moodle_group" in learner["lms"]:
            found[key] = {"name": f"{learner['name']}: {', '.join(names)}", "lms_id": lms_id_of(learner, export.lms)}
        else:
            found[key] = {"name": names[0], "lms_id": learner["lms"][export.lms]}
    taken = {r["learner"] for r in doc["learners"]}
    absent = []
    for i, row in enumerate(export.roster.rows):
        if i in matched.claimed:
            continue
        name = roster_name(export, row)
        lms_id = row["ID"].strip() if export.lms == "canvas" else ""
        if export.roster.worksheet:
            lms_id = _participant(row)[1]
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
                "challenges": {slug: {"status": MISSING, "passed": 0, "total": totals[slug]} for slug in totals},
            }
        )
    return found, absent


def handback_ids(export: Export, matched: Matched) -> list[tuple[dict[str, str], dict]]:
    """(the ids the LMS's bulk upload names a page by, the learner's row) for every roster learner matched: a team's
    page goes to each of its members, by their own participant id."""
    out = []
    for i, learner in sorted(matched.rows.items()):
        if export.lms == "moodle" and export.roster.worksheet:
            out.append(({"moodle": _participant(export.roster.rows[i])[1]}, learner))
        else:
            out.append((learner["lms"], learner))
    return out
