"""A whole class graded at once: `python -m grader class` and `python -m grader merge` (see loopcraft/cli.py).

SUBMISSIONS holds, per learner, a folder with one SLUG.py per challenge of the course, or the progress file the
learner exported from the site (LEARNER.json, see docs/architecture.md: its `loopcraft:code:TRACK/SLUG`
entries are the learner's code; a challenge without one is missing). Every verdict is kept
in OUT/verdicts/LEARNER/SLUG.json as soon as it is made, under a key that hashes the source and everything
about the challenge and the grader that could change it: a run that crashed resumes where it stopped, and
an unchanged submission is never graded twice. The gradebook (OUT/gradebook.csv, OUT/gradebook.json) is
written last, from those files. `--shard K/N` grades every N-th learner, so any batch system can split a
course; `merge` joins the shards' folders into the gradebook one run would have written.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from .errors import LoopcraftError
from .exercises import Exercise, load_course
from .grading import ROOT, grade, grader_files
from .pyodide import PyodideRunner

MISSING = "missing"
PROGRESS_FORMAT, PROGRESS_VERSIONS = "loopcraft-progress", (1,)


@dataclass(frozen=True)
class Submission:
    learner: str
    exercise: Exercise
    path: Path
    source: str
    key: str  # what the verdict is stored under: a change to any input of the verdict changes it


def course_exercises(root: Path = ROOT) -> list[Exercise]:
    """The challenges of every track, in course order; their slugs name the files and the gradebook's columns."""
    exercises = [ex for track in load_course(root) for ex in track.exercises]
    slugs = [ex.slug for ex in exercises]
    clashes = sorted({slug for slug in slugs if slugs.count(slug) > 1})
    if clashes:
        raise LoopcraftError(f"challenges in different tracks share a slug, so SLUG.py is ambiguous: {clashes}")
    return exercises


def learners(submissions: Path) -> list[str]:
    """The learners' names: their folders, and their progress files without `.json`."""
    if not submissions.is_dir():
        raise LoopcraftError(f"{submissions}: not a folder (it should hold a folder or a progress file per learner)")
    names = [
        p.stem if p.is_file() else p.name
        for p in submissions.iterdir()
        if not p.name.startswith(".") and (p.is_dir() or (p.is_file() and p.suffix == ".json"))
    ]
    clashes = sorted({name for name in names if names.count(name) > 1})
    if clashes:
        raise LoopcraftError(f"{submissions}: both a folder and a progress file for {clashes}")
    if not names:
        raise LoopcraftError(f"{submissions}: no learner folders or progress files in it")
    return sorted(names)


def _exported_code(path: Path) -> dict[str, str]:
    """{"TRACK/SLUG": code} from a learner's progress file, checked as the site's importer checks it."""
    try:
        data = json.loads(path.read_bytes().decode("utf-8", errors="replace"))
    except ValueError as exc:
        raise LoopcraftError(f"{path}: not a progress file (not JSON: {exc})") from None
    if not isinstance(data, dict) or data.get("format") != PROGRESS_FORMAT:
        raise LoopcraftError(f'{path}: not a progress file (its "format" should be "{PROGRESS_FORMAT}")')
    if data.get("version") not in PROGRESS_VERSIONS or not isinstance(data.get("entries"), dict):
        raise LoopcraftError(
            f"{path}: a progress file of version {data.get('version')!r}; this grader reads "
            f"version {', '.join(map(str, PROGRESS_VERSIONS))}"
        )
    prefix = "loopcraft:code:"
    return {
        key[len(prefix) :]: code
        for key, code in data["entries"].items()
        if key.startswith(prefix) and isinstance(code, str)
    }


def _fingerprint(ex: Exercise, grader: bytes) -> str:
    """Everything about a challenge that a verdict depends on, hashed."""
    cases = [[c.name, c.args, c.expected, c.hidden] for c in ex.cases]
    text = json.dumps([ex.entry, ex.sandbox_source, ex.time_limit_seconds, cases], sort_keys=True, default=str)
    return hashlib.sha256(grader + text.encode("utf-8")).hexdigest()


def _grader_bytes(root: Path) -> bytes:
    return b"".join(name.encode() + b"\0" + (root / name).read_bytes() for name in grader_files(root))


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


class VerdictStore:
    """OUT/verdicts/LEARNER/SLUG.json: {"key", "learner", "challenge", "file", "result"}, one file a verdict."""

    def __init__(self, folder: Path):
        self.folder = folder

    def path(self, learner: str, slug: str) -> Path:
        return self.folder / learner / f"{slug}.json"

    def get(self, learner: str, slug: str, key: str | None = None) -> dict | None:
        try:
            stored = json.loads(self.path(learner, slug).read_text(encoding="utf-8"))
        except (OSError, ValueError):  # none yet, or cut short by a crash (writes are atomic, but be safe)
            return None
        return stored if key is None or stored.get("key") == key else None

    def put(self, sub: Submission, result: dict) -> None:
        record = {
            "key": sub.key,
            "learner": sub.learner,
            "challenge": sub.exercise.slug,
            "file": str(sub.path),
            "result": result,
        }
        _write_atomically(self.path(sub.learner, sub.exercise.slug), json.dumps(record, indent=1))


def _submissions(
    folder: Path, names: list[str], exercises: list[Exercise], root: Path, broken: dict[str, str]
) -> Iterator[Submission]:
    """Every submission of these learners; a progress file that cannot be read goes into `broken` (learner:
    why) instead, so that one bad file costs its learner a verdict and no one else anything."""
    from .cli import read_source

    grader = _grader_bytes(root)
    fingerprints = {ex.slug: _fingerprint(ex, grader) for ex in exercises}
    for learner in names:
        exported = folder / f"{learner}.json"
        try:
            codes = _exported_code(exported) if exported.is_file() else None
        except LoopcraftError as exc:
            broken[learner] = str(exc)
            continue
        for ex in exercises:
            path = folder / learner / f"{ex.slug}.py"
            if codes is not None:
                source, path = codes.get(f"{ex.track}/{ex.slug}"), exported
            else:
                source = read_source(path) if path.is_file() else None
            if source is not None:
                key = hashlib.sha256((fingerprints[ex.slug] + source).encode("utf-8", "surrogatepass")).hexdigest()
                yield Submission(learner, ex, path, source, key)


def _grade_all(todo: list[Submission], jobs: int, store: VerdictStore) -> dict[tuple[str, str], dict]:
    """Grade in `jobs` runners at once, storing each verdict as it comes. Returns the verdicts that could not
    be stored because the runner itself failed (they are graded again on the next run)."""
    local = threading.local()
    runners: list[PyodideRunner] = []
    lock = threading.Lock()
    unstored: dict[tuple[str, str], dict] = {}

    def runner() -> PyodideRunner:
        if getattr(local, "runner", None) is None:
            local.runner = PyodideRunner()
            with lock:
                runners.append(local.runner)
        return local.runner

    def work(sub: Submission) -> None:
        try:
            result = grade(sub.exercise, sub.source, runner()).to_dict()
        except LoopcraftError as exc:
            # The runner broke (not the learner's code: that is a verdict); a new one takes the next submission.
            local.runner.close()
            local.runner = None
            unstored[(sub.learner, sub.exercise.slug)] = {
                "version": 3,
                "status": "error",
                "message": f"the grader's runner failed: {exc}",
                "tests": [{"name": c.name, "status": "error"} for c in sub.exercise.cases],
            }
            return
        store.put(sub, result)

    try:
        with (
            ThreadPoolExecutor(max_workers=jobs) as pool,
            tqdm(total=len(todo), unit="submission", file=sys.stderr, disable=None, dynamic_ncols=True) as bar,
        ):
            for future in as_completed([pool.submit(work, sub) for sub in todo]):
                future.result()
                bar.update()
    finally:
        for r in runners:
            r.close()
    return unstored


def _cell(result: dict | None, total: int) -> dict:
    if result is None:
        return {"status": MISSING, "passed": 0, "total": total}
    passed = sum(t["status"] == "pass" for t in result["tests"])
    return {"status": result["status"], "passed": passed, "total": len(result["tests"])}


def write_gradebook(out: Path, slugs: list[str], rows: list[dict]) -> None:
    """gradebook.json ({"challenges", "learners": [{"learner", "challenges": {SLUG: cell}}]}) and gradebook.csv
    (a row per learner, a column per challenge: "pass 12/12", "fail 9/12", "missing"; then how many pass)."""
    rows = sorted(rows, key=lambda row: row["learner"])
    _write_atomically(out / "gradebook.json", json.dumps({"challenges": slugs, "learners": rows}, indent=1) + "\n")
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["learner", *slugs, "passed"])
    for row in rows:
        cells = [row["challenges"][slug] for slug in slugs]
        writer.writerow(
            [
                row["learner"],
                *(
                    c["status"] if c["status"] == MISSING else f"{c['status']} {c['passed']}/{c['total']}"
                    for c in cells
                ),
                sum(c["status"] == "pass" for c in cells),
            ]
        )
    _write_atomically(out / "gradebook.csv", text.getvalue())


def main_class(args) -> int:
    exercises = course_exercises()
    everyone = learners(args.submissions)
    k, n = args.shard
    mine = everyone[k - 1 :: n]
    store = VerdictStore(args.out / "verdicts")
    broken: dict[str, str] = {}
    subs = list(_submissions(args.submissions, mine, exercises, ROOT, broken))
    for learner, why in broken.items():
        print(f"error: {why}; every challenge of {learner} is an error", file=sys.stderr)
    todo = [s for s in subs if store.get(s.learner, s.exercise.slug, s.key) is None]
    jobs = args.jobs or os.cpu_count() or 1
    print(
        f"{len(mine)} learners{f' (shard {k}/{n} of {len(everyone)})' if n > 1 else ''}, "
        f"{len(exercises)} challenges: {len(subs)} submissions, {len(subs) - len(todo)} already graded, "
        f"grading {len(todo)} with {min(jobs, max(len(todo), 1))} runner(s)",
        file=sys.stderr,
    )
    unstored = _grade_all(todo, jobs, store)

    by_place = {(s.learner, s.exercise.slug): s for s in subs}
    rows = []
    for learner in mine:
        cells = {}
        for ex in exercises:
            where = (learner, ex.slug)
            if learner in broken:
                result = {"status": "error", "tests": [{"status": "error"} for _ in ex.cases]}
            elif where in unstored:
                result = unstored[where]
            else:
                result = store.get(*where, by_place[where].key)["result"] if where in by_place else None
            cells[ex.slug] = _cell(result, len(ex.cases))
        rows.append({"learner": learner, "challenges": cells})
    write_gradebook(args.out, [ex.slug for ex in exercises], rows)
    print(
        f"gradebook: {args.out / 'gradebook.csv'} and gradebook.json"
        + (f"; {len(unstored)} submission(s) broke the runner and will be graded again next time" if unstored else ""),
        file=sys.stderr,
    )
    return 0


def main_merge(args) -> int:
    slugs = None
    rows: dict[str, dict] = {}
    for shard in args.shards:
        try:
            book = json.loads((shard / "gradebook.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise LoopcraftError(f"{shard}: no readable gradebook.json ({exc})") from None
        if slugs is None:
            slugs = book["challenges"]
        elif book["challenges"] != slugs:
            raise LoopcraftError(f"{shard}: graded other challenges than {args.shards[0]}; shards must share a course")
        for row in book["learners"]:
            if row["learner"] in rows and rows[row["learner"]] != row:
                raise LoopcraftError(f"{shard}: learner {row['learner']!r} has other verdicts in another shard")
            rows[row["learner"]] = row
        for verdict in sorted((shard / "verdicts").glob("*/*.json")):
            target = args.out / "verdicts" / verdict.parent.name / verdict.name
            if verdict.resolve() != target.resolve():
                _write_atomically(target, verdict.read_text(encoding="utf-8"))
    write_gradebook(args.out, slugs, list(rows.values()))
    print(f"merged {len(args.shards)} gradebooks, {len(rows)} learners: {args.out / 'gradebook.csv'}", file=sys.stderr)
    return 0
