"""Load exercises/ into the course model (loopcraft/course/course.py), reporting every problem with the file and line it
comes from, all of them before one stop.

Each YAML file is read as a Document (loopcraft/course/yamldoc.py: its data, checked against its schema, and the line of
every key); what a schema cannot say (listings, files beside the YAML, cases, lesson blocks and questions) is
checked here.
"""

from __future__ import annotations

import ast
import builtins
import os
import re
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt

from grader.canonical import from_tagged

from .cache import BuildCache
from .course import (
    MISSING,
    SLUG,
    BuildsOn,
    Case,
    EquivalentMutant,
    Exercise,
    Lab,
    Lesson,
    LiveBlock,
    Option,
    Part,
    Question,
    Raises,
    Track,
    WrongSolution,
)
from .errors import LoopcraftError, Problem, did_you_mean, has_errors, raise_errors
from .paths import inside, rel_path, rel_resolved, resolve_in
from .schemas import schema_default
from .yamldoc import Document, at

_FENCES = MarkdownIt("commonmark")  # only to find a lesson's fenced blocks and their lines


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
    raise LoopcraftError(f"no challenge or lesson {name!r}{did_you_mean(name, [item.slug for item in items])}")


def _folder_for_slug(root: Path, slug: str) -> Path:
    found = sorted(root.glob(f"exercises/*/{slug}/exercise.yaml"))
    if len(found) == 1:
        return found[0].parent
    if found:
        options = ", ".join(f"{p.parent.parent.name}/{slug}" for p in found)
        raise LoopcraftError(f"exercise slug {slug!r} is ambiguous; use one of: {options}")
    known = sorted(p.parent.name for p in root.glob("exercises/*/*/exercise.yaml"))
    raise LoopcraftError(f"unknown exercise {slug!r}{did_you_mean(slug, known)}")


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
    doc = Document.load(yaml_path, rel, "track", problems, cache)
    if not SLUG.match(track_dir.name):
        problems.append(
            Problem(
                rel,
                1,
                f"track folder name {track_dir.name!r} is not a slug: "
                "use lowercase letters, digits and hyphens (it becomes a URL)",
            )
        )
    real_dir = track_dir.resolve()  # once for all of its exercises (see paths.resolve_in)
    folders, loaded = _load_items(root, track_dir, real_dir, problems, cache)
    if doc is None:
        return None
    parts, listing_key = _listed_parts(doc)
    _check_listing(doc, rel, parts, listing_key, folders, loaded, problems)
    _check_builds_on(root, parts, folders, loaded, problems)
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


def _listed_parts(doc: Document) -> tuple[list[tuple[str, list[tuple[str, tuple]]]], tuple]:
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
    doc: Document,
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
                        f"challenge {slug!r} has no folder with an exercise.yaml{did_you_mean(slug, loaded)}",
                    )
                )
            seen.add(slug)
    for name in sorted(set(loaded) - seen):
        kind = "exercise" if name in folders else "lesson"
        problems.append(
            Problem(rel, doc.line(listing_key), f"{kind} folder {name!r} is not listed in {listing_key[0]}")
        )


def _load_lab(
    doc: Document, rel: Path, real_dir: Path, folders: dict[str, Path], problems: list[Problem]
) -> Lab | None:
    """The track's loop lab; None if its entry has errors (they are reported)."""
    lab_data = doc.data["lab"]
    before = len(problems)
    world_path = resolve_in(str(real_dir), lab_data.get("sandbox", ""))
    if not os.path.isfile(world_path) or not inside(world_path, str(real_dir)):
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


# The button a challenge with `builds_on` has (templates/challenge.html), as its task may name it, wrapped or not.
_BUTTON = re.compile(r"Start\s+from\s+my\s+code\s+for\s+challenge\s+(\d+)")


def _button(match: re.Match) -> str:
    return " ".join(match[0].split())


def _check_builds_on(
    root: Path,
    parts: list[tuple[str, list[tuple[str, tuple]]]],
    folders: dict[str, Path],
    loaded: dict[str, Exercise | Lesson | None],
    problems: list[Problem],
) -> None:
    """Each `builds_on` names an earlier challenge of the track, and a task that names the button names that
    challenge's number among the course's challenges (lessons are numbered on their own, as the index numbers
    them: loopcraft/site/render.py `kind_numbers`)."""
    in_order = [s for _, entries in parts for s, _ in entries]
    numbers = {slug: i for i, slug in enumerate((s for s in in_order if s in folders), start=1)}
    for slug, number in numbers.items():
        ex = loaded.get(slug) if isinstance(slug, str) else None
        if not isinstance(ex, Exercise) or ex.builds_on is None:
            continue
        target = ex.builds_on.slug
        if target not in folders:
            if target in loaded:
                why = f"{target!r} is a lesson; a challenge can build only on a challenge, whose code the learner saves"
            else:
                why = f"{target!r} is not a challenge of this track{did_you_mean(target, folders)}"
        elif target == slug:
            why = "a challenge cannot build on itself"
        elif target not in numbers:
            continue  # not listed: an error of track.yaml already
        elif numbers[target] > number:
            why = (
                f"{target!r} comes after this challenge in track.yaml (challenge {numbers[target]}, this is challenge "
                f"{number}); "
                "a challenge can build only on an earlier one"
            )
        else:
            named = [_button(m) for m in _BUTTON.finditer(ex.task) if int(m[1]) != numbers[target]]
            if not named:
                continue
            why = f'{target!r} is challenge {numbers[target]} of the course, but the task names the button "{named[0]}"'
        problems.append(Problem(rel_path(ex.dir / "exercise.yaml", root), ex.builds_on.line, f"builds_on: {why}"))


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
    real_folder = resolve_in(str(track_real_dir), folder.name)
    rel = rel_resolved(resolve_in(real_folder, "exercise.yaml"), root)
    before = len(problems)
    doc = Document.load(os.path.join(folder, "exercise.yaml"), rel, "exercise", problems, cache)
    read = _Reader(root, rel, problems)
    # Fixed names, so they are checked even when exercise.yaml itself is broken.
    starter = read(os.path.join(folder, "starter.py"), 1, "starter file")
    solution = read(os.path.join(folder, "solution.py"), 1, "reference solution")
    if doc is None:
        return None
    sandbox_path, sandbox = _load_sandbox(doc, read, real_folder, str(track_real_dir), shared)
    wrong = _load_wrong_solutions(doc, read, folder, real_folder)
    _check_cases(doc, rel, f"{track}/{folder.name}", problems, recording=recording)
    # A note, not an error: a course cut to some of its challenges (Gradescope's, a test's) drops the `builds_on` of
    # one whose earlier challenge it leaves out, and keeps its prose.
    if "builds_on" not in doc.data and (named := _BUTTON.search(str(doc.data.get("task", "")))):
        problems.append(
            Problem(
                rel,
                doc.line(("task",)),
                f'task: names the button "{_button(named)}", which only a challenge with `builds_on` has',
                note=True,
            )
        )
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
        entry_kind=entry_kind(data["entry"], solution),
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
        cases=[_case(c, doc.line(("cases", i)), data["call_twice"]) for i, c in enumerate(data["cases"])],
        cases_line=doc.line(("cases",)),
        entry_line=doc.line(("entry",)),
        equivalent_mutants=[
            EquivalentMutant(
                line=m["line"], change=m["change"], reason=m["reason"], yaml_line=doc.line(("equivalent_mutants", i))
            )
            for i, m in enumerate(data.get("equivalent_mutants", []))
        ],
        builds_on=BuildsOn(data["builds_on"], doc.line(("builds_on",))) if "builds_on" in data else None,
    )


def _load_sandbox(
    doc: Document, read: _Reader, real_folder: str, track_real_dir: str, shared: dict[str, str] | None
) -> tuple[Path | None, str | None]:
    """The sandbox's resolved path and source; `shared` keeps the sources that several exercises read."""
    if not isinstance(doc.data.get("sandbox"), str):
        return None, None
    real_sandbox = resolve_in(real_folder, doc.data["sandbox"])
    sandbox_path = Path(real_sandbox)
    line = doc.line(("sandbox",))
    # The sandbox is published in the site, so it must not be able to reach a reference solution.
    if not inside(real_sandbox, track_real_dir) or sandbox_path.name == "solution.py":
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


def _load_wrong_solutions(doc: Document, read: _Reader, folder: Path, real_folder: str) -> list[WrongSolution]:
    """The listed wrong solutions that can be read; a file in wrong/ that is not listed is a problem."""
    wrong: list[WrongSolution] = []
    listed: set[Path] = set()
    for i, item in enumerate(_list(doc.data.get("wrong_solutions"))):
        if isinstance(item, dict) and isinstance(item.get("file"), str):
            path = Path(resolve_in(real_folder, item["file"]))
            listed.add(path)
            text = read(str(path), doc.line(("wrong_solutions", i, "file")), "wrong solution")
            if text is not None and isinstance(item.get("mistake"), str):
                wrong.append(
                    WrongSolution(
                        path=path,
                        mistake=item["mistake"],
                        source=text,
                        line=doc.line(("wrong_solutions", i)),
                        hint=item.get("hint"),
                        named=item.get("named", True),
                    )
                )
    wrong_dir = os.path.join(folder, "wrong")
    for path in sorted(Path(wrong_dir).glob("*.py")) if os.path.isdir(wrong_dir) else []:
        if Path(resolve_in(real_folder, f"wrong/{path.name}")) not in listed:
            read.problems.append(
                Problem(
                    read.rel,
                    doc.line(("wrong_solutions",)),
                    f"{path.relative_to(folder).as_posix()} is not listed in wrong_solutions, "
                    "so the build would never check that it fails",
                )
            )
    return wrong


def entry_kind(entry: str | list[str], solution: str) -> str:
    """What the learner writes, as the page names it: "names" for a list of them; "class" when the reference solution
    defines `entry` as a class (at its top level); else "function"."""
    if isinstance(entry, list):
        return "names"
    try:
        tree = ast.parse(solution)
    except (SyntaxError, ValueError):  # `check` reports it, running the solution
        return "function"
    classes = {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
    return "class" if entry in classes else "function"


def _case(c: dict, line: int, call_twice: bool) -> Case:
    raises = c.get("raises")
    return Case(
        name=c["name"],
        args=from_tagged(c["args"]) if "args" in c else None,
        expected=from_tagged(c["expected"]) if "expected" in c else MISSING,
        hidden=c["hidden"],
        line=line,
        private=c["private"],
        call_twice=c.get("call_twice", call_twice),
        call=c.get("call"),
        setup=c.get("setup"),
        raises=Raises(raises["type"], raises.get("message")) if raises else None,
        stdout=c.get("stdout"),
        stdin=c.get("stdin"),
        tolerance=float(c["tolerance"]) if "tolerance" in c else None,
    )


def builtin_exception(name: str) -> bool:
    """Whether `name` is a built-in exception's, which a case's `raises.type` must be (a learner's own class is
    checked by the built-in class it derives from)."""
    found = getattr(builtins, name, None)
    return isinstance(found, type) and issubclass(found, BaseException)


def _case_problems(case: dict, names_entry: bool, recording: bool = False) -> list[tuple[str, str]]:
    """What the schema cannot say about one case's keys, each as (the key it is reported at, message); `recording`:
    a case that expects nothing yet is `record`'s to fill in, a tolerance beside it included."""
    found = []
    if "args" in case and "call" in case:
        found.append(("call", "give `args` (the entry's arguments) or `call` (an expression), not both"))
    elif "args" not in case and "call" not in case:
        found.append(("name", "give `args` (the entry's arguments) or `call` (an expression to evaluate)"))
    elif names_entry and "args" in case:
        found.append(("args", "`entry` is a list of names, so each case says what it runs with `call`, not `args`"))
    if "setup" in case and "call" not in case:
        found.append(("setup", "`setup` runs before a case's `call`, and this case has none"))
    if "expected" in case and "raises" in case:
        found.append(("raises", "give `expected` (what the call returns) or `raises`, not both"))
    raised = case.get("raises")
    if isinstance(raised, dict) and isinstance(raised.get("type"), str) and not builtin_exception(raised["type"]):
        found.append(
            (
                ("raises", "type"),
                f"{raised['type']!r} is not a built-in exception; name the built-in one it derives from "
                "(e.g. ValueError): a subclass of it passes",
            )
        )
    expects = any(key in case for key in ("expected", "raises", "stdout"))
    if "tolerance" in case and "expected" not in case and (expects or not recording):
        found.append(("tolerance", "a tolerance compares the floats of `expected`, and this case has none"))
    return found


def _check_cases(doc: Document, rel: Path, name: str, problems: list[Problem], *, recording: bool) -> None:
    """What the schema cannot say about the cases: which keys go together (`args` or `call`, `expected` or
    `raises`, `setup` with `call`), a `raises.type` that is not a built-in exception, a case that expects nothing
    (unless `recording`), a private case marked `hidden: false`, a name used twice. `name` is the exercise's
    TRACK/SLUG."""
    first_line: dict[str, int] = {}
    names_entry = isinstance(doc.data.get("entry"), list)
    for i, case in enumerate(_list(doc.data.get("cases"))):
        if not isinstance(case, dict):
            continue
        for key, message in _case_problems(case, names_entry, recording):
            where = ("cases", i, *((key,) if isinstance(key, str) else key))
            problems.append(Problem(rel, doc.line(where), at(("cases", i), message)))
        if not {"expected", "raises", "stdout"} & set(case) and not recording:
            # The schema lets all three be left out only so that `record` can fill one in.
            problems.append(
                Problem(
                    rel,
                    doc.line(("cases", i)),
                    at(
                        ("cases", i),
                        "no expected value, `raises` or `stdout`; run `python build.py record "
                        f"{name}` to fill it in from the reference solution",
                    ),
                )
            )
        # Defaults are filled in by now: only an author's own `hidden: false` is a contradiction.
        if case.get("private") is True and case.get("hidden") is False and ("cases", i, "hidden") in doc.lines:
            problems.append(
                Problem(
                    rel,
                    doc.line(("cases", i, "hidden")),
                    at(("cases", i), "a private case is never shown, so it cannot be `hidden: false`; drop that line"),
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
    doc = Document.load(folder / "lesson.yaml", rel, "lesson", problems, cache)
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


def _questions(doc: Document, rel: Path, problems: list[Problem]) -> list[Question]:
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
            problems.append(Problem(rel, doc.line(key), at(key, problem)))
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
