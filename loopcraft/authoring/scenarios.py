"""Scenario generators: a challenge's `scenarios.py` says how to make valid arguments for its entry function.

A generator is a function `scenario(pick) -> dict` (the entry's keyword arguments, JSON data). It makes every
decision through `pick`, whose methods record each one as a number. Made again from the same record, the
generator gives the same scenario; made from a record with smaller numbers, or with an item of a list left
out, it gives a simpler one that is still valid by construction: that is how `strengthen` shrinks a scenario
(as Hypothesis does, on its choice sequence), and why it never proposes an input the generator could not make.

Generators run here, in the host's CPython: they only make JSON data. Every verdict on a scenario (the
reference's value, a mutant's) comes from Pyodide. A record starts from `random.Random(f"{seed}:{index}")`,
so scenario `index` of a seed is the same on every machine and whatever the number of scenarios asked for.

A generator may import modules of its track folder (the building blocks a shared sandbox provides, such as
`agent_scenarios.py` beside `agent_sandbox.py`); they are loaded afresh with it, never left in `sys.modules`.

A generator that sets `CALL_TWICE = True` has every scenario call the entry a second time in the same namespace, as
a case with `call_twice` does, and its scenarios become such cases: for a challenge whose loop must keep no state
between calls (a count in a module-level variable), and whose entry returns nothing of the state its sandbox keeps
(the action sandbox's refunds and the weather sandbox's clock outlive a call).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import json
import random
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from loopcraft.course.course import Exercise
from loopcraft.course.errors import Problem
from loopcraft.course.paths import rel_path

GENERATOR = "scenarios.py"  # in the challenge's folder


@dataclass(frozen=True)
class Site:
    """Where a generator made a decision: the call of a `pick` method in its file (as `Generator.sources` names
    it), from `column` to `end` of `line` (the end of the line if the call goes on). `strengthen` says what a
    generator varied, call by call, when no scenario tells a program apart."""

    file: str
    line: int
    column: int
    end: int | None
    method: str


_HERE = __file__


def _caller() -> tuple:
    """(code, instruction, method): the generator's call of a method of Pick, the outermost of this module's in the
    stack; made a Site only once per generator and place (`site`), since finding a call's columns costs more."""
    frame, method = sys._getframe(2), "?"
    while frame is not None and frame.f_code.co_filename == _HERE:
        method, frame = frame.f_code.co_name, frame.f_back
    return (None, 0, method) if frame is None else (frame.f_code, frame.f_lasti, method)


def site(caller: tuple) -> Site:
    """The Site of a `_caller()`, its file as the code names it."""
    code, lasti, method = caller
    if code is None:
        return Site("?", 0, 0, None, method)
    # The positions of the instruction running, one entry per 2-byte code unit.
    line, end_line, column, end = next(itertools.islice(code.co_positions(), lasti // 2, None))
    return Site(code.co_filename, line or code.co_firstlineno, column or 0, end if end_line == line else None, method)


class Pick:
    """The decisions that make one scenario, each recorded as a number in [0, n): replayed from `record` while
    it lasts (clamped to the range asked for), then drawn from `rng`, or 0 (the simplest) without one."""

    def __init__(self, rng: random.Random | None = None, record: Sequence[int] = ()):
        self._rng = rng
        self._record = record
        self.choices: list[int] = []
        self.labels: list[str] = []  # what was chosen that is not the simplest option, for a case's name
        self.spans: list[tuple[int, int, int]] = []  # list items: (their length's choice, first choice, end)
        self.decisions: list[tuple[tuple, int]] = []  # each choice's caller (see `site`) and how many options it had

    def _draw(self, n: int) -> int:
        at = len(self.choices)
        if at < len(self._record):
            value = min(self._record[at], n - 1)
        else:
            value = self._rng.randrange(n) if self._rng else 0
        self.choices.append(value)
        self.decisions.append((_caller(), n))
        return value

    def int(self, lo: int, hi: int) -> int:
        """An integer from lo to hi; simplest: lo."""
        if hi < lo:
            raise ValueError(f"pick.int({lo}, {hi}): hi is below lo")
        return lo + self._draw(hi - lo + 1)

    def bool(self) -> bool:
        """True or False; simplest: False."""
        return self._draw(2) == 1

    def choice(self, options: Sequence | Mapping[str, object]):
        """One of `options`, simplest first. From a mapping {label: value}, the value; the label of a choice
        other than the first names the scenario (see `labels`)."""
        if not options:
            raise ValueError("pick.choice: no options")
        index = self._draw(len(options))
        if isinstance(options, Mapping):
            label, value = list(options.items())[index]
            if index:
                self.labels.append(label)
            return value
        return options[index]

    def list(self, make: Callable[[Pick], object], lo: int = 0, hi: int = 5) -> list:
        """`make(pick)` for each of lo to hi items; simplest: lo items, each simplest. Shrinking may leave any
        item out (down to lo)."""
        length_at = len(self.choices)
        items = []
        for _ in range(self.int(lo, hi)):
            start = len(self.choices)
            items.append(make(self))
            self.spans.append((length_at, start, len(self.choices)))
        return items

    def sample(self, options: Sequence | Mapping[str, object], lo: int = 0, hi: int | None = None) -> list:
        """lo to hi of `options` (all of them at most), each at most once, in an order of its own: which ones and
        in which order both vary. Simplest: the first lo, in their order. Shrinking may leave any item out (down
        to lo) or take an option nearer the front. From a mapping {label: value}, the values; the labels of the
        options chosen name the scenario, as `choice`'s do."""
        items = list(options.items()) if isinstance(options, Mapping) else [("", option) for option in options]
        hi = len(items) if hi is None else min(hi, len(items))
        if not 0 <= lo <= hi:
            raise ValueError(f"pick.sample of {len(items)} options, {lo} to {hi} of them: no such number")
        length_at = len(self.choices)
        left, chosen = list(range(len(items))), []
        for _ in range(self.int(lo, hi)):
            start = len(self.choices)
            chosen.append(left.pop(self._draw(len(left))))
            self.spans.append((length_at, start, len(self.choices)))
        self.labels.extend(items[i][0] for i in chosen if items[i][0])
        return [items[i][1] for i in chosen]

    def label(self, text: str) -> None:
        """Name what this scenario exercises, for the case `strengthen` proposes from it."""
        self.labels.append(text)


@dataclass(frozen=True)
class Scenario:
    choices: tuple[int, ...]
    args: dict  # the entry's keyword arguments
    args_json: str  # keys in the order made: a program may read a dict in its order
    labels: tuple[str, ...]
    spans: tuple[tuple[int, int, int], ...]
    decisions: tuple[tuple[Site, int], ...]  # each choice's site and how many options it had
    call_twice: bool = False  # its generator's CALL_TWICE: the entry is called again, as a case with call_twice

    @property
    def size(self) -> tuple:
        """Shortlex, as Hypothesis orders examples: fewer decisions first, then smaller ones."""
        return (len(self.choices), self.choices)

    def name(self) -> str:
        """A suggested case name, from the labels of what was chosen."""
        labels = list(dict.fromkeys(self.labels))
        text = ", ".join(labels) if labels else "the simplest scenario"
        text = text[0].upper() + text[1:]
        return text if len(text) <= 90 else text[:87] + "..."


class GeneratorError(Exception):
    """The generator failed or made something that is not a scenario; carries the problem to report."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


class Generator:
    """A challenge's scenarios.py, loaded."""

    def __init__(self, root: Path, ex: Exercise, path: Path):
        self.root, self.exercise, self.path = root, ex, path
        self.rel = rel_path(path, root)
        self.sources: list[tuple[str, str]] = []  # (file, text) of the generator and the track modules it uses
        self._sites: dict[tuple, Site] = {}  # by caller: a generator makes its decisions at a few places
        self.call_twice = False  # the generator's CALL_TWICE, once loaded
        self._function = self._load()

    def _load(self) -> Callable[[Pick], dict]:
        track = str(self.path.parent.parent.resolve())
        before = set(sys.modules)
        sys.path.insert(0, track)
        try:
            spec = importlib.util.spec_from_file_location(f"_loopcraft_scenarios_{id(self)}", self.path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        except Exception as exc:  # noqa: BLE001 - the author's code: any mistake is a problem at its line
            raise GeneratorError(self._problem(exc, "cannot load the scenario generator")) from None
        finally:
            sys.path.remove(track)
            used = {
                name: mod
                for name in set(sys.modules) - before
                if (mod := sys.modules[name]) is not None and str(getattr(mod, "__file__", "")).startswith(track)
            }
            for name in used:
                del sys.modules[name]  # another track may have a module of the same name
        self.sources = [(self.rel.as_posix(), self.path.read_text(encoding="utf-8"))]
        self.sources += sorted(
            (rel_path(Path(mod.__file__), self.root).as_posix(), Path(mod.__file__).read_text(encoding="utf-8"))
            for mod in used.values()
        )
        function = getattr(module, "scenario", None)
        if not callable(function):
            raise GeneratorError(Problem(self.rel, 1, "a scenario generator defines `scenario(pick)`"))
        self.call_twice = getattr(module, "CALL_TWICE", False) is True
        return function

    def make(self, pick: Pick) -> Scenario:
        try:
            args = self._function(pick)
        except Exception as exc:  # noqa: BLE001
            raise GeneratorError(self._problem(exc, "the scenario generator failed")) from None
        if not isinstance(args, dict):
            raise GeneratorError(
                Problem(self.rel, 1, f"scenario() must return a dict of keyword arguments, got {type(args).__name__}")
            )
        try:
            args_json = json.dumps(args, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise GeneratorError(Problem(self.rel, 1, f"scenario() must return JSON data: {exc}")) from None
        return Scenario(
            tuple(pick.choices),
            json.loads(args_json),
            args_json,
            tuple(pick.labels),
            tuple(pick.spans),
            tuple((self._site(caller), n) for caller, n in pick.decisions),
            self.call_twice,
        )

    def _site(self, caller: tuple) -> Site:
        """A decision's Site, its file as `sources` names it (the generator, or a track module it imports)."""
        if caller not in self._sites:
            made = site(caller)
            self._sites[caller] = dataclasses.replace(made, file=rel_path(Path(made.file), self.root).as_posix())
        return self._sites[caller]

    def scenarios(self, seed: int, count: int) -> list[Scenario]:
        """`count` scenarios of `seed`, without repeats (a repeat is replaced by the next index's)."""
        made: dict[str, Scenario] = {}
        index = 0
        while len(made) < count and index < count * 4:
            scenario = self.make(Pick(random.Random(f"{seed}:{index}")))
            made.setdefault(scenario.args_json, scenario)
            index += 1
        return list(made.values())

    def replay(self, choices: Sequence[int]) -> Scenario:
        return self.make(Pick(record=choices))

    def simpler(self, scenario: Scenario) -> list[Scenario]:
        """Scenarios one step simpler than `scenario`, simplest first: an item of a list left out, a decision
        made its simplest, or one less. Every one is made by the generator, so every one is valid."""
        choices = list(scenario.choices)
        records = []
        for length_at, start, end in scenario.spans:
            fewer = choices[:start] + choices[end:]
            fewer[length_at] = max(0, fewer[length_at] - 1)
            records.append(fewer)
        for at, value in enumerate(choices):
            for smaller in dict.fromkeys((0, value - 1)) if value else ():
                records.append(choices[:at] + [smaller] + choices[at + 1 :])
        made: dict[str, Scenario] = {}
        for record in records:
            candidate = self.replay(record)
            if candidate.size < scenario.size and candidate.args_json != scenario.args_json:
                made.setdefault(candidate.args_json, candidate)
        return sorted(made.values(), key=lambda s: s.size)

    def _problem(self, exc: Exception, what: str) -> Problem:
        """At the generator's line (or its track module's) where the exception was raised."""
        track = self.path.parent.parent.resolve()
        frames = [
            f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).resolve().is_relative_to(track)
        ]
        where = (rel_path(Path(frames[-1].filename), self.root), frames[-1].lineno) if frames else (self.rel, 1)
        if isinstance(exc, SyntaxError) and exc.filename:
            where = (rel_path(Path(exc.filename), self.root), exc.lineno or 1)
        return Problem(where[0], where[1], f"{what}: {type(exc).__name__}: {exc}")


def find_generator(root: Path, ex: Exercise) -> Generator | None:
    """The challenge's generator, or None if it has none; raises GeneratorError if it cannot be loaded."""
    path = ex.dir / GENERATOR
    return Generator(root, ex, path) if path.is_file() else None
