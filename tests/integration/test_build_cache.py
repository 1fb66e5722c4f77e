"""The build cache (.cache/loopcraft/) and the spare site it keeps: whatever changed, a rebuild writes byte for
byte the site a cold build writes; it redoes only what changed; corrupt entries and a tampered spare are reused
only where they hold the right bytes, and the site being served is never written into.

The projects are those of test_build.py: tests/fixtures/project and the valid exercises, built as the dev server
builds (no verifying, the snapshot not compressed for the wire).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import loopcraft.course.schemas
import loopcraft.course.yamldoc
import loopcraft.site.bundle
import loopcraft.site.render
import loopcraft.site.sitewriter
from loopcraft.course.cache import FOLDER
from loopcraft.course.errors import ExerciseError
from loopcraft.course.paths import resolve_in
from loopcraft.course.project import Project
from loopcraft.site.build import build
from tests.helpers import FIXTURES, make_project

ADD = "exercises/basics/add"


def dev_build(project: Project, out: Path) -> None:
    """A build as the dev server makes them (its snapshot not compressed for the wire, which only costs time): the
    cache behaves the same either way, and the grader file's edit makes a new snapshot to compress."""
    build(project, out, verify=False, for_the_wire=False)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path, FIXTURES / "valid/exercises")


@pytest.fixture(scope="module")
def built_twice(tmp_path_factory) -> tuple[Path, Path]:
    """A project built twice into its site/ (the second build's replaced site is the spare the next build stages into,
    sharing the files that did not change with the site), and a copy of it kept aside: built once for the module."""
    project = make_project(tmp_path_factory.mktemp("built-twice"), FIXTURES / "valid/exercises")
    for _ in range(2):
        dev_build(Project(project), project / "site")
    kept = project.with_name("kept")
    subprocess.run(["cp", "-a", project, kept], check=True)
    return project, kept


@pytest.fixture
def warm(built_twice) -> Path:
    """The project built twice, as it was (`cp -a` keeps the spare's hard links and the files' times), and where it
    was: the build cache holds where the project is, and a copy elsewhere would render some pages again."""
    project, kept = built_twice
    shutil.rmtree(project)
    subprocess.run(["cp", "-a", kept, project], check=True)
    return project


def files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def cold_build(project: Path) -> dict[str, bytes]:
    """The site built from the same inputs with no build cache, into a folder of its own."""
    shutil.rmtree(project / FOLDER, ignore_errors=True)
    dev_build(Project(project), project / "cold")
    return files(project / "cold")


def edit(project: Path, relative: str, old: str, new: str) -> None:
    path = project / relative
    text = path.read_text()
    assert old in text, f"{old!r} not in {relative}"
    path.write_text(text.replace(old, new, 1))


EDITS = {
    "exercise title": (f"{ADD}/exercise.yaml", "title: Add two numbers", "title: Add them up"),  # index, next page
    "expected value": (f"{ADD}/exercise.yaml", "expected: 3\n", "expected: 30\n"),
    "starter": (f"{ADD}/starter.py", "def add", "# Start here.\ndef add"),
    "shared sandbox": ("exercises/basics/helpers.py", "def plus", "# Helpers.\ndef plus"),
    "track title": ("exercises/basics/track.yaml", "title: Basics", "title: The basics"),
    "template": ("templates/challenge.html", "<h1>{{ ex.title }}</h1>", "<h1 class=t>{{ ex.title }}</h1>"),
    "grader file": ("grader/canonical.py", "", "# A comment changes the grader's hash.\n"),
    "imported module": ("frontend/src/greet.js", "Hello, ", "Hi, "),  # only app.js imports it
}


@pytest.mark.parametrize("change", EDITS)
def test_a_rebuild_writes_what_a_cold_build_writes(warm: Path, change: str):
    project, out = warm, warm / "site"
    before = files(out)
    relative, old, new = EDITS[change]
    if old:
        edit(project, relative, old, new)
    else:
        (project / relative).write_text(new + (project / relative).read_text())

    dev_build(Project(project), out)

    rebuilt = files(out)
    assert rebuilt != before
    assert rebuilt == cold_build(project)


def test_a_rebuild_redoes_only_what_changed(project: Path, monkeypatch: pytest.MonkeyPatch):
    # As in a process of its own: none of the YAML files this one parsed before (loopcraft/course/yamldoc.py keeps them).
    monkeypatch.setattr(loopcraft.course.yamldoc, "_PARSED", type(loopcraft.course.yamldoc._PARSED)())
    out = project / "site"
    dev_build(Project(project), out)
    calls = {"yaml": 0, "page": 0, "esbuild": 0}

    def counting(module, name: str, what: str):
        original = getattr(module, name)

        def counted(*args, **kwargs):
            calls[what] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)

    counting(loopcraft.course.yamldoc, "YAML", "yaml")
    counting(loopcraft.site.render, "challenge_context", "page")
    counting(loopcraft.site.bundle, "_esbuild", "esbuild")

    dev_build(Project(project), out)
    assert calls == {"yaml": 0, "page": 0, "esbuild": 0}

    edit(project, f"{ADD}/exercise.yaml", "title: Add two numbers", "title: Add them up")
    dev_build(Project(project), out)
    # The edited file; its page and the next one, which links to it; the service worker, which lists the pages.
    assert calls == {"yaml": 1, "page": 2, "esbuild": 1}


def test_changing_a_schema_invalidates_the_files_it_validated(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    schemas = tmp_path / "schemas"
    shutil.copytree(loopcraft.course.schemas.SCHEMAS, schemas)
    monkeypatch.setattr(loopcraft.course.schemas, "SCHEMAS", schemas)
    dev_build(Project(project), project / "site")
    schema = schemas / "exercise.schema.json"
    schema.write_text(schema.read_text().replace('"minutes": {', '"minutes": {"maximum": 1, ', 1))

    with pytest.raises(ExerciseError) as caught:
        dev_build(Project(project), project / "site")

    (problem,) = caught.value.problems
    assert str(problem) == f"{ADD}/exercise.yaml:5: minutes: 2 is greater than the maximum of 1"


def test_problems_outside_a_cached_file_are_still_found(project: Path):
    dev_build(Project(project), project / "site")
    (project / "exercises/basics/double/starter.py").unlink()
    (project / f"{ADD}/wrong/typo.py").write_text("def add(a, b):\n    return a + b + 1\n")

    with pytest.raises(ExerciseError) as caught:
        dev_build(Project(project), project / "site")

    assert [str(p) for p in caught.value.problems] == [
        f"{ADD}/exercise.yaml:18: wrong/typo.py is not listed in wrong_solutions, so the build would never check "
        "that it fails",
        "exercises/basics/double/exercise.yaml:1: starter file not found: exercises/basics/double/starter.py",
    ]


def test_corrupt_or_unreadable_entries_are_made_again(project: Path):
    out = project / "site"
    dev_build(Project(project), out)
    entries = sorted(p for p in (project / FOLDER / "entries").rglob("*") if p.is_file())
    assert {p.parent.name for p in entries} == {"yaml", "page", "bundle", "bundle-inputs", "template"}
    for i, entry in enumerate(entries):
        data = entry.read_bytes()
        if i % 3 == 0:
            entry.write_bytes(data[: len(data) // 2])  # truncated
        elif i % 3 == 1:
            entry.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))  # one bit flipped
        else:
            entry.unlink()
            entry.mkdir()  # cannot be read as a file
    edit(project, f"{ADD}/exercise.yaml", "title: Add two numbers", "title: Add them up")

    dev_build(Project(project), out)

    assert files(out) == cold_build(project)


def test_the_spare_site_is_reused_only_where_it_holds_the_right_bytes(warm: Path):
    project, out = warm, warm / "site"
    spare = project / FOLDER / "spare-site"
    page = spare / "basics/add/index.html"
    page.unlink()
    page.write_text("tampered")
    (spare / "basics/stray.html").write_text("not part of the site")
    shutil.rmtree(spare / "basics/double")
    (spare / "basics/double").write_text("a file where the site has a folder")
    (spare / "index.html").unlink()
    (spare / "index.html").symlink_to(project / "templates/index.html")
    (spare / "py/manifest.json").unlink()
    (spare / "py/manifest.json").mkdir()
    wasm_br = spare / "pyodide/pyodide.asm.wasm.br"  # a hard link to its entry in the compressed files' cache
    data = wasm_br.read_bytes()
    wasm_br.unlink()
    wasm_br.write_bytes(data[:-1])

    dev_build(Project(project), out)

    assert files(out) == cold_build(project)
    assert not any(p.is_symlink() for p in out.rglob("*"))


def test_staging_never_writes_into_the_site_being_served(warm: Path, monkeypatch: pytest.MonkeyPatch):
    project, out = warm, warm / "site"  # the spare and the site share the files that did not change
    served = files(out)
    edit(project, f"{ADD}/exercise.yaml", "title: Add two numbers", "title: Add them up")
    edit(project, "templates/challenge.html", "<h1>", "<h1 class=t>")

    def fail(*args):
        raise RuntimeError("swap failed")

    monkeypatch.setattr(loopcraft.site.sitewriter, "_swap", fail)
    with pytest.raises(RuntimeError, match="swap failed"):
        dev_build(Project(project), out)

    assert files(out) == served
    assert sorted(p.name for p in project.iterdir() if p.name.startswith(".")) == [".cache"]


def test_a_cache_folder_that_cannot_be_written_only_costs_time(project: Path):
    (project / ".cache").mkdir()
    (project / FOLDER).write_text("a file, not a folder")
    dev_build(Project(project), project / "site")
    edit(project, f"{ADD}/exercise.yaml", "title: Add two numbers", "title: Add them up")
    dev_build(Project(project), project / "site")
    assert files(project / "site") == cold_build(project)


def test_resolving_below_a_resolved_folder_is_realpath(tmp_path: Path):
    real = tmp_path.resolve()
    (real / "track/ex").mkdir(parents=True)
    (real / "elsewhere").mkdir()
    (real / "track/linked").symlink_to(real / "elsewhere")
    (real / "track/ex/to-solution.py").symlink_to(real / "track/ex/solution.py")
    for relative in [
        "helpers.py",
        "../helpers.py",
        "./a//b/../c.py",
        "../../..",
        "/etc/passwd",
        "../linked/x.py",
        "../linked/../y.py",
        "to-solution.py",
        "missing/../z.py",
        "",
    ]:
        assert resolve_in(str(real / "track/ex"), relative) == os.path.realpath(real / "track/ex" / relative), relative
