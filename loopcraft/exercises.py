"""Load exercises/ into dataclasses, reporting every problem with the file and line it comes from.

Each YAML file is parsed with ruamel's round-trip loader (which keeps line numbers), turned into plain
JSON data, then validated against its schema in schemas/; schema errors are mapped back to lines. A file that
loads without errors is kept in the build cache (its data and the line of each key), keyed by its text and
its schema, so a rebuild parses only the files that changed.
"""

from __future__ import annotations

import copy
import datetime
import difflib
import functools
import json
import math
import os
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

import jsonschema
from markdown_it import MarkdownIt
from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.scalarbool import ScalarBoolean

from .cache import BuildCache
from .errors import LoopcraftError, Problem, has_errors, raise_errors
from .project import INSTALL

SCHEMAS = INSTALL / "schemas"
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_FENCES = MarkdownIt("commonmark")  # only to find a lesson's fenced blocks and their lines
_SCHEMA_COMMENT = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(\S+)", re.MULTILINE)


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()  # Case.expected of a case that `python build.py record` has yet to fill in


@dataclass(frozen=True)
class Case:
    name: str
    args: dict
    expected: object  # MISSING only in exercises loaded for `record`
    hidden: bool  # true for every private case too
    line: int  # in exercise.yaml
    private: bool = False  # never published: graded by the CLI and the build's checks only


@dataclass(frozen=True)
class WrongSolution:
    path: Path
    mistake: str
    source: str
    line: int  # of its entry in exercise.yaml


@dataclass(frozen=True)
class EquivalentMutant:
    """A mutant of solution.py that no case can tell apart from it (see loopcraft/mutate.py)."""

    line: int  # of solution.py
    change: str
    reason: str
    yaml_line: int  # of its entry in exercise.yaml


@dataclass(frozen=True)
class Exercise:
    slug: str
    track: str
    dir: Path
    title: str
    summary: str
    difficulty: str
    minutes: int
    entry: str
    signature: str
    time_limit_seconds: float
    task: str
    constraints: list[str]
    hints: list[str]
    sandbox_path: Path
    sandbox_source: str
    starter_source: str
    solution_source: str
    wrong_solutions: list[WrongSolution]
    cases: list[Case]
    cases_line: int  # of `cases:` in exercise.yaml
    equivalent_mutants: list[EquivalentMutant]


@dataclass(frozen=True)
class LiveBlock:
    """A fenced ```python live``` block of a lesson: runs in the page, and once at build time."""

    code: str
    line: int  # of its opening fence in lesson.md
    raises: bool  # marked ```python live raises```: the build requires it to raise


@dataclass(frozen=True)
class Option:
    text: str
    feedback: str
    correct: bool


@dataclass(frozen=True)
class Question:
    kind: str  # single | multiple | output
    prompt: str
    options: list[Option]  # for `output`, only the wrong ones: the right one is what `code` prints
    code: str | None  # `output` only
    explanation: str | None  # `output` only: the right answer's feedback
    line: int  # in lesson.yaml, of the `code` key for `output`, else of the question
    option_lines: list[int]  # of each option (or wrong output)


@dataclass(frozen=True)
class Lesson:
    slug: str
    track: str
    dir: Path
    title: str
    summary: str
    level: str
    minutes: int
    body: str  # lesson.md, Markdown
    blocks: list[LiveBlock]
    questions: list[Question]


@dataclass(frozen=True)
class Part:
    title: str
    items: list[Exercise | Lesson]  # in course order

    @property
    def exercises(self) -> list[Exercise]:
        """The part's challenges, in course order."""
        return [item for item in self.items if isinstance(item, Exercise)]


@dataclass(frozen=True)
class Lab:
    """The loop lab of a track (see grader/lab.py): the sandbox its loops run in, the challenges whose saved
    solutions a learner may try in it."""

    world: str  # the sandbox's source
    loops: list[str]  # challenge slugs


@dataclass(frozen=True)
class Track:
    slug: str
    dir: Path
    title: str
    summary: str
    parts: list[Part]  # a track listed with plain `challenges` is one part titled like the track
    mutation_threshold: float  # percent; see loopcraft/mutate.py
    lab: Lab | None = None
    points: dict[str, float] = field(default_factory=dict)  # a challenge's worth in an LMS's gradebook (default 1)

    @property
    def exercises(self) -> list[Exercise]:
        """Every challenge in course order."""
        return [ex for part in self.parts for ex in part.exercises]

    def points_of(self, slug: str) -> float:
        """What a challenge is worth in a gradebook: its `points` in track.yaml, 1 unless set."""
        return self.points.get(slug, 1.0)

    @property
    def items(self) -> list[Exercise | Lesson]:
        """Every challenge and lesson in course order."""
        return [item for part in self.parts for item in part.items]

    @property
    def lessons(self) -> list[Lesson]:
        return [item for item in self.items if isinstance(item, Lesson)]


def load_course(root: Path, notes: list[Problem] | None = None, cache: BuildCache | None = None) -> list[Track]:
    """Every track under root/exercises, sorted by folder name; raises ExerciseError with all problems.

    Notes (see Problem.note) come with the errors, or, when there are none, are added to `notes` if given.
    """
    root = root.resolve()
    exercises_dir = root / "exercises"
    if not exercises_dir.is_dir():
        raise LoopcraftError(f"no exercises folder at {exercises_dir}")
    problems: list[Problem] = []
    tracks = [_load_track(root, d, problems, cache) for d in _subdirs(exercises_dir)]
    raise_errors(problems)
    if not tracks:
        raise LoopcraftError(f"no tracks in {exercises_dir}")
    if notes is not None:
        notes += problems
    return tracks


def find_exercise(root: Path, slug_or_path: str, *, recording: bool = False) -> Exercise:
    """One exercise, by slug, `track/slug`, or a path to its folder or exercise.yaml; loads only that one.

    `recording`: cases may lack `expected` (their Case.expected is MISSING), for `python build.py record`.
    """
    root = root.resolve()
    given = Path(slug_or_path)
    if given.name == "exercise.yaml":
        given = given.parent
    if given.exists():
        if not (given / "exercise.yaml").is_file():
            raise LoopcraftError(f"{slug_or_path} is not an exercise folder (it has no exercise.yaml)")
        folder = given.resolve()
    elif (root / "exercises" / given / "exercise.yaml").is_file() and len(given.parts) == 2:
        folder = root / "exercises" / given
    elif len(given.parts) > 1:
        raise LoopcraftError(f"no such exercise folder: {slug_or_path}")
    else:
        folder = _folder_for_slug(root, slug_or_path)
    problems: list[Problem] = []
    exercise = _load_exercise(root, folder, folder.parent.name, problems, recording=recording)
    raise_errors(problems)
    return exercise


def find_item(tracks: list[Track], name: str) -> Exercise | Lesson:
    """A challenge or lesson of a loaded course, by slug, `track/slug`, or a path to its folder or a file in it."""
    items = [item for track in tracks for item in track.items]
    given = Path(name)
    if given.exists():
        real = given.resolve()
        for item in items:
            folder = item.dir.resolve()
            if real == folder or folder in real.parents:
                return item
        raise LoopcraftError(f"{name} is not in a challenge's or a lesson's folder")
    found = [item for item in items if name in (item.slug, f"{item.track}/{item.slug}")]
    if len(found) == 1:
        return found[0]
    if found:
        options = ", ".join(f"{item.track}/{item.slug}" for item in found)
        raise LoopcraftError(f"{name!r} is ambiguous; use one of: {options}")
    raise LoopcraftError(f"no challenge or lesson {name!r}{_did_you_mean(name, [item.slug for item in items])}")


def _folder_for_slug(root: Path, slug: str) -> Path:
    found = sorted(root.glob(f"exercises/*/{slug}/exercise.yaml"))
    if len(found) == 1:
        return found[0].parent
    if found:
        options = ", ".join(f"{p.parent.parent.name}/{slug}" for p in found)
        raise LoopcraftError(f"exercise slug {slug!r} is ambiguous; use one of: {options}")
    known = sorted(p.parent.name for p in root.glob("exercises/*/*/exercise.yaml"))
    raise LoopcraftError(f"unknown exercise {slug!r}{_did_you_mean(slug, known)}")


def _list(value) -> list:
    """A list field's items; a value of the wrong type has its schema error already, so it yields none."""
    return value if isinstance(value, list) else []


def _subdirs(folder: Path) -> list[Path]:
    with os.scandir(folder) as entries:  # rather than pathlib, which takes twice as long on a big course
        names = sorted(e.name for e in entries if e.is_dir() and not e.name.startswith((".", "_")))
    return [folder / name for name in names]


def _load_track(root: Path, track_dir: Path, problems: list[Problem], cache: BuildCache | None) -> Track | None:
    yaml_path = track_dir / "track.yaml"
    rel = rel_path(yaml_path, root)
    if not yaml_path.is_file():
        problems.append(Problem(rel_path(track_dir, root), 1, "track folder has no track.yaml"))
        return None
    before = len(problems)
    doc = _Document.load(yaml_path, rel, "track", problems, cache)
    if not SLUG.match(track_dir.name):
        problems.append(
            Problem(
                rel,
                1,
                f"track folder name {track_dir.name!r} is not a slug: "
                "use lowercase letters, digits and hyphens (it becomes a URL)",
            )
        )
    real_dir = track_dir.resolve()  # once for all of its exercises (see _resolve_in)
    folders, loaded = _load_items(root, track_dir, real_dir, problems, cache)
    if doc is None:
        return None
    parts, listing_key = _listed_parts(doc)
    _check_listing(doc, rel, parts, listing_key, folders, loaded, problems)
    lab = _load_lab(doc, rel, real_dir, folders, problems) if isinstance(doc.data.get("lab"), dict) else None
    points = doc.data.get("points", {})
    for slug in points:
        if slug not in folders:
            problems.append(
                Problem(rel, doc.line(("points", slug)), f"points: {slug!r} is not a challenge of this track")
            )
    if has_errors(problems[before:]):
        return None
    return Track(
        slug=track_dir.name,
        dir=track_dir,
        title=doc.data["title"],
        summary=doc.data["summary"],
        parts=[Part(title, [loaded[slug] for slug, _ in entries]) for title, entries in parts],
        mutation_threshold=float(doc.data.get("mutation_threshold", schema_default("track", "mutation_threshold"))),
        lab=lab,
        points={slug: float(value) for slug, value in points.items()},
    )


def _load_items(
    root: Path, track_dir: Path, real_dir: Path, problems: list[Problem], cache: BuildCache | None
) -> tuple[dict[str, Path], dict[str, Exercise | Lesson | None]]:
    """The track's exercise folders by name, and every challenge and lesson loaded (None if it has errors).
    Every folder is loaded, listed or not, so that all of their problems are reported in one run."""
    subdirs = _subdirs(track_dir)
    folders = {d.name: d for d in subdirs if os.path.isfile(os.path.join(d, "exercise.yaml"))}
    lesson_folders = {
        d.name: d for d in subdirs if d.name not in folders and os.path.isfile(os.path.join(d, "lesson.yaml"))
    }
    shared: dict[str, str] = {}  # files read by several exercises, such as the track's sandbox
    loaded: dict[str, Exercise | Lesson | None] = {
        name: _load_exercise(root, d, track_dir.name, problems, cache=cache, track_real_dir=real_dir, shared=shared)
        for name, d in folders.items()
    }
    loaded.update({name: _load_lesson(root, d, track_dir.name, problems, cache) for name, d in lesson_folders.items()})
    return folders, loaded


def _listed_parts(doc: _Document) -> tuple[list[tuple[str, list[tuple[str, tuple]]]], tuple]:
    """(part title, [(slug, yaml path of the entry)]) in course order, from either form of track.yaml, and the
    key that holds the listing."""
    if "parts" in doc.data:
        parts = [
            (
                part.get("title"),
                [(slug, ("parts", p, "challenges", i)) for i, slug in enumerate(_list(part.get("challenges")))],
            )
            for p, part in enumerate(_list(doc.data.get("parts")))
            if isinstance(part, dict)
        ]
        return parts, ("parts",)
    entries = [(slug, ("challenges", i)) for i, slug in enumerate(_list(doc.data.get("challenges")))]
    return [(doc.data.get("title"), entries)], ("challenges",)


def _check_listing(
    doc: _Document,
    rel: Path,
    parts: list[tuple[str, list[tuple[str, tuple]]]],
    listing_key: tuple,
    folders: dict[str, Path],
    loaded: dict[str, Exercise | Lesson | None],
    problems: list[Problem],
) -> None:
    """Every entry names a folder, once; every folder is listed."""
    seen: set[str] = set()
    for _, entries in parts:
        for slug, where in entries:
            if not isinstance(slug, str):
                continue
            line = doc.line(where)
            if slug in seen:
                problems.append(Problem(rel, line, f"challenge {slug!r} is listed twice"))
            elif slug not in loaded:
                problems.append(
                    Problem(
                        rel,
                        line,
                        f"challenge {slug!r} has no folder with an exercise.yaml{_did_you_mean(slug, loaded)}",
                    )
                )
            seen.add(slug)
    for name in sorted(set(loaded) - seen):
        kind = "exercise" if name in folders else "lesson"
        problems.append(
            Problem(rel, doc.line(listing_key), f"{kind} folder {name!r} is not listed in {listing_key[0]}")
        )


def _load_lab(
    doc: _Document, rel: Path, real_dir: Path, folders: dict[str, Path], problems: list[Problem]
) -> Lab | None:
    """The track's loop lab; None if its entry has errors (they are reported)."""
    lab_data = doc.data["lab"]
    before = len(problems)
    world_path = _resolve_in(str(real_dir), lab_data.get("sandbox", ""))
    if not os.path.isfile(world_path) or not _inside(world_path, str(real_dir)):
        problems.append(Problem(rel, doc.line(("lab", "sandbox")), "lab.sandbox: no such file in the track folder"))
    for i, slug in enumerate(_list(lab_data.get("loops"))):
        if slug not in folders:
            problems.append(
                Problem(
                    rel, doc.line(("lab", "loops", i)), f"lab.loops[{i}]: {slug!r} is not a challenge of this track"
                )
            )
    if has_errors(problems[before:]):
        return None
    return Lab(world=Path(world_path).read_text(encoding="utf-8"), loops=list(lab_data.get("loops", [])))


@dataclass(frozen=True)
class _Reader:
    """Reads an exercise's files as text; a missing or undecodable one is a problem, and None."""

    root: Path
    rel: Path  # exercise.yaml, where a missing file is reported
    problems: list[Problem]

    def __call__(self, path: str, line: int, what: str) -> str | None:
        if not os.path.isfile(path):
            self.problems.append(
                Problem(self.rel, line, f"{what} not found: {rel_path(Path(path), self.root).as_posix()}")
            )
            return None
        try:
            with open(path, encoding="utf-8") as f:
                return f.read()
        except UnicodeDecodeError as exc:
            self.problems.append(Problem(rel_path(Path(path), self.root), 1, f"not UTF-8 text: {exc.reason}"))
            return None


def _load_exercise(
    root: Path,
    folder: Path,
    track: str,
    problems: list[Problem],
    *,
    recording: bool = False,
    cache: BuildCache | None = None,
    track_real_dir: Path | None = None,
    shared: dict[str, str] | None = None,
) -> Exercise | None:
    # Paths are mostly strings here: a course has thousands of files, and pathlib would double the loading time.
    track_real_dir = track_real_dir or folder.parent.resolve()
    real_folder = _resolve_in(str(track_real_dir), folder.name)
    rel = _relative(_resolve_in(real_folder, "exercise.yaml"), root)
    before = len(problems)
    doc = _Document.load(os.path.join(folder, "exercise.yaml"), rel, "exercise", problems, cache)
    read = _Reader(root, rel, problems)
    # Fixed names, so they are checked even when exercise.yaml itself is broken.
    starter = read(os.path.join(folder, "starter.py"), 1, "starter file")
    solution = read(os.path.join(folder, "solution.py"), 1, "reference solution")
    if doc is None:
        return None
    sandbox_path, sandbox = _load_sandbox(doc, read, real_folder, str(track_real_dir), shared)
    wrong = _load_wrong_solutions(doc, read, folder, real_folder)
    _check_cases(doc, rel, f"{track}/{folder.name}", problems, recording=recording)
    if has_errors(problems[before:]):
        return None
    data = doc.data
    return Exercise(
        slug=folder.name,
        track=track,
        dir=folder,
        title=data["title"],
        summary=data["summary"],
        difficulty=data["difficulty"],
        minutes=int(data["minutes"]),
        entry=data["entry"],
        signature=data["signature"],
        time_limit_seconds=float(data["time_limit_seconds"]),
        task=data["task"],
        constraints=list(data["constraints"]),
        hints=list(data["hints"]),
        sandbox_path=sandbox_path,
        sandbox_source=sandbox,
        starter_source=starter,
        solution_source=solution,
        wrong_solutions=wrong,
        cases=[
            Case(
                name=c["name"],
                args=c["args"],
                expected=c.get("expected", MISSING),
                hidden=c["hidden"] or c["private"],
                line=doc.line(("cases", i)),
                private=c["private"],
            )
            for i, c in enumerate(data["cases"])
        ],
        cases_line=doc.line(("cases",)),
        equivalent_mutants=[
            EquivalentMutant(
                line=m["line"], change=m["change"], reason=m["reason"], yaml_line=doc.line(("equivalent_mutants", i))
            )
            for i, m in enumerate(data.get("equivalent_mutants", []))
        ],
    )


def _load_sandbox(
    doc: _Document, read: _Reader, real_folder: str, track_real_dir: str, shared: dict[str, str] | None
) -> tuple[Path | None, str | None]:
    """The sandbox's resolved path and source; `shared` keeps the sources that several exercises read."""
    if not isinstance(doc.data.get("sandbox"), str):
        return None, None
    real_sandbox = _resolve_in(real_folder, doc.data["sandbox"])
    sandbox_path = Path(real_sandbox)
    line = doc.line(("sandbox",))
    # The sandbox is published in the site, so it must not be able to reach a reference solution.
    if not _inside(real_sandbox, track_real_dir) or sandbox_path.name == "solution.py":
        read.problems.append(
            Problem(read.rel, line, "sandbox must be a file in the track folder, other than a solution.py")
        )
        return sandbox_path, None
    if shared is not None and real_sandbox in shared:
        return sandbox_path, shared[real_sandbox]
    sandbox = read(real_sandbox, line, "sandbox file")
    if shared is not None and sandbox is not None:
        shared[real_sandbox] = sandbox
    return sandbox_path, sandbox


def _load_wrong_solutions(doc: _Document, read: _Reader, folder: Path, real_folder: str) -> list[WrongSolution]:
    """The listed wrong solutions that can be read; a file in wrong/ that is not listed is a problem."""
    wrong: list[WrongSolution] = []
    listed: set[Path] = set()
    for i, item in enumerate(_list(doc.data.get("wrong_solutions"))):
        if isinstance(item, dict) and isinstance(item.get("file"), str):
            path = Path(_resolve_in(real_folder, item["file"]))
            listed.add(path)
            text = read(str(path), doc.line(("wrong_solutions", i, "file")), "wrong solution")
            if text is not None and isinstance(item.get("mistake"), str):
                wrong.append(
                    WrongSolution(
                        path=path, mistake=item["mistake"], source=text, line=doc.line(("wrong_solutions", i))
                    )
                )
    wrong_dir = os.path.join(folder, "wrong")
    for path in sorted(Path(wrong_dir).glob("*.py")) if os.path.isdir(wrong_dir) else []:
        if Path(_resolve_in(real_folder, f"wrong/{path.name}")) not in listed:
            read.problems.append(
                Problem(
                    read.rel,
                    doc.line(("wrong_solutions",)),
                    f"{path.relative_to(folder).as_posix()} is not listed in wrong_solutions, "
                    "so the build would never check that it fails",
                )
            )
    return wrong


def _check_cases(doc: _Document, rel: Path, name: str, problems: list[Problem], *, recording: bool) -> None:
    """What the schema cannot say about the cases: a missing `expected` (unless `recording`), a private case
    marked `hidden: false`, a name used twice. `name` is the exercise's TRACK/SLUG."""
    first_line: dict[str, int] = {}
    for i, case in enumerate(_list(doc.data.get("cases"))):
        if not isinstance(case, dict):
            continue
        if "expected" not in case and not recording:
            # The schema lets `expected` be left out only so that `record` can fill it in.
            problems.append(
                Problem(
                    rel,
                    doc.line(("cases", i)),
                    _at(
                        ("cases", i),
                        f"no expected value; run `python build.py record {name}` to fill it in from the reference "
                        "solution",
                    ),
                )
            )
        # Defaults are filled in by now: only an author's own `hidden: false` is a contradiction.
        if case.get("private") is True and case.get("hidden") is False and ("cases", i, "hidden") in doc.lines:
            problems.append(
                Problem(
                    rel,
                    doc.line(("cases", i, "hidden")),
                    _at(("cases", i), "a private case is never shown, so it cannot be `hidden: false`; drop that line"),
                )
            )
        if isinstance(case.get("name"), str):
            line = doc.line(("cases", i, "name"))
            if case["name"] in first_line:
                problems.append(
                    Problem(
                        rel,
                        line,
                        f"duplicate case name {case['name']!r} (first used at line {first_line[case['name']]})",
                    )
                )
            first_line.setdefault(case["name"], line)


_LIVE_FENCE = re.compile(r"^python\s+live(\s+raises)?\s*$")


def _load_lesson(
    root: Path, folder: Path, track: str, problems: list[Problem], cache: BuildCache | None = None
) -> Lesson | None:
    rel = rel_path(folder / "lesson.yaml", root)
    md_path = folder / "lesson.md"
    before = len(problems)
    doc = _Document.load(folder / "lesson.yaml", rel, "lesson", problems, cache)
    body = None
    if not md_path.is_file():
        problems.append(Problem(rel, 1, f"lesson text not found: {rel_path(md_path, root).as_posix()}"))
    else:
        try:
            body = md_path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            problems.append(Problem(rel_path(md_path, root), 1, f"not UTF-8 text: {exc.reason}"))
    if doc is None or body is None:
        return None
    blocks = _live_blocks(body, rel_path(md_path, root), problems)
    questions = _questions(doc, rel, problems)
    if has_errors(problems[before:]):
        return None
    data = doc.data
    return Lesson(
        slug=folder.name,
        track=track,
        dir=folder,
        title=data["title"],
        summary=data["summary"],
        level=data["level"],
        minutes=int(data["minutes"]),
        body=body,
        blocks=blocks,
        questions=questions,
    )


def _live_blocks(body: str, md_rel: Path, problems: list[Problem]) -> list[LiveBlock]:
    """The ```python live``` fences of a lesson's text; a marker misspelt or a block left empty is a problem."""
    blocks = []
    for token in _FENCES.parse(body):
        if token.type != "fence" or not token.info.strip().startswith("python live"):
            continue
        live = _LIVE_FENCE.match(token.info.strip())
        line = token.map[0] + 1
        if live is None:
            problems.append(
                Problem(
                    md_rel,
                    line,
                    f"unknown live block marker {token.info.strip()!r}: "
                    "write ```python live``` or ```python live raises```",
                )
            )
        elif not token.content.strip():
            problems.append(Problem(md_rel, line, "empty live block"))
        else:
            blocks.append(LiveBlock(code=token.content, line=line, raises=bool(live.group(1))))
    return blocks


def _questions(doc: _Document, rel: Path, problems: list[Problem]) -> list[Question]:
    """The lesson's questions; one whose answer cannot be right is a problem."""
    questions = []
    for i, q in enumerate(_list(doc.data.get("questions"))):
        if not isinstance(q, dict) or q.get("kind") not in ("single", "multiple", "output"):
            continue
        where = ("questions", i)
        choices = _list(q.get("wrong" if q["kind"] == "output" else "options"))
        problem = _answer_problem(q["kind"], choices)
        if problem:
            key = where + ("wrong" if q["kind"] == "output" else "options",)
            problems.append(Problem(rel, doc.line(key), _at(key, problem)))
        questions.append(
            Question(
                kind=q["kind"],
                prompt=q.get("prompt", ""),
                code=q.get("code"),
                explanation=q.get("explanation"),
                options=[
                    Option(o.get("text", ""), o.get("feedback", ""), bool(o.get("correct", False)))
                    for o in choices
                    if isinstance(o, dict)
                ],
                line=doc.line(where + ("code",) if q["kind"] == "output" else where),
                option_lines=[
                    doc.line(where + ("wrong" if q["kind"] == "output" else "options", j))
                    for j, o in enumerate(choices)
                    if isinstance(o, dict)
                ],
            )
        )
    if len(questions) < 2 and "questions" in doc.data:
        problems.append(
            Problem(rel, doc.line(("questions",)), "questions: a lesson needs at least two questions", note=True)
        )
    return questions


def _answer_problem(kind: str, choices: list) -> str | None:
    """Why a question of this kind with these options (the wrong outputs, for `output`) has no right answer."""
    if kind == "output":
        return None if choices else "the answer list is empty: give at least one wrong output to choose against"
    right = [o for o in choices if isinstance(o, dict) and o.get("correct")]
    if not choices:
        return "the answer list is empty"
    if len(choices) < 2:
        return "give at least two options"
    if not right:
        return "no option is marked `correct: true`, so the question has no answer"
    if kind == "single" and len(right) > 1:
        return f"{len(right)} options are marked correct in a single-choice question: mark one, or make it `kind: multiple`"
    return None


class _Document:
    """A parsed YAML file: plain JSON `data`, and the 1-based line of every key and list item by its path."""

    def __init__(self, data, lines: dict[tuple, int]):
        self.data = data
        self.lines = lines

    @classmethod
    def load(
        cls, path: Path | str, rel: Path, kind: str, problems: list[Problem], cache: BuildCache | None = None
    ) -> _Document | None:
        """Parse and validate; None if the file cannot be parsed at all (the problem is recorded)."""
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except UnicodeDecodeError as exc:
            problems.append(Problem(rel, 1, f"not UTF-8 text: {exc.reason}"))
            return None
        named = _SCHEMA_COMMENT.search(text)
        if not named or posixpath.basename(named.group(1)) != f"{kind}.schema.json":
            problems.append(
                Problem(
                    rel,
                    1,
                    f"add `{schema_comment(rel, kind)}` as the first line, so that editors check this file as you type",
                    note=True,
                )
            )
        schema = _schema(kind)
        key = cache.key("yaml", kind, schema, text) if cache else ""
        if cache and (cached := cache.get_json("yaml", key)) is not None:
            return cls(cached["data"], {tuple(path): line for path, line in cached["lines"]})
        try:
            tree = YAML(typ="rt").load(text)
        except MarkedYAMLError as exc:
            problems.append(_syntax_problem(rel, exc))
            return None
        except YAMLError as exc:
            problems.append(Problem(rel, 1, f"YAML error: {exc}"))
            return None
        before = len(problems)
        doc = cls(None, _lines(tree))
        doc.data = doc._plain(tree, (), rel, problems)
        if not isinstance(doc.data, dict):
            problems.append(Problem(rel, 1, f"expected a mapping of fields, got {_kind(doc.data)}"))
            return None
        validator = _validator(schema)
        doc._validate(validator, rel, problems)
        _fill_defaults(validator.schema, doc.data)
        if cache and len(problems) == before:  # only error-free files, so errors are always found afresh
            cache.put_json("yaml", key, {"data": doc.data, "lines": [[list(p), n] for p, n in doc.lines.items()]})
        return doc

    def line(self, path: tuple) -> int:
        """1-based line of the key (or list item) at `path`; the nearest enclosing one if it is missing."""
        line = 1
        for end in range(1, len(path) + 1):
            if path[:end] not in self.lines:
                break
            line = self.lines[path[:end]]
        return line

    def _plain(self, node, path: tuple, rel: Path, problems: list[Problem]):
        """Plain JSON data; a non-JSON value is reported and replaced by a stand-in so validation goes on."""

        def report(message: str, line_path: tuple = path) -> None:
            problems.append(Problem(rel, self.line(line_path), _at(path, message)))

        if node is None or isinstance(node, bool):
            return node
        if isinstance(node, ScalarBoolean):  # what ruamel makes of an anchored true/false
            return bool(node)
        if isinstance(node, str):  # ruamel's str subclasses keep the quoting style; drop it
            return str(node)
        if isinstance(node, int):
            return int(node)
        if isinstance(node, float):
            if not math.isfinite(node):
                report(f"{node} is not a JSON number (JSON has no NaN or infinity)")
                return None
            return float(node)
        if isinstance(node, dict):
            out = {}
            for key, value in node.items():
                if not isinstance(key, str):
                    report(f"key {key!r} is {_kind(key)}; JSON keys are strings, so quote it", path + (key,))
                out[str(key)] = self._plain(value, path + (key,), rel, problems)
            return out
        if isinstance(node, list):
            return [self._plain(value, path + (i,), rel, problems) for i, value in enumerate(node)]
        if isinstance(node, (datetime.date, datetime.datetime)):
            report(f"{node} is a YAML timestamp, not JSON; quote it to make it a string")
        else:
            report(f"a YAML {type(node).__name__} is not a JSON value")
        return str(node)

    def _validate(self, validator: jsonschema.Draft202012Validator, rel: Path, problems: list[Problem]) -> None:
        reported_required: set[tuple] = set()
        for error in validator.iter_errors(self.data):
            path = tuple(error.absolute_path)
            line = self.line(path)
            if error.validator == "additionalProperties":
                allowed = error.schema.get("properties", {})
                for key in error.instance:
                    if key not in allowed:
                        problems.append(
                            Problem(
                                rel,
                                self.line(path + (key,)),
                                _at(path, f"unknown key {key!r}{_did_you_mean(key, allowed)}"),
                            )
                        )
            elif error.validator == "required":
                # jsonschema yields one error per missing field; answer the first with all of them.
                if path not in reported_required:
                    reported_required.add(path)
                    for field in error.validator_value:
                        if field not in error.instance:
                            problems.append(Problem(rel, line, _at(path, f"missing required field {field!r}")))
            elif error.validator == "type":
                wanted = error.validator_value
                wanted = " or ".join(map(_TYPE_NAMES.get, wanted if isinstance(wanted, list) else [wanted]))
                problems.append(
                    Problem(
                        rel,
                        line,
                        _at(path, f"expected {wanted}, got {_kind(error.instance)} ({_short(error.instance)})"),
                    )
                )
            elif error.validator == "enum":
                choices = ", ".join(map(str, error.validator_value))
                message = f"must be one of {choices}; got {_short(error.instance)}"
                problems.append(Problem(rel, line, _at(path, message)))
            elif error.validator == "oneOf" and all("required" in option for option in error.validator_value):
                keys = " or ".join(repr(k) for option in error.validator_value for k in option["required"])
                problems.append(Problem(rel, line, _at(path, f"give exactly one of {keys}")))
            elif error.validator == "pattern" and "propertyNames" in error.schema_path:
                problems.append(
                    Problem(
                        rel,
                        self.line(path + (error.instance,)),
                        _at(path, f"key {error.instance!r} is not a Python identifier"),
                    )
                )
            else:
                problems.append(Problem(rel, line, _at(path, error.message)))


def _lines(tree) -> dict[tuple, int]:
    """The line of every key and list item of a ruamel tree that has one, by path (merged keys have none)."""
    lines: dict[tuple, int] = {}

    def walk(node, path: tuple) -> None:
        for key in node if isinstance(node, dict) else range(len(node)) if isinstance(node, list) else ():
            try:
                pos = node.lc.key(key) if isinstance(node, dict) else node.lc.item(key)
            except (AttributeError, KeyError, IndexError, TypeError):
                continue
            lines[path + (key,)] = pos[0] + 1
            walk(node[key], path + (key,))

    walk(tree, ())
    return lines


_TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "null",
}


def schema_comment(rel: Path, kind: str) -> str:
    """The line naming the JSON Schema of a YAML file at `rel` (relative to the root), for editors."""
    if rel.is_absolute():  # outside the root
        schema = posixpath.relpath(f"schemas/{kind}.schema.json", rel.parent.as_posix())
    else:  # the same answer from "/" as from the working directory, which relpath would look up twice each time
        schema = posixpath.relpath(f"/schemas/{kind}.schema.json", f"/{rel.parent.as_posix()}")
    return f"# yaml-language-server: $schema={schema}"


def _schema(kind: str) -> str:
    """A schema's text: part of the cache key of every file it validates."""
    path = os.path.join(SCHEMAS, f"{kind}.schema.json")  # a string: this runs for every file loaded
    return _read_schema(path, os.stat(path).st_mtime_ns)


@functools.cache
def _read_schema(path: str, _mtime_ns: int) -> str:
    # Keyed by modification time too, so the dev server picks up an edited schema.
    return Path(path).read_text(encoding="utf-8")


@functools.cache
def _validator(schema_text: str) -> jsonschema.Draft202012Validator:
    """Compiled only when a file is not in the cache."""
    schema = json.loads(schema_text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def schema_default(kind: str, field: str):
    """The default of a top-level field, as the schema of `kind` writes it."""
    return _validator(_schema(kind)).schema["properties"][field]["default"]


def _fill_defaults(schema: dict, value) -> None:
    """Fill in the schema's `default` of every missing key, nested ones too: the one place a default is applied
    (the schema is the one place it is written), so what the loader passes on is complete."""
    if isinstance(value, dict):
        for key, sub in schema.get("properties", {}).items():
            if key not in value and "default" in sub:
                value[key] = copy.deepcopy(sub["default"])
            if key in value:
                _fill_defaults(sub, value[key])
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for item in value:
            _fill_defaults(schema["items"], item)


def _syntax_problem(rel: Path, exc: MarkedYAMLError) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    message = f"YAML syntax error at column {mark.column + 1}: {exc.problem or exc.context}"
    if exc.problem and exc.context and exc.context_mark:
        message += f" ({exc.context} at line {exc.context_mark.line + 1}, column {exc.context_mark.column + 1})"
    return Problem(rel, mark.line + 1, message)


def _kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"a {type(value).__name__}"


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _at(path: tuple, message: str) -> str:
    """Prefix a message with where it applies, e.g. `cases[2].args: ...`; nothing at the top level."""
    where = ""
    for key in path:
        if isinstance(key, int):
            where += f"[{key}]"
        elif isinstance(key, str) and _IDENTIFIER.match(key):
            where += f".{key}" if where else key
        else:
            where += f"[{key!r}]"
    return f"{where}: {message}" if where else message


def _did_you_mean(word: str, choices) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def rel_path(path: Path, root: Path) -> Path:
    """`path` as problems show it: relative to the (resolved) repository root when inside it."""
    return _relative(str(path.resolve()), root)


def _relative(path: str, root: Path) -> Path:
    """rel_path of a resolved path, given as a string (cheaper than pathlib's relative_to, loading a course)."""
    prefix = os.path.join(root, "")
    if path.startswith(prefix):
        return Path(path[len(prefix) :])
    return Path(".") if path == str(root) else Path(path)


def _inside(path: str, folder: str) -> bool:
    """Path.is_relative_to for resolved paths given as strings."""
    return path == folder or path.startswith(os.path.join(folder, ""))


def _resolve_in(real_dir: str, relative: str) -> str:
    """`os.path.realpath(real_dir/relative)` for a folder already resolved, looking up only the components of
    `relative`: realpath looks up every one from the root, which made up a third of loading a course."""
    path = "/" if relative.startswith("/") else real_dir
    for part in relative.split("/"):
        if part == "..":
            path = os.path.dirname(path)
        elif part not in ("", "."):
            path = os.path.join(path, part)
            if os.path.islink(path):
                return os.path.realpath(os.path.join(real_dir, relative))  # rare: leave it to the general case
    return path
