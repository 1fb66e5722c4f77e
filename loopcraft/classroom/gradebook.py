"""The gradebook: a row per learner, a cell per challenge. gradebook.json is the class's index (what `merge` joins,
schemas/gradebook.schema.json); gradebook.csv is the same for a spreadsheet, every cell safe to open in one."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from ..errors import LoopcraftError
from ..printable import csv_cell
from ..schemas import validation_error
from .intake import Learner
from .store import VerdictStore, read_json, write_atomically

MISSING = "missing"
BOOK_BYTES = 1 << 30  # a row is about 2 KB: room for half a million learners, not for /dev/zero


def cell(result: dict | None, total: int) -> dict:
    if result is None:
        return {"status": MISSING, "passed": 0, "total": total}
    passed = sum(t["status"] == "pass" for t in result["tests"])
    return {"status": result["status"], "passed": passed, "total": len(result["tests"])}


def row(learner: Learner, totals: dict[str, int], store: VerdictStore) -> dict:
    """The learner's row, from their intake record and their verdicts in the store."""
    if learner.error is not None:
        cells = {slug: {"status": "error", "passed": 0, "total": total} for slug, total in totals.items()}
    else:
        cells = {
            slug: cell(store.read(learner.id, slug)["result"] if slug in learner.sources else None, total)
            for slug, total in totals.items()
        }
    return {
        "learner": learner.id,
        "name": learner.name,
        "origin": learner.origin,
        "error": learner.error,
        # Why a submission could not be graded, beside the learner's own notes: the teacher reads it in the CSV.
        "notes": learner.notes + [s.error for s in learner.sources.values() if s.error is not None],
        "lms": learner.lms,
        "challenges": cells,
    }


def book(slugs: list[str], rows: list[dict]) -> dict:
    return {"challenges": slugs, "learners": sorted(rows, key=lambda r: r["learner"])}


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


def write_book(out: Path, doc: dict) -> None:
    """gradebook.json, then gradebook.csv: a row per learner, a column per challenge ("pass 12/12", "fail 9/12",
    "error 0/12", "missing"), how many pass, and what went wrong with the hand-in, if anything."""
    write_atomically(out / "gradebook.json", json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    slugs = doc["challenges"]
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["learner", *slugs, "passed", "notes"])
    for r in doc["learners"]:
        cells = [r["challenges"][slug] for slug in slugs]
        writer.writerow(
            [
                csv_cell(r["learner"]),
                *(
                    c["status"] if c["status"] == MISSING else f"{c['status']} {c['passed']}/{c['total']}"
                    for c in cells
                ),
                sum(c["status"] == "pass" for c in cells),
                csv_cell("; ".join(([r["error"]] if r["error"] else []) + r["notes"])[:500]),
            ]
        )
    write_atomically(out / "gradebook.csv", text.getvalue())
