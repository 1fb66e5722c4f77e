"""The problems Loopcraft reports about what authors and users wrote, and the few exceptions it raises; the CLI prints
them and exits 1."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path


class LoopcraftError(Exception):
    """Anything the author or the user can fix; the CLI prints the message, never a traceback."""


@dataclass(frozen=True)
class Problem:
    path: Path  # relative to the repository root, so the message is clickable in editors and CI logs
    line: int  # 1-based
    message: str
    note: bool = False  # worth knowing, but the build goes on

    def __str__(self) -> str:
        return f"{self.path.as_posix()}:{self.line}: {'note: ' if self.note else ''}{self.message}"


class ExerciseError(LoopcraftError):
    """Exercise content is wrong; carries every problem found (and the notes), so an author fixes them in one pass."""

    def __init__(self, problems: list[Problem]):
        self.problems = in_order(problems)
        super().__init__("\n".join(map(str, self.problems)))

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if not p.note]


def in_order(problems: list[Problem]) -> list[Problem]:
    """By file and line; problems on one line keep the order they were found in."""
    return sorted(problems, key=lambda p: (p.path.as_posix(), p.line))


def did_you_mean(word: str, choices) -> str:
    """` (did you mean 'x'?)` for the choice closest to a misspelt `word`, to end a problem's message; or nothing."""
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def has_errors(problems: list[Problem]) -> bool:
    return any(not p.note for p in problems)


def raise_errors(problems: list[Problem]) -> None:
    """Stop once, with every problem, if any of them is an error (notes alone do not stop anything)."""
    if has_errors(problems):
        raise ExerciseError(problems)


class BuildError(LoopcraftError):
    """The build environment is wrong (missing tools or sources, a failing bundler, an unsafe output dir)."""
