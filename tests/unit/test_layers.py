"""The wings of loopcraft/ as layers (docs/architecture.md, "The wings"): course <- running <- authoring <- site <-
classroom <- the commands. A module imports its own wing's modules and lower wings' only, never in a cycle, counting
every import: at the top, inside a function, under `if TYPE_CHECKING:`. The grader package, which Pyodide loads,
imports nothing of the host but its command line's entry. Reads files only: no subprocess, no interpreter.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Lowest first. A module of loopcraft/ outside these folders (the top-level modules, loopcraft/commands/) is a command.
WINGS = ["course", "running", "authoring", "site", "classroom"]
COMMANDS = "commands"
LAYERS = [*WINGS, COMMANDS]


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path, package: str) -> dict[str, Path]:
    return {module_name(path, root): path for path in sorted((root / package).rglob("*.py"))}


def imports(path: Path, name: str, known: set[str]) -> set[str]:
    """The modules of `known` that the module `name` at `path` imports, wherever in it the import is written."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            # a name imported from a package may be one of its modules (`from . import cases`)
            found.update(f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names)
    return found & known


def graph(root: Path) -> dict[str, set[str]]:
    """{module: the modules of loopcraft/ and grader/ it imports}."""
    found = modules(root, "loopcraft") | modules(root, "grader")
    return {name: imports(path, name, set(found)) - {name} for name, path in found.items()}


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in WINGS else COMMANDS


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Every import of a loopcraft module from a higher layer than the importer's."""
    return sorted(
        f"{module} ({layer(module)}) imports {target} ({layer(target)})"
        for module, targets in edges.items()
        if module.startswith("loopcraft.")
        for target in targets
        if target.startswith("loopcraft.") and LAYERS.index(layer(target)) > LAYERS.index(layer(module))
    )


def cycle(edges: dict[str, set[str]]) -> list[str]:
    """One cycle of imports, as the modules on it in order; [] if there is none."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module], path[len(path) :] = "open", [module]
        for target in sorted(edges.get(module, ())):
            if state.get(target) == "open":
                return path[path.index(target) :] + [target]
            if target not in state and (found := visit(target)):
                return found
        state[module] = "done"
        path.pop()
        return []

    for module in sorted(edges):
        if module not in state and (found := visit(module)):
            return found
    return []


def test_each_wing_imports_its_own_and_lower_wings_only():
    edges = graph(ROOT)
    per_wing = {wing: [m for m in edges if m.startswith("loopcraft.") and layer(m) == wing] for wing in LAYERS}
    assert all(len(per_wing[wing]) >= 4 for wing in WINGS), per_wing
    assert upward(edges) == []


def test_loopcraft_and_the_grader_import_each_other_in_no_cycle():
    edges = graph(ROOT)
    assert "loopcraft.authoring.verify" in edges["loopcraft.site.build"]  # a function-level import is counted
    assert cycle(edges) == []


def test_the_grader_imports_nothing_of_the_host_but_its_command_line_entry():
    edges = graph(ROOT)
    reaching = {m: sorted(t for t in targets if t.startswith("loopcraft")) for m, targets in edges.items()}
    assert {m: t for m, t in reaching.items() if m.startswith("grader") and t} == {
        "grader.__main__": reaching["grader.__main__"]
    }
    assert reaching["grader.__main__"], "grader/__main__.py hands over to the host's command line"


def test_an_import_up_a_layer_or_round_a_cycle_is_found_wherever_it_is_written(tmp_path):
    files = {
        "loopcraft/__init__.py": "",
        "loopcraft/course/__init__.py": "",
        "loopcraft/course/cases.py": "def salt():\n    from loopcraft.site import render\n",
        "loopcraft/site/__init__.py": "",
        "loopcraft/site/render.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..course.cases import salt\n",
        "grader/__init__.py": "",
        "grader/results.py": "from loopcraft.course.cases import salt\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    edges = graph(tmp_path)
    assert upward(edges) == ["loopcraft.course.cases (course) imports loopcraft.site.render (site)"]
    assert cycle(edges) == ["loopcraft.course.cases", "loopcraft.site.render", "loopcraft.course.cases"]
    assert edges["grader.results"] == {"loopcraft.course.cases"}
