"""The course model: tracks, their parts, challenges and lessons, as loading makes them (loopcraft/course/load.py).

Plain frozen dataclasses and the naming rule for folders; nothing here reads a file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")  # a track's, challenge's or lesson's folder name: it becomes a URL


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()  # Case.expected of a case that `python build.py record` has yet to fill in


@dataclass(frozen=True)
class Raises:
    """What a case that must raise expects: a built-in exception's name (a subclass of it passes too) and, if given,
    str(exc) exactly."""

    type: str
    message: str | None = None


@dataclass(frozen=True)
class Case:
    """One case of a challenge (docs/authoring.md). Values are Python values, as the YAML wrote them (int keys and
    sets kept; grader/canonical.py writes their value text). Exactly one of `args` and `call` is set."""

    name: str
    args: dict | list | None  # keyword (a dict) or positional (a list) arguments of the entry; None with `call`
    expected: object  # MISSING when the case has none: it expects `raises` or `stdout`, or awaits `record`
    hidden: bool  # its values are never shown; every private case is (`__post_init__`)
    line: int  # in exercise.yaml
    private: bool = False  # never published: graded by the CLI and the build's checks only
    call_twice: bool = False  # the entry is called again, same namespace and arguments, and must return the same
    call: str | None = None  # a Python expression evaluated in the learner's namespace, instead of `args`
    setup: str | None = None  # statements run before `call`, in the same namespace
    raises: Raises | None = None
    stdout: str | None = None  # what the case must print, exactly
    stdin: str | None = None  # what input() reads
    tolerance: float | None = None  # absolute, for every float of the result

    def __post_init__(self) -> None:
        # The one place of the rule "private implies hidden": a private case is never published, so never shown. The
        # judge's cases and the verdicts read back take `hidden` as it is made here.
        object.__setattr__(self, "hidden", self.hidden or self.private)

    @property
    def unrecorded(self) -> bool:
        """Whether the case expects nothing yet: `python build.py record` fills it in."""
        return self.expected is MISSING and self.raises is None and self.stdout is None


@dataclass(frozen=True)
class WrongSolution:
    path: Path
    mistake: str
    source: str
    line: int  # of its entry in exercise.yaml
    hint: str | None = None  # what a learner whose code behaves like it is told, instead of `mistake`
    named: bool = True  # false: never named to a learner (loopcraft/authoring/mistakes.py)


@dataclass(frozen=True)
class EquivalentMutant:
    """A mutant of solution.py that no case can tell apart from it (see loopcraft/authoring/mutate.py)."""

    line: int  # of solution.py
    change: str
    reason: str
    yaml_line: int  # of its entry in exercise.yaml


@dataclass(frozen=True)
class BuildsOn:
    """The earlier challenge of its track that a challenge starts from (`builds_on` in exercise.yaml): the page
    offers the learner's saved code of it. Checked against the track's order by loading (load.py)."""

    slug: str
    line: int  # of `builds_on` in exercise.yaml


@dataclass(frozen=True)
class Exercise:
    slug: str
    track: str
    dir: Path
    title: str
    summary: str
    difficulty: str
    minutes: int
    entry: str | list[str]  # a function's or a class's name, or names (then every case has a `call`)
    entry_kind: str  # "function" | "class" | "names": what the page says the learner writes
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
    entry_line: int  # of `entry:` in exercise.yaml
    equivalent_mutants: list[EquivalentMutant]
    builds_on: BuildsOn | None = None


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
    mutation_threshold: float  # percent; see loopcraft/authoring/mutate.py
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
