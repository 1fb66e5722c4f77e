"""Who is who, the second stage of a class run: the LMS's roster (read before anything is graded), the teacher's
verdict key and the run's signer, and the class a run grades for, which its gradebook carries (signed) and `merge`
compares.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from loopcraft.course.course import Track
from loopcraft.course.errors import LoopcraftError

from . import gradebook
from .intake import Learner
from .lms import Export, prepare
from .printable import say
from .signing import verdict_key
from .store import Signer, key


def export(
    tracks: list[Track],
    slugs: list[str],
    *,
    lms: str | None,
    roster: Path | None,
    assignment: str | None,
    points: float | None,
    missing: str,
) -> Export | None:
    """Who is who on the LMS's side: its export of `slugs` with the roster read now (`lms.prepare`), so that a wrong
    roster stops the run before anything is graded; None without --lms."""
    if (lms is None) != (roster is None):
        raise LoopcraftError("--lms and --roster go together: the LMS, and its gradebook export to match learners with")
    if lms is None:
        if assignment is not None or points is not None:
            raise LoopcraftError("--assignment and --points are for an LMS's import: give --lms and --roster too")
        return None
    return prepare(lms, roster, tracks, slugs, assignment=assignment, points=points, missing=missing)


def signer(key_file: Path | None, folders: list[Path], fingerprints: dict[str, str]) -> Signer:
    """The signer of the teacher's key (`--key`, or the default one, made on first use: said, since it must be kept),
    for the course's challenges."""
    secret, made = verdict_key(key_file, folders=folders)
    if made is not None:
        say(f"made a verdict key, {made}: it signs every verdict; keep it, and outside every class folder")
    return Signer(secret, fingerprints)


def of_class(
    out: Path,
    key_file: Path | None,
    submissions: Path,
    everyone: list[Learner],
    fingerprints: dict[str, str],
    lms_options,
) -> tuple[Signer, dict]:
    """The run's signer (`signer`'s, for a class read from `submissions` into `out`), and the class a `class` run
    grades for, which its gradebook carries (signed) and `merge` compares: the roster's SHA-256 and the assignment (if given), and the run: the one of the signed gradebook already in OUT (chosen by the
    first run into it, so that resuming keeps its verdicts), else made from every hand-in of the whole download, not
    this shard's alone, so that every shard of one download chooses the same. A signed shard of another class graded
    with the same key merged into this one (alice, fail 0/17, became pass 17/17)."""
    signer_ = signer(key_file, [out, submissions], fingerprints)
    named_ = named(lms_options.get("roster"), lms_options.get("assignment"))
    try:
        kept = gradebook.read_book(out)
    except LoopcraftError:  # none yet, or not one this key can vouch for
        kept = None
    if kept is not None and signer_.book_verifies(kept):
        run = kept["class"]["run"]
    else:
        handed = [
            [one.id, one.error, sorted((slug, key(fingerprints.get(slug, ""), s)) for slug, s in one.sources.items())]
            for one in everyone
        ]
        run = hashlib.sha256(json.dumps(handed).encode("ascii")).hexdigest()
    return signer_, {"run": run, **named_}


def named(roster: Path | None, assignment: str | None) -> dict:
    """What a class's identity says of the LMS's side: the roster's SHA-256 and the assignment, each None if not given."""
    return {"roster": hashlib.sha256(roster.read_bytes()).hexdigest() if roster else None, "assignment": assignment}
