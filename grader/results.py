"""The result schema: plain dataclasses that serialise to Exercism's results.json shape."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Status(str, enum.Enum):
    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    TIMEOUT = "timeout"


_NOTHING = object()


@dataclass
class CaseResult:
    name: str
    status: Status
    message: str = ""
    output: str = ""
    hidden: bool = False
    trace: list = field(default_factory=list)
    # Visible cases only; `actual` stays None when nothing was returned.
    expected: Any = _NOTHING
    actual: Any = None

    def to_dict(self) -> dict:
        data = {
            "name": self.name,
            "status": self.status.value,
            "message": self.message,
            "output": self.output,
            "hidden": self.hidden,
            "trace": self.trace,
        }
        if not self.hidden:
            data["expected"] = None if self.expected is _NOTHING else self.expected
            data["actual"] = self.actual
        return data


@dataclass
class RunResult:
    status: str  # "pass" | "fail" | "error", as in Exercism's results.json
    message: str | None = None
    tests: list[CaseResult] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    def to_dict(self) -> dict:
        return {
            "version": 3,
            "status": self.status,
            "message": self.message,
            "tests": [t.to_dict() for t in self.tests],
        }
