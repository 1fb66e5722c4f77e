"""The few exceptions the build raises; the CLI prints them and exits 1."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class LoopcraftError(Exception):
    """Anything the author or the user can fix; the CLI prints the message, never a traceback."""


@dataclass(frozen=True)
class Problem:
    path: Path  # relative to the repository root, so the message is clickable in editors and CI logs
    line: int  # 1-based
    message: str

    def __str__(self) -> str:
        return f"{self.path.as_posix()}:{self.line}: {self.message}"


class ExerciseError(LoopcraftError):
    """Exercise content is wrong; carries every problem found, so an author fixes them in one pass."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (p.path.as_posix(), p.line))
        super().__init__("\n".join(map(str, self.problems)))


class BuildError(LoopcraftError):
    """The build environment is wrong (missing tools or sources, a failing bundler, an unsafe output dir)."""
