"""Mutation testing: how many small, plausible bugs in the reference solution do the cases catch?

Each mutant is solution.py with one change (an operator, a constant, a statement removed or two swapped...),
made with `ast` and written back as source text, because mutants run in Pyodide under Node like every verdict
(mutmut and cosmic-ray are built around running a host test suite; see docs/authoring.md). A mutant is
*killed* when some case does not pass (a wrong value, an error, or running out of its short time limit), and
*survives* when every case passes. The score is killed / (mutants - equivalents marked in exercise.yaml).

A mutant is named by the line of solution.py it changes and what changed there, e.g.
"`count >= limit` -> `count > limit`"; that pair is what an author marks as equivalent.
"""

from __future__ import annotations

import ast
import copy
import itertools
import json
import math
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from grader.results import Status
from loopcraft.course.cache import BuildCache
from loopcraft.course.cases import case_key
from loopcraft.course.course import Exercise, Track
from loopcraft.course.errors import Problem
from loopcraft.course.paths import rel_path
from loopcraft.course.project import INSTALL, Project
from loopcraft.running.grading import grade
from loopcraft.running.pyodide import runner_files
from loopcraft.running.runners import Runner, make_runner

from .progress import progress

# A mutant's family: the operators' changes (operators, constants, statements removed or swapped), or one of
# the learners' mistakes (see _learner_mistakes).
OPERATORS = "operators"
LEARNERS = ["strip dropped", "strip added", "json options", "checks reordered", "key left out", "another field"]
RUNNERS = 2  # Pyodide processes working through the mutants side by side...
PARALLEL_FROM = 200  # ...when there are at least this many mutants to run
# A mutant's time limit per case: this many times the reference solution's slowest case, never below the floor
# (Pyodide's own overhead) nor above the learner's limit. A mutant that loops is cut short within it.
SLOWDOWN = 10
FLOOR_SECONDS = 0.1
# What a Pyodide run's verdict also depends on, besides the inputs and loopcraft's and the grader's code.


@dataclass(frozen=True)
class Mutant:
    line: int  # of solution.py
    change: str  # e.g. "`a < b` -> `a <= b`"
    source: str
    family: str = OPERATORS  # which kind of change: the operators', or one of LEARNERS'


@dataclass(frozen=True)
class Outcome:
    line: int
    change: str
    killed_by: str | None  # the first case that does not pass; None if the mutant survives every case


@dataclass(frozen=True)
class Score:
    """One exercise's mutation testing."""

    exercise: Exercise
    outcomes: list[Outcome]
    equivalent: set[tuple[int, str]]  # marked in exercise.yaml and found among the mutants
    threshold: float  # percent
    cached: bool

    @property
    def counted(self) -> list[Outcome]:
        return [o for o in self.outcomes if (o.line, o.change) not in self.equivalent]

    @property
    def survivors(self) -> list[Outcome]:
        return [o for o in self.counted if o.killed_by is None]

    @property
    def percent(self) -> float:
        counted = self.counted
        return 100.0 if not counted else 100.0 * (len(counted) - len(self.survivors)) / len(counted)

    @property
    def passes(self) -> bool:
        return self.percent >= self.threshold

    def summary(self, scenarios: int | None = None) -> str:
        """e.g. `basics/add: mutation score 95% (19 of 20 killed, 1 equivalent; bar 90%)`, and how many generated
        scenarios looked for what the cases miss (see loopcraft/authoring/strengthen.py)."""
        ex, counted = self.exercise, self.counted
        killed = len(counted) - len(self.survivors)
        equivalent = f", {len(self.equivalent)} equivalent" if self.equivalent else ""
        searched = f"; {scenarios} generated scenarios" if scenarios else ""
        return (
            f"{ex.track}/{ex.slug}: mutation score {_percent(self.percent)} ({killed} of {len(counted)} "
            f"killed{equivalent}; bar {_percent(self.threshold)}{searched}){' (cached)' if self.cached else ''}"
        )


# ---- making mutants ---------------------------------------------------------------------------------------

_COMPARE = {
    ast.Lt: [ast.LtE, ast.GtE],
    ast.LtE: [ast.Lt, ast.Gt],
    ast.Gt: [ast.GtE, ast.LtE],
    ast.GtE: [ast.Gt, ast.Lt],
    ast.Eq: [ast.NotEq],
    ast.NotEq: [ast.Eq],
    ast.In: [ast.NotIn],
    ast.NotIn: [ast.In],
    ast.Is: [ast.IsNot],
    ast.IsNot: [ast.Is],
}
_ARITHMETIC = {
    ast.Add: [ast.Sub],
    ast.Sub: [ast.Add],
    ast.Mult: [ast.Div],
    ast.Div: [ast.Mult],
    ast.FloorDiv: [ast.Mult],
    ast.Mod: [ast.FloorDiv],
}
_BOOLEAN = {ast.And: ast.Or, ast.Or: ast.And}
# Statements whose removal or move is a mistake a learner makes; a def, class or import gone only breaks loading.
_STRUCTURAL = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)


def mutants(source: str) -> list[Mutant]:
    """Every mutant of `source`, one change each, in order of line; none that reads the same as the original or
    as an earlier mutant (such as two identical statements swapped)."""
    tree = ast.parse(source)
    original = ast.unparse(tree)
    seen = {original}
    made = []
    named: dict[tuple[int, str], int] = {}
    for line, change, mutated, family in _mutations(tree):
        text = ast.unparse(mutated)
        if text in seen:
            continue
        seen.add(text)
        # The same change twice on a line (two `1`s made `2`) is told apart by its place among them.
        count = named[line, change] = named.get((line, change), 0) + 1
        name = change if count == 1 else f"{change} (occurrence {count} on the line)"
        made.append(Mutant(line, name, text + "\n", family))
    return sorted(made, key=lambda m: m.line)


def source_of(made: list[Mutant]) -> dict[tuple[int, str], str]:
    """{(line, change): source} of mutants, as outcomes name them."""
    return {(m.line, m.change): m.source for m in made}


def _mutations(tree: ast.Module) -> Iterator[tuple[int, str, ast.Module, str]]:
    """(line, change, mutated tree (sharing every unchanged node with `tree`), family) for every single change the
    operators make."""
    docstrings = {id(node) for body in _bodies(tree) if body and _is_docstring(body[0]) for node in ast.walk(body[0])}
    # A function's last `return None` removed leaves it returning None just the same.
    endings = {id(body[-1]) for body in _bodies(tree) if body and _returns_none(body[-1])}
    fields = _fields_by_subject(tree)
    for path, node in _walk(tree):
        if id(node) in docstrings:
            continue
        changes = [(OPERATORS, replacement) for replacement in _replacements(node)] + _learner_mistakes(node, fields)
        for family, replacement in changes:
            yield node.lineno, _change(node, replacement, family), _replace(tree, path, replacement), family
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Dict):
            for key, smaller in _without_each_key(node.value):
                where = path + (("value", None),)
                yield (
                    node.lineno,
                    f"key {key} left out of the returned dict",
                    _replace(tree, where, smaller),
                    LEARNERS[4],
                )
    for path, node in _walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if not isinstance(body, list) or not body or not isinstance(body[0], ast.stmt):
                continue
            statements = [
                (i, s) for i, s in enumerate(body) if id(s) not in docstrings and not isinstance(s, _STRUCTURAL)
            ]
            for i, statement in statements:
                if not isinstance(statement, ast.Pass) and id(statement) not in endings:
                    yield (
                        statement.lineno,
                        f"`{_first_line(statement)}` removed",
                        _edit_body(tree, path, field, i, [ast.Pass()]),
                        OPERATORS,
                    )
            for (i, first), (j, second) in itertools.pairwise(statements):
                if j == i + 1 and _depends(first, second):
                    yield (
                        first.lineno,
                        f"`{_first_line(first)}` swapped with the next statement",
                        _edit_body(tree, path, field, i, [second, first]),
                        OPERATORS,
                    )


def _change(node: ast.AST, replacement: ast.AST, family: str) -> str:
    """What a mutant changes, as the author reads it: `old` -> `new`; but an `if` and its `elif` swapped are named
    as such: their first lines alone (`if a:` -> `if b:`) would read as a changed test, which the cases may catch."""
    if family == LEARNERS[3] and isinstance(node, ast.If):
        return f"`{_show(node)}` swapped with its `elif {_show(node.orelse[0].test)}:`"
    return f"`{_show(node)}` -> `{_show(replacement)}`"


def _depends(first: ast.stmt, second: ast.stmt) -> bool:
    """Whether swapping two statements can change anything: one of them binds or changes (`x = `, `x += `,
    `x.append(...)`) a name the other uses. Swapping independent statements is almost always equivalent."""

    def names(statement: ast.stmt) -> tuple[set[str], set[str]]:
        used, changed = set(), set()
        for node in ast.walk(statement):
            if isinstance(node, ast.Name):
                (changed if isinstance(node.ctx, (ast.Store, ast.Del)) else used).add(node.id)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
            ):
                changed.add(node.func.value.id)
            elif isinstance(node, (ast.Return, ast.Break, ast.Continue, ast.Raise)):
                changed.add("")  # leaving the block: whatever follows no longer runs
        return used, changed

    used1, changed1 = names(first)
    used2, changed2 = names(second)
    return bool(changed1 & (used2 | changed2) or changed2 & used1) or "" in changed1 | changed2


def _replacements(node: ast.AST) -> list[ast.AST]:
    """What one operator turns `node` into, each a new node (the original is never changed)."""
    out: list[ast.AST] = []
    if isinstance(node, ast.Compare):
        for k, op in enumerate(node.ops):
            for other in _COMPARE.get(type(op), []):
                new = copy.deepcopy(node)
                new.ops[k] = other()
                out.append(new)
    elif isinstance(node, ast.BoolOp):
        out.append(ast.BoolOp(op=_BOOLEAN[type(node.op)](), values=copy.deepcopy(node.values)))
    elif isinstance(node, (ast.BinOp, ast.AugAssign)):
        for other in _ARITHMETIC.get(type(node.op), []):
            new = copy.deepcopy(node)
            new.op = other()
            out.append(new)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        out.append(copy.deepcopy(node.operand))
    elif isinstance(node, (ast.If, ast.While)):
        new = copy.copy(node)
        new.test = ast.UnaryOp(op=ast.Not(), operand=copy.deepcopy(node.test))
        out.append(new)
    elif isinstance(node, ast.Break):
        out.append(ast.Continue())
    elif isinstance(node, ast.Continue):
        out.append(ast.Break())
    elif isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            out.append(ast.Constant(not value))
        elif isinstance(value, int):
            out += [ast.Constant(value + 1), ast.Constant(value - 1)]
        elif isinstance(value, str):
            out.append(ast.Constant(f"XX{value}XX"))
    elif isinstance(node, ast.Call) and len(node.args) >= 2 and not any(isinstance(a, ast.Starred) for a in node.args):
        for k in range(len(node.args) - 1):
            new = copy.deepcopy(node)
            new.args[k], new.args[k + 1] = new.args[k + 1], new.args[k]
            out.append(new)
    return out


# Learners' mistakes that the operators above do not make (they change operators, not meaning).
_STRING_METHODS = {"startswith", "endswith", "find", "rfind", "index", "split", "lower", "upper", "replace", "count"}
_STRIPS = {"strip", "lstrip", "rstrip"}
_JSON_OPTIONS = {
    "ensure_ascii": ast.Constant(False),
    "sort_keys": ast.Constant(True),
    "separators": ast.Tuple([ast.Constant(","), ast.Constant(":")], ast.Load()),
}


def _learner_mistakes(node: ast.AST, fields: dict[str, list[str]]) -> list[tuple[str, ast.AST]]:
    """`.strip()` dropped or added; an option of json.dumps changed; two checks in another order (the tests of
    an `if`/`elif`, the operands of `and`/`or`, the items a `for` checks in turn); another field of the same
    value read (`call['args']` for `call['tool']`); each with its family (LEARNERS)."""
    out: list[tuple[str, ast.AST]] = []
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        method, subject = node.func.attr, node.func.value
        if method in _STRIPS and not node.args:
            out.append(("strip dropped", copy.deepcopy(subject)))
        elif method in _STRING_METHODS and not _is_strip(subject):
            new = copy.deepcopy(node)
            new.func.value = ast.Call(ast.Attribute(copy.deepcopy(subject), "strip", ast.Load()), [], [])
            out.append(("strip added", new))
        elif method == "loads" and node.args and not _is_strip(node.args[0]):
            new = copy.deepcopy(node)
            new.args[0] = ast.Call(ast.Attribute(new.args[0], "strip", ast.Load()), [], [])
            out.append(("strip added", new))
        if method == "dumps":
            given = {keyword.arg for keyword in node.keywords}
            for name, value in _JSON_OPTIONS.items():
                new = copy.deepcopy(node)
                if name in given:
                    new.keywords = [k for k in new.keywords if k.arg != name]
                else:
                    new.keywords.append(ast.keyword(name, copy.deepcopy(value)))
                out.append(("json options", new))
    elif isinstance(node, ast.If) and len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
        inner = node.orelse[0]
        new = copy.deepcopy(node)
        new.test, new.body = copy.deepcopy(inner.test), copy.deepcopy(inner.body)
        new.orelse[0].test, new.orelse[0].body = copy.deepcopy(node.test), copy.deepcopy(node.body)
        out.append(("checks reordered", new))
    elif isinstance(node, ast.BoolOp) and len(node.values) == 2:
        out.append(("checks reordered", ast.BoolOp(op=copy.deepcopy(node.op), values=copy.deepcopy(node.values[::-1]))))
    elif isinstance(node, ast.For) and isinstance(node.iter, (ast.Tuple, ast.List)) and len(node.iter.elts) > 1:
        new = copy.deepcopy(node)
        new.iter.elts.reverse()
        out.append(("checks reordered", new))
    field = _field_read(node)
    if field is not None:
        subject, key = field
        for other in fields.get(ast.unparse(subject), []):
            if other != key:
                new = copy.deepcopy(node)
                if isinstance(new, ast.Subscript):
                    new.slice = ast.Constant(other)
                else:
                    new.args[0] = ast.Constant(other)
                out.append(("another field", new))
    return out


def _is_strip(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _STRIPS


def _field_read(node: ast.AST) -> tuple[ast.AST, str] | None:
    """(subject, key) of `subject['key']` read, or of `subject.get('key', ...)`."""
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.ctx, ast.Load)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    ):
        return node.value, node.slice.value
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.func.value, node.args[0].value
    return None


def _fields_by_subject(tree: ast.Module) -> dict[str, list[str]]:
    """The keys each value (by its source text) is read with, in order of first use."""
    fields: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        field = _field_read(node)
        if field is not None:
            keys = fields.setdefault(ast.unparse(field[0]), [])
            if field[1] not in keys:
                keys.append(field[1])
    return fields


def _without_each_key(node: ast.Dict) -> Iterator[tuple[str, ast.Dict]]:
    """A dict literal with one key left out, for each key (a `**` item is no key)."""
    for i, key in enumerate(node.keys):
        if key is not None:
            smaller = copy.deepcopy(node)
            del smaller.keys[i], smaller.values[i]
            yield f"`{ast.unparse(key)}`", smaller


def _walk(node: ast.AST, path: tuple = ()) -> Iterator[tuple[tuple, ast.AST]]:
    """Every node with its path of (field, index or None) steps from the root, in source order; not inside
    f-strings, whose parts are no place for these operators, nor annotations, which never run."""
    if isinstance(node, ast.JoinedStr):
        return
    if path:
        yield path, node
    for field, value in ast.iter_fields(node):
        if field in ("annotation", "returns"):
            continue
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, ast.AST):
                    yield from _walk(item, path + ((field, i),))
        elif isinstance(value, ast.AST):
            yield from _walk(value, path + ((field, None),))


def _bodies(tree: ast.Module) -> Iterator[list]:
    """The module's body and every function's and class's: where docstrings are."""
    yield tree.body
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.body


def _returns_none(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Return) and (
        statement.value is None or isinstance(statement.value, ast.Constant) and statement.value.value is None
    )


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _replace(tree: ast.Module, path: tuple, replacement: ast.AST) -> ast.Module:
    new, parent = _copy_to(tree, path[:-1])
    field, index = path[-1]
    if index is None:
        setattr(parent, field, replacement)
    else:
        getattr(parent, field)[index] = replacement
    return new


def _edit_body(tree: ast.Module, path: tuple, field: str, at: int, statements: list[ast.stmt]) -> ast.Module:
    """A copy of the tree with statements `at`, `at` + 1... of a body replaced by `statements` (as many)."""
    new, owner = _copy_to(tree, path)
    getattr(owner, field)[at : at + len(statements)] = statements
    return new


def _copy_to(tree: ast.Module, path: tuple) -> tuple[ast.Module, ast.AST]:
    """A copy of the tree that shares every node with it but those on `path` (copied, with their lists of
    children), and the copy of the node at its end. A mutant is only unparsed, never changed (nor given
    locations: its text is what runs), so sharing is safe; copying only the way down costs a few nodes instead
    of the whole tree, which was most of the cost of making mutants."""
    new = node = _shallow(tree)
    for field, index in path:
        if index is None:
            child = _shallow(getattr(node, field))
            setattr(node, field, child)
        else:
            child = getattr(node, field)[index] = _shallow(getattr(node, field)[index])
        node = child
    return new, node


def _shallow(node: ast.AST) -> ast.AST:
    """A copy of `node` with lists of its own (the nodes in them shared)."""
    new = copy.copy(node)
    for field, value in ast.iter_fields(new):
        if isinstance(value, list):
            setattr(new, field, list(value))
    return new


def _at(tree: ast.AST, path: tuple) -> ast.AST:
    node = tree
    for field, index in path:
        node = getattr(node, field) if index is None else getattr(node, field)[index]
    return node


def _show(node: ast.AST) -> str:
    """A node as a reader of the report sees it: its first line of source, shortened."""
    text = _first_line(node) if isinstance(node, ast.stmt) else ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


def _first_line(statement: ast.AST) -> str:
    text = ast.unparse(statement).splitlines()[0]
    return text if len(text) <= 60 else text[:57] + "..."


def _percent(value: float) -> str:
    """One decimal at most, rounded down, so that a score just under the bar never shows as the bar."""
    return f"{math.floor(value * 10) / 10:g}%"


# ---- running them ----------------------------------------------------------------------------------------


def score_course(project: Project, tracks: list[Track], cache: BuildCache) -> tuple[list[Score], list[Problem]]:
    """Mutation-test every exercise whose reference solution passes its cases (see `score`)."""
    return score(project, [(ex, track.mutation_threshold) for track in tracks for ex in track.exercises], cache)


def score(
    project: Project, exercises: list[tuple[Exercise, float]], cache: BuildCache, runner: Runner | None = None
) -> tuple[list[Score], list[Problem]]:
    """Mutation-test every exercise (with its track's bar) whose reference solution passes its cases; results
    come from the cache when nothing they depend on changed, so Pyodide starts only if some exercise changed.
    `runner`: one the caller lends (and closes), for the mutants to run in beside any the pool starts."""
    root = project.root
    runtime = runtime_files()
    keys = {id(ex): _cache_key(cache, ex, runtime) for ex, _ in exercises}
    found: dict[str, list[Outcome]] = {}
    todo: list[tuple[Exercise, str]] = []
    for ex, _ in exercises:
        cached = cache.get_json("mutation", keys[id(ex)])
        if cached is not None:
            found[keys[id(ex)]] = [Outcome(*item) for item in cached]
        else:
            todo.append((ex, keys[id(ex)]))
    problems: list[Problem] = []
    fresh = _run_all(project, todo, problems, runner) if todo else {}
    for key, outcomes in fresh.items():
        cache.put_json("mutation", key, [[o.line, o.change, o.killed_by] for o in outcomes])
    scores = []
    for ex, threshold in exercises:
        key = keys[id(ex)]
        outcomes = found.get(key, fresh.get(key))
        if outcomes is not None:
            scores.append(_score(root, ex, outcomes, threshold, cached=key in found, problems=problems))
    return scores, problems


def runtime_files() -> list[bytes]:
    """The runtime's files, for the key of every verdict kept in the cache: the runner's front end
    (loopcraft/running/pyodide.py, runner_files) and Pyodide's version."""
    files = [*runner_files(INSTALL / "frontend"), INSTALL / "node_modules/pyodide/package.json"]
    return [path.name.encode() + b"\0" + path.read_bytes() for path in files]


def _cache_key(cache: BuildCache, ex: Exercise, runtime: list[bytes]) -> str:
    """Everything a mutant's verdict depends on: the solution (so its mutants), the cases with their expected
    values, the sandbox, the runtime's files, and (through the key's code version) this module and the grader."""
    cases = json.dumps([case_key(c, ex.entry) for c in ex.cases], sort_keys=True)
    return cache.key(
        "mutation",
        ex.solution_source,
        cases,
        ex.sandbox_source,
        json.dumps(ex.entry),
        str(ex.time_limit_seconds),
        *runtime,
    )


def _score(
    root: Path, ex: Exercise, outcomes: list[Outcome], threshold: float, *, cached: bool, problems: list[Problem]
) -> Score:
    """The exercise's score; its stale equivalent marks, and a score below the bar (see `survivor_problems` for the
    survivors)."""
    names = {(o.line, o.change) for o in outcomes}
    yaml = rel_path(ex.dir / "exercise.yaml", root)
    equivalent = set()
    for mark in ex.equivalent_mutants:
        if (mark.line, mark.change) in names:
            equivalent.add((mark.line, mark.change))
        else:
            problems.append(
                Problem(
                    yaml,
                    mark.yaml_line,
                    f"no mutant {mark.change} at solution.py line {mark.line} any more; remove this equivalent mark",
                )
            )
    score = Score(ex, outcomes, equivalent, threshold, cached)
    if not score.passes:
        problems.append(Problem(yaml, ex.cases_line, _below_bar(score)))
    return score


def _below_bar(score: Score) -> str:
    """Why a score below the bar fails, and the two ways out; with few mutants, that one survivor is enough."""
    message = (
        f"mutation score {_percent(score.percent)} is below the track's bar of {_percent(score.threshold)}: add "
        "cases that catch the survivors in solution.py"
    )
    counted = len(score.counted)
    if score.threshold < 100:
        needed = math.ceil(100 / (100 - score.threshold))  # the fewest mutants of which one may survive
        if counted < needed:
            message += (
                f"; with {counted} mutants, one survivor alone puts the score below the bar (from {needed} "
                "mutants on, one may survive)"
            )
    return message + (
        "; a survivor that no input can tell from the reference (an equivalent mutant) is marked in this file, "
        "under `equivalent_mutants:`, with its `line`, its `change` exactly as shown and the `reason` "
        "(docs/authoring.md)"
    )


def survivor_problems(root: Path, score: Score, differs: dict[tuple[int, str], str]) -> list[Problem]:
    """Each surviving mutant at its line of solution.py: errors when the score is below the bar, else notes,
    one a change however many lines it is made on. A survivor that a generated scenario tells apart is an error
    whatever the score, shown with that scenario (`differs`: what strengthen.check_scenarios found)."""
    solution = rel_path(score.exercise.dir / "solution.py", root)
    problems, lines = [], {}
    for survivor in score.survivors:
        if (survivor.line, survivor.change) in differs:
            message = f"{survivor.change} survives every case, but {differs[survivor.line, survivor.change]}"
            problems.append(Problem(solution, survivor.line, message))
        else:
            lines.setdefault(survivor.change, []).append(survivor.line)
    for change, where in lines.items():
        also = f" (also at line{'s' if len(where) > 2 else ''} {', '.join(map(str, where[1:]))})" if where[1:] else ""
        problems.append(Problem(solution, where[0], f"{change} survives every case{also}", note=score.passes))
    return problems


def _run_all(
    project: Project, todo: list[tuple[Exercise, str]], problems: list[Problem], lent: Runner | None
) -> dict[str, list[Outcome]]:
    """{cache key: outcomes} of every exercise in `todo` whose reference solution passes every case (one that
    does not is verification's to report)."""
    made: dict[str, list[Mutant] | SyntaxError] = {}
    for ex, key in todo:
        try:
            made[key] = mutants(ex.solution_source)
        except SyntaxError as exc:
            made[key] = exc
    total = sum(len(m) for m in made.values() if isinstance(m, list))
    # A second Pyodide takes seconds to start: worth it for a course's mutants, not for one challenge's.
    with _Pool(project, RUNNERS if total >= PARALLEL_FROM else 1, lent) as pool:
        limits = pool.map(_time_reference, [ex for ex, _ in todo])
        jobs = []
        for (ex, key), limit in zip(todo, limits, strict=True):
            if limit is None:
                del made[key]
            elif isinstance(made[key], SyntaxError):  # newer syntax than the host's: Pyodide's verdicts stand
                exc = made.pop(key)
                problems.append(
                    Problem(
                        rel_path(ex.dir / "solution.py", project.root),
                        exc.lineno or 1,
                        f"cannot make mutants (the host's Python cannot parse this): {exc.msg}",
                        note=True,
                    )
                )
            else:
                jobs += [(ex, mutant, limit) for mutant in made[key]]
        with progress(len(jobs), "running mutants", "mutant") as bar:

            def run(runner: Runner, job: tuple[Exercise, Mutant, float]) -> str | None:
                killer = _run_mutant(runner, job)
                bar.update()  # from the pool's threads: tqdm's own lock keeps the bar whole
                return killer

            killers = iter(pool.map(run, jobs))
    return {key: [Outcome(m.line, m.change, next(killers)) for m in batch] for key, batch in made.items()}


def _time_reference(runner: Runner, ex: Exercise) -> float | None:
    """The time limit for the exercise's mutants, from the reference solution's slowest case; None if the
    reference does not pass every case, which verification reports. A first run over all the cases checks
    them and pays for Pyodide's start, so that the cases are then timed one a run on a warm interpreter."""
    if not grade(ex, ex.solution_source, runner, reveal_hidden=True).passed:
        return None
    slowest = 0.0
    for case in ex.cases:
        start = time.perf_counter()
        grade(ex, ex.solution_source, runner, cases=[case], reveal_hidden=True)
        slowest = max(slowest, time.perf_counter() - start)
    return min(ex.time_limit_seconds, max(FLOOR_SECONDS, SLOWDOWN * slowest))


def _run_mutant(runner: Runner, job: tuple[Exercise, Mutant, float]) -> str | None:
    """The name of the first case the mutant does not pass, or None if it passes them all. One case a run,
    stopping at the first it fails: most mutants fall to one of the first few, and the rest need not run."""
    ex, mutant, limit = job
    capped = _Capped(runner, limit)
    for case in ex.cases:
        (test,) = grade(ex, mutant.source, capped, cases=[case], reveal_hidden=True).tests
        if test.status is not Status.PASS:
            return test.name
    return None


class _Capped:
    """A runner whose every run has the mutants' short time limit instead of the learner's."""

    def __init__(self, runner: Runner, limit: float):
        self._runner, self._limit = runner, limit

    def run(self, **request) -> dict:
        return self._runner.run(**{**request, "time_limit": self._limit})


class _Pool:
    """Threads, each with its own Pyodide process, started on its first job (so they load side by side); the first
    thread to need one takes the runner `lent`, if given."""

    def __init__(self, project: Project, runners: int, lent: Runner | None = None):
        self._project = project
        self._executor = ThreadPoolExecutor(runners)
        self._local = threading.local()
        self._lent = [lent] if lent is not None else []
        self._runners: list[Runner] = []

    def map(self, fn: Callable[[Runner, object], object], args: list) -> list:
        """fn(runner, arg) for every arg, in order."""
        return list(self._executor.map(lambda arg: fn(self._runner(), arg), args))

    def _runner(self) -> Runner:
        if not hasattr(self._local, "runner"):
            try:
                self._local.runner = self._lent.pop()  # list.pop is atomic
            except IndexError:
                # Mutants are the author's own code: they share an interpreter (a fresh one each would cost a
                # restore per mutant), the guard still checks every case.
                self._local.runner = make_runner("trusted", self._project)
                self._runners.append(self._local.runner)  # list.append is atomic
        return self._local.runner

    def __enter__(self) -> _Pool:
        return self

    def __exit__(self, *exc) -> None:
        self._executor.shutdown()
        for runner in self._runners:
            runner.close()
