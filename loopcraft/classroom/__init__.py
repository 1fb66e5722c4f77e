"""A whole class graded at once: `loopcraft class` and `loopcraft merge` (loopcraft/commands/class_.py, merge.py).

One flow, one store, every output a function of it. `grade_class` takes a class's submissions through its stages,
each a call, in this order:

    intake     read_class: a zip, an LMS's download (zipped.py) or a class folder, read by intake.py's rules -> learners
    identity   identity.py: the LMS's roster, the teacher's key and the run's signer, the class the run grades for
    store      VerdictStore.receive: each hand-in's verdict kept (signed by the key), refused (nothing to run) or to grade
    grading    grading.grade_all: the refused given their reason as verdict, the rest graded in runners, each verdict
               stored (signed) as it is made
    gradebook  gradebook.signed: gradebook.json, a row per learner, signed
    outputs    outputs.write_outputs: NEEDS YOU accounted, then gradebook.csv, the report and feedback pages, the
               LMS's import files and hand-back, all from the gradebook and the store; outputs.tell: the exit status

A crashed run resumes (the store keeps every verdict as it is made); `--shard K/N` grades every N-th learner, and
`merge.merge_shards` joins the shards, taking only what the key signed and only the shards of one class run, into the
same outputs: a merged, a resumed and a one-run class give byte-equal outputs.
"""

from __future__ import annotations

import os
from pathlib import Path

from loopcraft.course.cache import BuildCache
from loopcraft.course.course import Exercise, Track
from loopcraft.course.errors import LoopcraftError
from loopcraft.course.load import load_course
from loopcraft.course.project import Project
from loopcraft.running.grading import Runners

from . import gradebook, grading, identity, lms, zipped
from .intake import Learner, read_folder
from .names import name_from_bytes
from .outputs import tell, write_outputs
from .printable import say
from .store import VerdictStore, fingerprint, refuse_links
from .zipped import Identify


def course(project: Project) -> list[Track]:
    """The course's tracks, loaded through the build cache (parsing every YAML file anew costs a second)."""
    return load_course(project.root, cache=BuildCache(project.root))


def course_exercises(project: Project, tracks: list[Track] | None = None) -> list[Exercise]:
    """The challenges of every track, in course order; their slugs name the files and the gradebook's columns."""
    tracks = course(project) if tracks is None else tracks
    exercises = [ex for track in tracks for ex in track.exercises]
    slugs = [ex.slug for ex in exercises]
    clashes = sorted({slug for slug in slugs if slugs.count(slug) > 1})
    if clashes:
        raise LoopcraftError(f"challenges in different tracks share a slug, so SLUG.py is ambiguous: {clashes}")
    return exercises


def worth(tracks: list[Track]) -> dict[str, float]:
    """Each challenge's points, as its track gives them (1 unless set)."""
    return {ex.slug: track.points_of(ex.slug) for track in tracks for ex in track.exercises}


def read_class(
    submissions: Path,
    exercises: list[Exercise],
    challenge: str | None = None,
    identify: Identify = zipped.by_name_alone,
) -> list[Learner]:
    """Intake: the learners of a class however it was handed in, a zip (`zipped.read_zip`), an LMS's download that a
    browser unzipped (`zipped.read_download`) or a class folder (`intake.read_folder`). Its name, which the rows of a
    zip's or a download's learners give as their origin, is read once, before either is opened."""
    shown = name_from_bytes(os.fsencode(submissions.name))
    if submissions.is_file():
        everyone = zipped.read_zip(submissions, exercises, challenge, identify, shown)
    else:
        everyone = zipped.read_download(submissions, exercises, challenge, identify, shown)
        if everyone is None:
            return read_folder(submissions, exercises, challenge)
    if not everyone:
        raise LoopcraftError(f"{submissions}: no learner's files in it")
    return everyone


def grade_class(
    *,
    project: Project,
    submissions: Path,
    out: Path,
    jobs: int | None = None,
    shard: tuple[int, int] = (1, 1),
    challenge: str | None = None,
    runners: Runners | None = None,
    key_file: Path | None = None,
    **lms_options,
) -> int:
    """`class`: grade a class's hand-ins (a folder, a zip, an LMS's download) into OUT, signing each verdict with the
    key in `key_file` (default: signing.default_key_path()); `lms_options` are `identity.export`'s (lms, roster, assignment,
    points, missing). Returns the exit status (0, or outputs.ATTENTION)."""
    refuse_links(out)
    tracks = course(project)
    exercises = course_exercises(project, tracks)
    if challenge is not None:
        exercises = [ex for ex in exercises if ex.slug == challenge]
        if not exercises:
            raise LoopcraftError(f"--challenge {challenge}: no such challenge in the course")
    export = identity.export(tracks, [ex.slug for ex in exercises], **lms_options)
    # With a roster, an LMS's entries go only to learners it confirms (lms.identify); without, by their names alone.
    identify = lms.identifier(export) if export is not None else zipped.by_name_alone
    everyone = read_class(submissions, exercises, challenge, identify)
    k, n = shard
    mine = everyone[k - 1 :: n]
    fingerprints = {ex.slug: fingerprint(ex, project) for ex in exercises}
    signer, klass = identity.of_class(out, key_file, submissions, everyone, fingerprints, lms_options)
    store = VerdictStore(out, signer, klass["run"])
    received = store.receive(mine, exercises)
    learners = f"{len(mine)} learners{f' (shard {k}/{n} of {len(everyone)})' if n > 1 else ''}"
    grading.grade_all(received, jobs, store, project, runners, learners=learners, challenges=len(exercises))
    doc = gradebook.signed(mine, exercises, store, klass)
    said, attention = write_outputs(out, doc, store, exercises, export, worth(tracks), shard=n > 1)
    say(f"gradebook: {out / 'gradebook.csv'} and gradebook.json; report: {out / 'report' / 'index.html'}")
    return tell(said, attention)
