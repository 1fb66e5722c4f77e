"""docs/architecture.md's "Repository layout" held to the tree.

The layout is the section from `## Repository layout` to the next `## ` heading; what it names is the first cell of
each table row, a path in backquotes (`bench/` a folder, `loopcraft/course/load.py` a file, a path with `*` a
pattern). It must name every top-level folder of the repository, every schema in schemas/, every module of loopcraft/
and of its wings (loopcraft/course/, loopcraft/classroom/, ...) and every folder of tests/ (each tier's), and
everything it names must be in the tree. Reads files only: no subprocess, no interpreter.
"""

from __future__ import annotations

import fnmatch
import re

from tests.helpers import ROOT

DOC = ROOT / "docs" / "architecture.md"
# Folders that set-up, builds and runs make in the project, never part of the repository (dot-folders neither).
MADE_HERE = {".venv", "node_modules", "site", "test-results", ".cache", "__pycache__"}
ROW = re.compile(r"^\| `([^`]+)` \|", re.MULTILINE)


def layout_section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("\n## Repository layout\n")
    end = text.find("\n## ", start + 1)
    return text[start : len(text) if end == -1 else end]


def named() -> list[str]:
    """The paths the layout names, in order."""
    return ROW.findall(layout_section())


def ignored_at_top() -> list[str]:
    """.gitignore's patterns that can match a top-level folder (`*.egg-info/`, `/site.*/`), as fnmatch patterns."""
    patterns = []
    for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "!")):
            continue
        pattern = line.strip("/")
        if "/" not in pattern:  # a pattern with a slash inside matches below the top level only
            patterns.append(pattern)
    return patterns


def top_level_folders() -> list[str]:
    ignored = ignored_at_top()
    return sorted(
        path.name
        for path in ROOT.iterdir()
        if path.is_dir()
        and not path.name.startswith(".")
        and path.name not in MADE_HERE
        and not any(fnmatch.fnmatch(path.name, pattern) for pattern in ignored)
    )


def missing_from_layout(paths: list[str]) -> list[str]:
    names = set(named())
    return [path for path in paths if path not in names]


def test_the_layout_names_every_top_level_folder():
    folders = top_level_folders()
    assert {"bench", "grader", "loopcraft", "schemas", "tests"} <= set(folders)
    missing = missing_from_layout([f"{folder}/" for folder in folders])
    assert not missing, f"docs/architecture.md's layout does not name these top-level folders: {missing}"


def test_the_layout_names_every_schema():
    schemas = sorted(f"schemas/{path.name}" for path in (ROOT / "schemas").glob("*.json"))
    assert len(schemas) >= 7
    missing = missing_from_layout(schemas)
    assert not missing, f"docs/architecture.md's layout does not name these schemas: {missing}"


def test_the_layout_names_every_module_of_loopcraft_and_its_wings():
    modules = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "loopcraft").rglob("*.py"))
    assert {"loopcraft/classroom/handback.py", "loopcraft/course/cases.py"} <= set(modules)
    missing = missing_from_layout(modules)
    assert not missing, f"docs/architecture.md's layout does not name these modules: {missing}"


def test_everything_the_layout_names_is_in_the_tree():
    paths = named()
    assert len(paths) > 50, "the layout's table rows were not found: is each path a row's first cell, in backquotes?"

    def present(path: str) -> bool:
        if any(char in path for char in "*?["):
            return any(ROOT.glob(path))
        return (ROOT / path).is_dir() if path.endswith("/") else (ROOT / path).is_file()

    absent = [path for path in paths if not present(path)]
    assert not absent, f"docs/architecture.md's layout names what is not in the tree: {absent}"
    twice = sorted({path for path in paths if paths.count(path) > 1})
    assert not twice, f"docs/architecture.md's layout names these twice: {twice}"


def test_the_layout_names_every_folder_of_tests():
    """Each tier's folder (tests/conftest.py, TIERS) and every other folder of tests/ the tree has."""
    from tests.conftest import TIERS

    folders = sorted(f"tests/{p.name}/" for p in (ROOT / "tests").iterdir() if p.is_dir() and p.name not in MADE_HERE)
    assert {f"tests/{tier}/" for tier in TIERS} <= set(folders)
    missing = missing_from_layout(folders)
    assert not missing, f"docs/architecture.md's layout does not name these folders of tests/: {missing}"
