"""The class's outputs, the last stage of a class run: first the NEEDS YOU accounting of every learner and file the
teacher must see to (the gradebook's rows matched with the LMS's roster, and the match proved), then everything a
run leaves for the teacher, rendered from the gradebook's rows, the store and the course alone (and, for an LMS's
files, its roster), so that a merged, a resumed and a one-run class give byte-equal outputs: gradebook.json and .csv,
the feedback pages and the report, the LMS's import files and hand-back zip; then the exit status (`tell`).
"""

from __future__ import annotations

from pathlib import Path

from loopcraft.authoring.verify import catalogues
from loopcraft.course.course import Exercise
from loopcraft.course.project import Project

from . import gradebook, handback, lms, lmsfiles, report
from .printable import one_line, say
from .store import VerdictStore, remove


def write_outputs(
    out: Path,
    doc: dict,
    store: VerdictStore,
    exercises: list[Exercise],
    export: lms.Export | None = None,
    worth: dict[str, float] | None = None,
    *,
    shard: bool = False,
) -> tuple[list[str], list[str]]:
    """Everything a class run leaves for the teacher, from the gradebook's rows, the store and the course alone
    (and, for an LMS's files, its roster); `worth` is each challenge's points (track.yaml's, 1 unless set), unless
    the LMS's export says otherwise. Returns (what the teacher should be told of the files, what needs the teacher:
    every learner not graded, or left out of the LMS's import, with why)."""
    totals = {ex.slug: len(ex.cases) for ex in exercises if ex.slug in doc["challenges"]}
    titles = {ex.slug: ex.title for ex in exercises}
    # Accounted for before anything is written: the import, the view and the hand-back all follow `matched`.
    attention, matched = needs_you(doc, store, export, shard=shard)
    said = []
    if export is None:
        people, absent = {}, []
        worth = {slug: (worth or {}).get(slug, 1.0) for slug in doc["challenges"]}
    else:
        people, absent = lms.people(doc, export, totals, matched)
        worth = export.worth()
        ids = lms.handback_ids(export, matched)
    attention = [gradebook.titled(line, titles) for line in attention]
    view = gradebook.shown(doc, worth, people, absent)
    failing = gradebook.failing(view)
    gradebook.write_book(out, doc, view, titles)
    # The known mistakes of the challenges some learner failed, from the installation's build cache (the wrong
    # solutions run in Pyodide where it has none of their verdicts): a function of the course, as the rest is of
    # the store.
    known = catalogues(Project(), [ex for ex in exercises if ex.slug in failing]) if failing else {}
    report.write_class_pages(out, view, store, exercises, known)
    if export is not None:  # after the pages, as ever: a run stopped while writing them has written no LMS file
        said = lmsfiles.write(out, doc, export, titles, matched)
        pages = {row["learner"]: row["page"] for row in view["learners"]}
        said += handback.write(out, export.lms, ids, pages)
    # An LMS's files from an earlier run would hold its old scores, ready to be uploaded by mistake.
    for path in sorted(out / name for name in _lms_files() - (_lms_files(export) if export else set())):
        if remove(out, path.name):
            again = "a Moodle grading worksheet as --roster" if path.name == "moodle-worksheet.csv" else "--roster"
            lms_name = path.name.split("-")[0]
            said.append(f"removed {path.name}, left by an earlier run (give --lms {lms_name} {again} to make it again)")
    return said, attention


def _lms_files(export: lms.Export | None = None) -> set[str]:
    """The files an LMS's export writes (every LMS's, without one)."""
    if export is not None:
        return lmsfiles.files(export) | {handback.FILES[export.lms]}
    names = {f"{name}-{kind}.csv" for name in lms.LMSS for kind in ("import", "unmatched")}
    return names | set(handback.FILES.values()) | {"moodle-worksheet.csv"}


def _who(row: dict) -> str:
    """A gradebook row's learner as NEEDS YOU names them: their id, and where their hand-in came from."""
    return (
        f"{row['learner']} ({row['origin']})"
        if row["origin"] and row["origin"] not in row["learner"]
        else row["learner"]
    )


def needs_you(
    doc: dict, store: VerdictStore, export: lms.Export | None, *, shard: bool = False
) -> tuple[list[str], lms.Matched | None]:
    """Accounting, before any output of a run is written: each learner and file the teacher must see to, with why. Every row of the
    download is graded, or here (a hand-in that could not be taken, a challenge of it that nothing could be run of,
    one no roster learner is confirmed for); with an LMS, every roster learner is graded and in its import, or here
    (nothing handed in, unless --missing zero scores that 0; a hand-in not known to be theirs). The run exits 0 only
    when this is empty. A `shard` holds some of the class: the roster learners it lacks are `merge`'s to account for.
    Returns these lines, and the gradebook's rows matched with the roster (`lms.match`, None without an LMS)."""
    said = []
    who = {id(r): _who(r) for r in doc["learners"]}
    for r in doc["learners"]:
        if r["error"]:  # its reason names where it came from
            said.append(f"{r['learner']}: {r['error']}")
            continue
        for slug, c in r["challenges"].items():
            if c["status"] == gradebook.UNREAD:
                said.append(f"{who[id(r)]}: {slug} not graded: {store.run_result(r['learner'], slug).message}")
    if export is None:
        return said, None
    matched = lms.match(doc, export)
    for r, why in matched.unmatched:
        if not r["error"]:
            said.append(f"{who[id(r)]}: not in {export.lms}'s files: {why}")
    # Whose a hand-in given to no one may be: said beside the roster learner, who would seem to have handed nothing in.
    maybe = {user: r["learner"] for r, _ in matched.unmatched for user in r["lms"].get("canvas_candidates", "").split()}
    for i, row in enumerate(export.roster.rows):
        if i in matched.claimed:
            continue
        user = row.get("ID", "").strip()
        if user in maybe:
            said.append(
                f"{lms.roster_label(export, i)}: nothing given to them; {maybe[user]}, listed above, may be theirs"
            )
        elif export.missing == "blank" and not shard:
            said.append(
                f"{lms.roster_label(export, i)}: nothing handed in, so nothing is imported for them (--missing zero "
                "imports 0)"
            )
    lms.accounted(doc, export, matched)
    return said, matched


ATTENTION = 3  # the exit status of a run that wrote everything but lost or could not match a learner


def tell(said: list[str], attention: list[str]) -> int:
    """Say what was written, then what needs the teacher where it cannot be missed; the exit status."""
    for line in said:
        say(line)
    if not attention:
        return 0
    rule = "=" * 78
    say(f"\n{rule}\nNEEDS YOU: {len(attention)} learner(s) or file(s) not graded, or not in the LMS's import:")
    for line in attention[:50]:
        say(f"  - {one_line(line)[:500]}")
    if len(attention) > 50:
        say(f"  ... and {len(attention) - 50} more (gradebook.csv's notes and the *-unmatched.csv file list them)")
    say(f"Everything else is written. Exit status {ATTENTION}.\n{rule}")
    return ATTENTION
