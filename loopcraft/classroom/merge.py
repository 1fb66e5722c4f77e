"""`merge`: the OUT folders of `class --shard` runs joined into one, taking only what the teacher's key signed and
only the shards of one class run (every verdict and gradebook proved, or, with `--regrade`, a verdict not proved
graded again from its source), into the same outputs as a one-run class's (outputs.write_outputs).
"""

from __future__ import annotations

import copy
import tempfile
from contextlib import ExitStack
from pathlib import Path

from grader.results import RunResult, failed_submission
from loopcraft.authoring.verify import catalogues
from loopcraft.course.course import Exercise
from loopcraft.course.errors import LoopcraftError
from loopcraft.course.project import Project
from loopcraft.running.grading import Grader, Runners

from . import course, course_exercises, gradebook, grading, identity, worth
from .intake import Learner, Source
from .outputs import tell, write_outputs
from .printable import say
from .store import UNSIGNED, Signer, VerdictStore, fingerprint, key, refuse_links


def _source(record: dict) -> Source:
    """What a kept verdict says was handed in: its text, or why there was none (its result's message)."""
    if record["source"] is not None:
        return Source(record["origin"], text=record["source"])
    return Source(record["origin"], error=RunResult.from_dict(record["result"]).message or "could not be read")


def _agrees(record: dict, cell: dict, ex: Exercise) -> str | None:
    """Why a shard's signed verdict cannot be merged as its gradebook's cell says, if it cannot: its cases are not the
    course's, or its cell is not what it says."""
    result = RunResult.from_dict(record["result"])
    theirs = [(t.name, t.hidden, t.private) for t in result.tests]
    if theirs != [(c.name, c.hidden or c.private, c.private) for c in ex.cases]:
        return "its cases are not the course's (graded with another version of the challenge?); grade it again"
    made = gradebook.cell(result, cell["total"], read=record["source"] is not None)
    if made != cell:
        said, found = (f"{c['status']} {c['passed']}/{c['total']}" for c in (cell, made))
        return f"the gradebook says {said}, the verdict {found}"
    return None


def merge_shards(
    *,
    project: Project,
    shards: list[Path],
    out: Path,
    key_file: Path | None = None,
    regrade: bool = False,
    runners: Runners | None = None,
    **lms_options,
) -> int:
    """`merge`: join the OUT folders of `class --shard` runs into `out`, taking only what the key in `key_file` signed
    (default: signing.default_key_path()); with `regrade`, a verdict it did not sign is graded again from its source
    (in a runner of its own, or lent by `runners`) instead of refusing the merge. `lms_options` as `grade_class`'s."""
    refuse_links(out)
    tracks = course(project)
    exercises = course_exercises(project, tracks)
    fingerprints = {ex.slug: fingerprint(ex, project) for ex in exercises}
    signer = identity.signer(key_file, [*shards, out], fingerprints)
    merging = _Merging({ex.slug: ex for ex in exercises}, signer, project, runners, regrade)
    # Every record is checked before anything is written to OUT: they wait in a folder beside it.
    out.parent.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        waiting = stack.enter_context(tempfile.TemporaryDirectory(prefix=f".{out.name}.merging-", dir=out.parent))
        staged = VerdictStore(Path(waiting), signer)
        slugs, rows, klass = merging.shards(
            shards, staged, stack, identity.named(lms_options.get("roster"), lms_options.get("assignment"))
        )
        export = identity.export(tracks, slugs, **lms_options)
        VerdictStore(out).take_all(staged)
    grading.say_failures(merging.grader.failures if merging.grader else [])
    doc = signer.sign_book(gradebook.book(slugs, list(rows.values()), klass))
    said, attention = write_outputs(out, doc, VerdictStore(out), exercises, export, worth(tracks))
    say(f"merged {len(shards)} gradebooks, {len(rows)} learners: {out / 'gradebook.csv'}")
    return tell(said, attention)


# How a refusal names each part of a class's identity.
_CLASS = {
    "run": "class run (the download it was first graded from)",
    "roster": "--roster file",
    "assignment": "--assignment",
}


class _Merging:
    """The shards' challenges and rows, every verdict proved (its key made again from its source and the course's
    challenge, its signature the key's, its cases and cell the course's and the gradebook's) and staged; each
    gradebook's signature proved too. What cannot be is a LoopcraftError naming its file, at the first; with
    `regrade`, a verdict that is not proved is graded again from its source instead (and a gradebook not proved is
    taken as it is: who handed in what)."""

    def __init__(self, by_slug: dict[str, Exercise], signer: Signer, project: Project, runners, regrade: bool):
        self.by_slug, self.signer, self.project, self.runners, self.regrade = by_slug, signer, project, runners, regrade
        self.grader: Grader | None = None  # made for the first verdict graded again

    def shards(
        self, shards: list[Path], staged: VerdictStore, stack: ExitStack, named: dict
    ) -> tuple[list[str], dict, dict]:
        """The shards' challenges, rows and class: theirs, one class run's (with the roster and assignment `named` for
        the merge, `identity.named`'s, where it names them: the LMS's export of the day may be another than the shards')."""
        slugs, given, rows, first = None, {}, {}, None
        for shard in shards:
            doc = gradebook.read_book(shard)
            if first is None:
                first = doc["class"]
                staged.run = first["run"]
            elif doc["class"] != first:
                what = next(what for what in _CLASS if doc["class"][what] != first[what])
                raise LoopcraftError(
                    f"{shard}: graded for another class than {shards[0]} (not for its {_CLASS[what]}): a shard of "
                    "another class, or of another download of this one, graded with the same key; merge only the "
                    "shards of one class run"
                )
            if slugs is None:
                slugs = doc["challenges"]
                unknown = [slug for slug in slugs if slug not in self.by_slug]
                if unknown:
                    raise LoopcraftError(
                        f"{shard}: graded {', '.join(unknown)}, no challenge of this course: merge with the course "
                        "the shards were graded with (--root)"
                    )
            elif doc["challenges"] != slugs:
                raise LoopcraftError(f"{shard}: graded other challenges than {shards[0]}; shards must share a course")
            theirs = VerdictStore(shard)
            for r in doc["learners"]:
                if r["learner"] in given and given[r["learner"]] != r:
                    raise LoopcraftError(f"{shard}: learner {r['learner']!r} has other verdicts in another shard")
                given[r["learner"]] = copy.deepcopy(r)
                rows[r["learner"]] = r
                if r["error"] is None:
                    for slug, c in r["challenges"].items():
                        if c["status"] != gradebook.MISSING:
                            self._verdict(theirs, staged, r, slug, stack)
            if not self.signer.book_verifies(doc):
                where = f"{shard / 'gradebook.json'}: {UNSIGNED}"
                if not self.regrade:
                    raise LoopcraftError(
                        f"{where}: its rows or cells were edited, or another key wrote it (give that key with --key "
                        "FILE); --regrade takes its rows as they are and grades every verdict not signed again"
                    )
                say(f"{where}: its rows taken as they are (--regrade): who handed in what, by which name and LMS id")
        return slugs, rows, {**first, **{what: ours for what, ours in named.items() if ours is not None}}

    def _verdict(self, theirs: VerdictStore, staged: VerdictStore, row: dict, slug: str, stack: ExitStack) -> None:
        path, ex, learner = theirs.path(row["learner"], slug), self.by_slug[slug], row["learner"]
        record, signed = theirs.read_signed(learner, slug, self.signer)
        source = _source(record)
        made = key(self.signer.fingerprints[slug], source)
        if made == record["key"] and signed and record["run"] != staged.run:
            raise LoopcraftError(
                f"{path}: the verdict of {learner!r} for {slug} was graded in another class run than its shard's "
                "gradebook (a verdict of another class, graded with the same key): grade it again (class into the "
                "shard's folder, from the download)"
            )
        if made == record["key"] and signed:
            problem = _agrees(record, row["challenges"][slug], ex)
            if problem:
                raise LoopcraftError(f"{path}: {problem}")
            staged.copy(record)
            return
        why = "its key is not the one its source and the course's challenge make" if made != record["key"] else UNSIGNED
        if not self.regrade:
            raise LoopcraftError(
                f"{path}: {why}: the verdict of {learner!r} for {slug} was edited, or graded with another key or "
                "another version of the challenge; give that key with --key FILE (that course with --root), or "
                "--regrade to grade it again from its source"
            )
        if source.error is not None:
            done = failed_submission(ex.cases, source.error)
            result = done.to_dict()
        else:
            if self.grader is None:
                self.grader = stack.enter_context(Grader(self.project, self.runners))
            done = self.grader.grade(ex, source.text, catalogue=catalogues(self.project, [ex])[ex.track, ex.slug])
            result = done.to_dict(hidden_actual=True)
        staged.put(Learner(learner, row["name"], row["origin"]), slug, source, made, result)
        row["challenges"][slug] = gradebook.cell(done, len(ex.cases))
        say(f"{path}: {why}: the verdict of {learner!r} for {slug} graded again from its source (--regrade)")
