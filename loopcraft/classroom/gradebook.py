"""The gradebook: a row per learner, a cell per challenge. gradebook.json is the class's index (what `merge` joins,
schemas/gradebook.schema.json); gradebook.csv is the same for a spreadsheet, every cell safe to open in one."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from grader.results import RunResult, Status
from loopcraft.authoring.verify import error_line
from loopcraft.course.course import Exercise
from loopcraft.course.errors import LoopcraftError
from loopcraft.course.schemas import validation_error

from .intake import Learner
from .pages import page_names
from .printable import csv_cell
from .store import VerdictStore, read_json, write_atomically

MISSING = "missing"
# Handed in, but nothing of it could be run: a file that could not be read or taken as the challenge's (not UTF-8,
# too large, a link, several candidates, an LMS's text entry). Not a 0: no score goes to the LMS, and the teacher is
# told (NEEDS YOU), since the learner may well have done the work.
UNREAD = "unread"
BOOK_BYTES = 1 << 30  # a row is about 2 KB: room for half a million learners, not for /dev/zero


def cell(result: RunResult | None, total: int, *, read: bool = True) -> dict:
    """A gradebook cell: the verdict's status, but "timeout" for a failing run that a case's time limit stopped (an
    endless loop is not a wrong answer), and how many cases passed; UNREAD where the hand-in was not `read`."""
    if result is None:
        return {"status": MISSING, "passed": 0, "total": total}
    if not read:
        return {"status": UNREAD, "passed": 0, "total": total}
    status = Status.TIMEOUT if result.status is Status.FAIL and result.timed_out else result.status
    return {"status": status.value, "passed": result.passed_count, "total": result.total}


def _last_line(text: str) -> str:
    return next((line.strip() for line in reversed(text.splitlines()) if line.strip()), "")


def row(learner: Learner, totals: dict[str, int], store: VerdictStore) -> dict:
    """The learner's row, from their intake record and their verdicts in the store."""
    problems = [s.error for s in learner.sources.values() if s.error is not None]
    if learner.error is not None:
        cells = {slug: {"status": UNREAD, "passed": 0, "total": total} for slug, total in totals.items()}
    else:
        cells = {}
        for slug, total in totals.items():
            result = store.run_result(learner.id, slug) if slug in learner.sources else None
            source = learner.sources.get(slug)
            cells[slug] = cell(result, total, read=source is None or source.error is None)
            if result and result.status is Status.ERROR and result.message and source and source.error is None:
                # A syntax or import error: its last line says which, in the CSV as on the feedback page, and the
                # traceback the line of the hand-in (a syntax error's last line has none).
                where = error_line(result.message)
                at = f" (line {where})" if where else ""
                problems.append(f"{slug}: could not be run: {_last_line(result.message)[:300]}{at}")
    return {
        "learner": learner.id,
        "name": learner.name,
        "origin": learner.origin,
        "error": learner.error,
        # Why a submission could not be graded, beside the learner's own notes: the teacher reads it in the CSV.
        "notes": learner.notes + problems,
        "lms": learner.lms,
        "unattributed": learner.unattributed,
        "challenges": cells,
    }


def points(cell_: dict, worth: float) -> float | None:
    """What a cell scores out of `worth`: its share of cases passed; None if nothing was handed in, or nothing of it
    could be run."""
    if cell_["status"] in (MISSING, UNREAD):
        return None
    return worth * cell_["passed"] / cell_["total"] if cell_["total"] else 0.0


def shown(doc: dict, worth: dict[str, float], people: dict[str, dict] | None = None, absent=()) -> dict:
    """The gradebook as people read it (gradebook.csv, the report, the feedback pages): each row with its points per
    challenge on the LMS's scale (`worth`, by slug) and in all, named as the LMS names the learner (`people`:
    {learner: {"name", "lms_id"}}), and the roster's learners who handed nothing in (`absent`, rows of their own)."""
    rows = []
    for r in [*doc["learners"], *absent]:
        scored = {slug: points(c, worth[slug]) for slug, c in r["challenges"].items()}
        got = [value for value in scored.values() if value is not None]
        rows.append(
            {
                **r,
                **(people or {}).get(r["learner"], {}),
                "points": scored,
                "worth": {slug: worth[slug] for slug in r["challenges"]},
                "score": sum(got) if got else None,
                "out_of": sum(worth[slug] for slug in r["challenges"]),
            }
        )
    rows.sort(key=lambda r: r["learner"])
    for r, page in zip(rows, page_names(rows).values(), strict=True):
        r["page"] = page
    return {"challenges": doc["challenges"], "learners": rows}


def amount(value: float | None) -> str:
    """Points as people read them: two decimals at most."""
    return "" if value is None else f"{value:.2f}".rstrip("0").rstrip(".")


def book(slugs: list[str], rows: list[dict], klass: dict) -> dict:
    """A gradebook of the class `klass` (its identity: {"run", "roster", "assignment"})."""
    return {"class": klass, "challenges": slugs, "learners": sorted(rows, key=lambda r: r["learner"])}


def signed(learners: list[Learner], exercises: list[Exercise], store: VerdictStore, klass: dict) -> dict:
    """The gradebook of a class run, signed by its store's signer: a row per learner (`row`: their intake record and
    their verdicts in the store), a column per challenge of `exercises`."""
    totals = {ex.slug: len(ex.cases) for ex in exercises}
    return store.signer.sign_book(book(list(totals), [row(learner, totals, store) for learner in learners], klass))


def read_book(folder: Path) -> dict:
    """A shard's gradebook.json, validated; a LoopcraftError (`path: message`) if it cannot be used."""
    path = folder / "gradebook.json"
    doc = read_json(path, BOOK_BYTES, "gradebook.json")
    problem = validation_error(doc, "gradebook.schema.json")
    if problem is None:
        slugs = set(doc["challenges"])
        for r in doc["learners"]:
            if set(r["challenges"]) != slugs:
                problem = f"learner {r['learner']!r} has cells for other challenges than the gradebook's"
                break
    if problem:
        raise LoopcraftError(f"{path}: not a Loopcraft gradebook: {problem}")
    return doc


def heading(slug: str, titles: dict[str, str]) -> str:
    """A challenge as the teacher meets it in gradebook.csv: its title, which the site shows, and its slug, which
    commands and the notes name: "Recover From Malformed and Failing Tool Calls (consecutive-error-limit)"."""
    title = titles.get(slug)
    return f"{title} ({slug})" if title else slug


def titled(line: str, titles: dict[str, str]) -> str:
    """`line` with the title of each challenge whose slug it names after it, for the lines a teacher reads alone
    (NEEDS YOU): `... consecutive-error-limit ... [consecutive-error-limit: Recover From ...]`."""
    named = [slug for slug in titles if re.search(rf"(?<![\w-]){re.escape(slug)}(?![\w-])", line)]
    return line + "".join(f" [{slug}: {titles[slug]}]" for slug in named)


def failing(doc: dict) -> set[str]:
    """The challenges some learner's run failed ("fail", or "timeout": a failing run a time limit stopped): the only
    ones whose known mistakes can be named, and so made."""
    return {
        slug
        for row in doc["learners"]
        for slug, cell in row["challenges"].items()
        if cell["status"] in (Status.FAIL.value, Status.TIMEOUT.value)
    }


def write_book(out: Path, doc: dict, view: dict | None = None, titles: dict[str, str] | None = None) -> None:
    """gradebook.json (`doc`, the class's index), then gradebook.csv from `view` (`shown(doc, ...)`): a row per
    learner with their name and LMS id, a column per challenge ("pass 12/12", "fail 9/12", "timeout 3/12", "error
    0/12", "missing") headed by its title and slug (`titles`, by slug), the points on the LMS's scale and what they
    are out of, how many challenges pass, and what went wrong with the hand-in, if anything."""
    view = view or shown(doc, {slug: 1.0 for slug in doc["challenges"]})
    slugs = view["challenges"]
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    headings = [heading(slug, titles or {}) for slug in slugs]
    header = ["learner", "name", "LMS id", *headings, "points", "out of", "passed", "feedback page", "notes"]
    writer.writerow([csv_cell(name) for name in header])
    for r in view["learners"]:
        cells = [r["challenges"][slug] for slug in slugs]
        writer.writerow(
            [
                csv_cell(r["learner"]),
                csv_cell(r["name"]),
                csv_cell(r.get("lms_id", "")),
                *(
                    c["status"] if c["status"] == MISSING else f"{c['status']} {c['passed']}/{c['total']}"
                    for c in cells
                ),
                amount(r["score"]),
                amount(r["out_of"]),
                sum(c["status"] == "pass" for c in cells),
                csv_cell(r["page"]),
                csv_cell("; ".join(([r["error"]] if r["error"] else []) + r["notes"])[:500]),
            ]
        )
    write_atomically(out, "gradebook.json", json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    write_atomically(out, "gradebook.csv", text.getvalue())
