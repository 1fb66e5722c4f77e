"""The build's stages: load -> validate -> verify -> render, bundle and gather every file of the site in memory
(the service worker last, as it lists the others) -> precompressed copies -> write into a staging dir -> swap.

Loading, rendering and bundling keep what they make in the build cache (loopcraft/course/cache.py), keyed by all their
inputs, so a rebuild after an edit redoes only what the edit changed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from loopcraft.authoring.lessons import LessonRun, run_lessons
from loopcraft.course.cache import BuildCache
from loopcraft.course.course import Exercise, Lesson, Track
from loopcraft.course.errors import BuildError, Problem, in_order, raise_errors
from loopcraft.course.load import find_item, load_course
from loopcraft.course.paths import rel_path
from loopcraft.course.project import Project
from loopcraft.running.grading import Runners, runner_for

from .bundle import bundle
from .headers import headers_file, inline_script_hashes, security_headers
from .precompress import Brotli, precompress
from .render import pygments_css, render_pages
from .sitewriter import staged_site
from .snapshot import Shipped, shipped_snapshot

if TYPE_CHECKING:
    from loopcraft.authoring.mutate import Score
    from loopcraft.authoring.verify import Strength

PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]
# The command-line entry points never run in the page.
BUNDLES = {"app.js": [], "index.js": [], "lesson.js": [], "lab.js": [], "worker.js": ["--external:../pyodide/*"]}
SERVICE_WORKER = "sw.js"  # at the site's root, so that its scope is the whole site


@dataclass(frozen=True)
class Report:
    """What checking the course (or one item of it) found: the loaded tracks, notes and verification problems,
    strength tables, mutation scores and how many generated scenarios each challenge ran."""

    tracks: list[Track]
    problems: list[Problem]  # notes, and errors from verification (a loading error raises at once)
    strengths: list[Strength]  # one per exercise; empty when not verified
    lesson_runs: dict[tuple[str, str], LessonRun]  # what every live block printed; empty when not run
    scores: list[Score]  # mutation testing, one per exercise whose reference passes; empty when not verified
    scenarios: dict[str, int] = field(default_factory=dict)  # generated scenarios run, by "track/slug"
    only: Exercise | Lesson | None = None  # the one challenge or lesson checked, if not the whole course

    def notes_aside(self) -> str:
        """What a build says of its problems (notes only, as errors stop it): how many, and that they are `check`'s
        to show, since they are for authors and a build is also the teacher's."""
        notes = len(self.problems)
        return f"; {notes} note(s) for authors, which `python build.py check` shows" if notes else ""


def check(
    project: Project,
    *,
    verify: bool = True,
    cache: BuildCache | None = None,
    lessons: bool | None = None,
    only: str | None = None,
    runners: Runners | None = None,
) -> Report:
    """Load, validate and (unless told not to) verify and mutation-test every exercise, search its generated
    scenarios for mutants the cases miss, and run every lesson's code (`lessons`, by default as `verify`: a
    build always runs them, since its pages show what they print). `only` (a slug, `track/slug` or a path in
    its folder) limits everything but loading and validating to one challenge or lesson. `runners`: trusted ones to
    borrow from (loopcraft.running.grading.Runners), else the check starts its own.
    Raises ExerciseError if the course cannot be loaded; verification errors are in the report, so that its
    strength tables and mutation scores can be shown with them."""
    root = project.root
    notes: list[Problem] = []
    tracks = load_course(root, notes, cache)
    exercises = [(ex, track.mutation_threshold) for track in tracks for ex in track.exercises]
    all_lessons = [lesson for track in tracks for lesson in track.lessons]
    item = None
    if only is not None:
        item = find_item(tracks, only)
        exercises = [(ex, bar) for ex, bar in exercises if ex is item]
        all_lessons = [lesson for lesson in all_lessons if lesson is item]
        folder = rel_path(item.dir, root)
        notes = [note for note in notes if folder in note.path.parents]
    strengths, scores, scenarios = [], [], {}
    runs, lesson_problems = {}, []
    # The author's solutions, mutants, scenarios and lessons share one runner, started only if something must run:
    # a start (about a CPU-second) each saved.
    with runner_for(project, "trusted", runners) as runner:
        if verify:
            from loopcraft.authoring.mutate import (  # these need Node and Pyodide, so only when asked
                score,
                survivor_problems,
            )
            from loopcraft.authoring.strengthen import check_scenarios
            from loopcraft.authoring.verify import verify as verify_exercises

            cache = cache or BuildCache(root)
            strengths = verify_exercises(project, [ex for ex, _ in exercises], cache, runner)
            scores, mutation_problems = score(project, exercises, cache, runner)
            found = check_scenarios(root, scores, cache, runner)
            notes += mutation_problems + found.problems
            for one in scores:
                notes += survivor_problems(
                    root, one, found.differs.get(f"{one.exercise.track}/{one.exercise.slug}", {})
                )
            scenarios = found.scenarios
        if verify if lessons is None else lessons:
            runs, lesson_problems = run_lessons(project, all_lessons, cache, runner)
    problems = notes + [p for s in strengths for p in s.problems] + lesson_problems
    return Report(tracks, in_order(problems), strengths, runs, scores, scenarios, item)


def build(
    project: Project, out: Path, *, verify: bool = True, runners: Runners | None = None, for_the_wire: bool = True
) -> Report:
    """Build the site into `out`, replacing it only if every stage succeeds (`runners`: as `check`'s). `for_the_wire`
    False: a site for this machine (the dev server's), whose snapshot of Python is compressed like any big file
    (precompress.quality: 2 s where the best quality takes 30 after every change of the grader)."""
    root = project.root
    _require_inputs(root)
    cache = BuildCache(root)
    report = check(project, verify=verify, cache=cache, lessons=True, runners=runners)
    raise_errors(report.problems)
    with Brotli() as brotli:  # Node starts now, to be ready by the time the files to compress are known
        snapshot = shipped_snapshot(project, root / "node_modules/pyodide")
        asset_version = _asset_version(project, snapshot)
        catalogues = {(s.exercise.track, s.exercise.slug): s.catalogue for s in report.strengths}
        pages = render_pages(root / "templates", report.tracks, asset_version, cache, report.lesson_runs, catalogues)
        files = _site_files(project, cache, pages, asset_version, snapshot)
        best = frozenset([f"py/{snapshot.file}"] if for_the_wire else [])
        with (
            precompress(root, files, {*pages, SERVICE_WORKER}, brotli, best) as compression,
            staged_site(out, cache.spare_site) as site,
        ):
            for relative, data in files.items():
                site.write(relative, data)
            for relative, entry in compression.copies().items():
                site.link(entry, relative)
    cache.prune()
    return report


def _site_files(
    project: Project, cache: BuildCache, pages: dict[str, str], asset_version: str, snapshot: Shipped
) -> dict[str, bytes]:
    """Every file of the site but the precompressed copies, {path relative to the site: bytes}."""
    root = project.root
    files = {page: html.encode("utf-8") for page, html in pages.items()}
    bundles = {**BUNDLES, "worker.js": [*BUNDLES["worker.js"], snapshot.define()]}
    files.update({f"assets/{name}": bundle(root, cache, name, extra) for name, extra in bundles.items()})
    files["assets/style.css"] = (root / "frontend/src/style.css").read_bytes()
    files["assets/highlight.css"] = pygments_css().encode("utf-8")
    for name in PYODIDE_FILES:
        files[f"pyodide/{name}"] = (root / "node_modules/pyodide" / name).read_bytes()
    shipped = project.grader_files
    for name in shipped:
        files[f"py/{name}"] = (project.grader_root / name).read_bytes()
    manifest = {"files": shipped, "hash": _hash_files(project.grader_root, shipped)}
    files["py/manifest.json"] = (json.dumps(manifest, indent=2) + "\n").encode("utf-8")
    files[f"py/{snapshot.file}"] = snapshot.data
    security = security_headers(inline_script_hashes(list(pages.values())))
    files["_headers"] = headers_file(security).encode("utf-8")
    # GitHub Pages runs Jekyll over a site unless it holds this file, and Jekyll drops every file whose name starts
    # with "_" (py/grader/__init__.py among them): the worker would find no grader.
    files[".nojekyll"] = b""
    optional = [f"py/{snapshot.file}"]  # a page boots Python without it
    files[SERVICE_WORKER] = _service_worker(root, cache, files, sorted(pages), asset_version, security, optional)
    return files


def _service_worker(
    root: Path,
    cache: BuildCache,
    files: dict[str, bytes],
    pages: list[str],
    asset_version: str,
    security: dict[str, str],
    optional: list[str],
) -> bytes:
    """Bundle sw.js with the build's version, the headers it adds where a host sends none, and what it caches:
    every file of the site (the assets under the versioned URLs the pages ask for) with the SHA-256 of its bytes,
    so that it never serves a cached copy that differs from what the build wrote; `optional`, the files the site
    works without."""
    precache = {}
    for path in sorted(files):
        if path in ("_headers", ".nojekyll"):  # for the host, not for a page
            continue
        versioned = path.startswith("assets/") and path.endswith((".js", ".css"))
        precache[f"{path}?v={asset_version}" if versioned else path] = hashlib.sha256(files[path]).hexdigest()
    h = hashlib.sha256(asset_version.encode())
    for page in pages:
        h.update(page.encode() + b"\0" + files[page])
    defines = {
        "__VERSION__": h.hexdigest()[:10],
        "__PRECACHE__": precache,
        "__OPTIONAL__": optional,
        "__HEADERS__": security,
    }
    return bundle(
        root, cache, SERVICE_WORKER, [f"--define:{name}={json.dumps(value)}" for name, value in defines.items()]
    )


def _hash_files(root: Path, names: list[str]) -> str:
    h = hashlib.sha256()
    for name in names:
        h.update(name.encode() + b"\0" + (root / name).read_bytes())
    return h.hexdigest()[:16]


def _require_inputs(root: Path) -> None:
    """Fail before the slow stages, naming every missing file at once."""
    needed = [f"templates/{name}" for name in ("index.html", "challenge.html", "404.html")]
    needed += [f"frontend/src/{name}" for name in [*BUNDLES, SERVICE_WORKER, "style.css"]]
    needed += ["grader/__init__.py", "node_modules/.bin/esbuild"]
    needed += [f"node_modules/pyodide/{name}" for name in PYODIDE_FILES]
    missing = [name for name in needed if not (root / name).is_file()]
    if missing:
        hint = " (run `npm ci`)" if any(name.startswith("node_modules/") for name in missing) else ""
        raise BuildError(f"missing files the build needs{hint}:\n" + "\n".join(f"  {name}" for name in missing))


def _asset_version(project: Project, snapshot: Shipped) -> str:
    """Hash of everything the assets are made from, known before bundling, so pages render before any write."""
    root = project.root
    h = hashlib.sha256()
    inputs = sorted(p for p in (root / "frontend/src").rglob("*") if p.is_file())
    inputs += [root / "node_modules/pyodide/package.json", root / "node_modules/esbuild/package.json"]
    for path in inputs:
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes() if path.is_file() else b"")
    h.update(project.grader_hash.encode())
    h.update(snapshot.file.encode())  # named after its bytes; the worker's script names it
    h.update(pygments_css().encode())
    return h.hexdigest()[:10]
