"""The shapes of what grading makes, and the rules for what each reader of them may see. Standard library only:
Pyodide loads it with the rest of the grader.

- An *outcome* is what the interpreter running learner code hands back for one case (no verdict yet): made by
  `value_outcome`, `error_outcome` and `timeout_outcome`, wherever it is made (frontend/src/outcomes.js mirrors
  these for the page and the Node runner; tests/golden/outcomes.json holds both to the same shapes).
- A *result* is the verdict of a case (`CaseResult`) or of a submission (`RunResult`), made by the one judge,
  frontend/src/judge.js, out of the learner code's reach (in the page, and in the Node runner's main thread for the
  host), and read here by `RunResult.from_dict`. `RunResult.to_dict` writes it in the shape of Exercism's results.json, and is the one
  place that decides what a reader may see of a case: everything of a visible case; of a hidden case no expected
  value; of a private case its name and status only (`private_details` is the instructor's own copy); and never
  more than SUBMISSION_CHARS characters, however large the value a submission returned.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Any


class Status(str, enum.Enum):
    """A case's status; a run's is one of the first three (Exercism's results.json has no run that timed out)."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    TIMEOUT = "timeout"


VERSION = 3  # of the written verdict (Exercism's results.json version 3, plus our fields)


# Where an error outcome came from: the learner's code could not be loaded, raised when called, returned what
# is not JSON; or the grading machinery failed around it (a runner that died, a result that could not be read).
PHASES = ("load", "call", "return", "grader")


def value_outcome(
    value: str,
    output: str = "",
    trace: list | None = None,
    again: str | None = None,
    *,
    shown: str = "",
    again_shown: str | None = None,
    stdout: str = "",
    stdout_cut: bool = False,
) -> dict:
    """`value`: the value text of what the case's call gave (grader/canonical.py), `shown`: as Python writes it.
    `again`: of what it gave when called a second time with the same arguments, in a case that calls it twice (only
    the interpreter makes such an outcome, so frontend/src/outcomes.js has no `again`). `output`: stdout and stderr
    as the learner is shown them; `stdout`: stdout alone, `stdout_cut` past what is kept of it."""
    outcome = {
        "kind": "value",
        "value": value,
        "shown": shown,
        "output": output,
        "stdout": stdout,
        "trace": trace or [],
    }
    if again is not None:
        outcome.update(again=again, again_shown=again_shown or "")
    if stdout_cut:
        outcome["stdout_cut"] = True
    return outcome


def error_outcome(
    error: str,
    phase: str,
    output: str = "",
    trace: list | None = None,
    *,
    stdout: str = "",
    stdout_cut: bool = False,
    exception: dict | None = None,
) -> dict:
    """`exception` (phase "call" only): {type, mro: the built-in classes it derives from, message: str(exc) or None}."""
    assert phase in PHASES, phase
    outcome = {
        "kind": "error",
        "phase": phase,
        "error": error,
        "output": output,
        "stdout": stdout,
        "trace": trace or [],
    }
    if exception is not None:
        assert phase == "call", phase
        outcome["exception"] = exception
    if stdout_cut:
        outcome["stdout_cut"] = True
    return outcome


def timeout_outcome(output: str = "", stdout: str = "") -> dict:
    return {"kind": "timeout", "output": output, "stdout": stdout, "trace": []}


def format_seconds(seconds: float) -> str:
    """A time limit as the learner reads it: milliseconds at most, no trailing zeros ("3", "0.5", "1.25")."""
    return f"{seconds:.3f}".rstrip("0").rstrip(".")


def timeout_message(limit: float) -> str:
    return f"Stopped after {format_seconds(limit)} s, the time limit for one case. Look for a loop that never ends."


def block_timeout_message(limit: float) -> str:
    """A lesson's live block over its time limit: a lesson has no cases."""
    return (
        f"Stopped after {format_seconds(limit)} s, the time limit for running a block. "
        "Look for a loop that never ends, or press Stop."
    )


HIDDEN_FAIL = "Hidden case: your result differs from the expected one."
# All that is said of a private case besides its name and status, whatever happened in it.
PRIVATE_NOTE = "Private case: only its name and status are reported."
_NOTHING = object()

# What a written result may hold, in characters of compact JSON. The interpreter caps what it hands back (a value
# at 1,000,000 characters, a trace at 500,000, output at 20,000): enough to judge, far too much to print for every
# case of every learner. A case gets at most CASE_CHARS, and a submission's cases share SUBMISSION_CHARS.
CASE_CHARS = 100_000
SUBMISSION_CHARS = 1_000_000
# How a case's room is shared between its parts, before what one part leaves unused goes to the others.
_SHARES = {
    "message": 0.05,
    "output": 0.2,
    "expected": 0.2,
    "actual": 0.2,
    "trace": 0.3,
    "expected_stdout": 0.1,
    "stdout": 0.1,
    "call_shown": 0.05,
    "expected_shown": 0.05,
    "actual_shown": 0.05,
}
_TEXTS = ("message", "output", "expected_stdout", "stdout", "call_shown", "expected_shown", "actual_shown")
# What a visible case shows of its values, and a hidden one never does: the values, as Python writes them, and the
# printed text it expects and got.
SHOWN = ("expected", "actual", "expected_shown", "actual_shown", "expected_stdout", "stdout")


@dataclass
class CaseResult:
    name: str
    status: Status
    message: str = ""
    output: str = ""
    hidden: bool = False  # as the judge wrote it: true for a private case too (the course model's rule)
    private: bool = False
    trace: list = field(default_factory=list)
    # Visible cases only; `actual` stays None when nothing was returned.
    expected: Any = _NOTHING
    actual: Any = None
    actual_json: str | None = None  # what the case returned, as canonical JSON (hidden cases too)
    truncated: list = field(default_factory=list)  # the parts cut when it was written (read back by from_dict)
    call_shown: str = ""  # the case's call as the learner would write it, e.g. "square(0)"
    expected_shown: str | None = None  # visible cases: the expectation as Python writes it ("ValueError: ...")
    actual_shown: str | None = None  # what the call returned or raised, as Python writes it
    expected_stdout: str | None = None  # visible cases that check printed text: that text, and what was printed
    stdout: str | None = None
    mistake: str | None = None  # the hint of the known mistake this case's failure looks like

    def __post_init__(self) -> None:
        self.status = Status(self.status)

    @classmethod
    def from_dict(cls, data: dict) -> CaseResult:
        """The case `to_dict` wrote (for the class's store: `hidden_actual`), as it was written: its parts cut to
        their room stay cut, and what it kept of a private case is all there is of it."""
        case = cls(
            data["name"],
            Status(data["status"]),
            data.get("message", ""),
            data.get("output", ""),
            bool(data.get("hidden")),
            bool(data.get("private")),
            data.get("trace", []),
            truncated=data.get("truncated", []),
            call_shown=data.get("call_shown", ""),
            expected_shown=data.get("expected_shown"),
            actual_shown=data.get("actual_shown"),
            expected_stdout=data.get("expected_stdout"),
            stdout=data.get("stdout"),
            mistake=data.get("mistake"),
        )
        if "expected" in data:
            case.expected, case.actual = data["expected"], data.get("actual")
        elif "actual" in data:
            case.actual_json = stored_json(data["actual"])
        return case

    @property
    def passed(self) -> bool:
        return self.status is Status.PASS

    def to_dict(self, *, private_details: bool = False, hidden_actual: bool = False, room: int = CASE_CHARS) -> dict:
        """`hidden_actual`: keep what a hidden case returned (the class's verdict store does, for the teacher's
        report of common wrong answers; `learner_view` drops it again)."""
        if self.private and not private_details:
            return _private(self.name, self.status.value)
        data = {
            "name": self.name,
            "status": self.status.value,
            "message": self.message,
            "output": self.output,
            "hidden": self.hidden,
            "trace": self.trace,
        }
        if self.call_shown:
            data["call_shown"] = self.call_shown
        if self.private:
            data["private"] = True
        if not self.hidden:
            data["expected"] = None if self.expected is _NOTHING else self.expected
            data["actual"] = self.actual
            for key in SHOWN[2:]:
                if getattr(self, key) is not None:
                    data[key] = getattr(self, key)
        elif hidden_actual:
            if self.actual_json is not None:
                data["actual"] = json.loads(self.actual_json)
            if self.actual_shown is not None:
                data["actual_shown"] = self.actual_shown
        if self.mistake:
            data["mistake"] = self.mistake
        written = bounded(data, room)
        if self.truncated and "truncated" not in written:  # cut when first written, and so read back
            written = {**written, "truncated": self.truncated}
        return written


@dataclass
class RunResult:
    status: Status  # PASS, FAIL or ERROR, as in Exercism's results.json
    message: str | None = None
    tests: list[CaseResult] = field(default_factory=list)
    # The hints of the known mistakes the run looks like, best first (the judge's, frontend/src/mistakes.js; each
    # case one explains names the best of them as its `mistake`).
    mistakes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.status = Status(self.status)

    @property
    def passed(self) -> bool:
        return self.status is Status.PASS

    @property
    def passed_count(self) -> int:
        return sum(t.passed for t in self.tests)

    @property
    def total(self) -> int:
        return len(self.tests)

    @property
    def timed_out(self) -> bool:
        """A case or more stopped at its time limit."""
        return any(t.status is Status.TIMEOUT for t in self.tests)

    @property
    def ran(self) -> bool:
        """Whether the code ran at all: the run is no error, or some case ended otherwise than in one (a load error
        and a file that could not be read make every case an error)."""
        return self.status is not Status.ERROR or any(t.status is not Status.ERROR for t in self.tests)

    def points(self, worth: float) -> float:
        """What the run scores out of `worth`: its share of cases passed."""
        return worth * self.passed_count / self.total if self.total else 0.0

    @classmethod
    def from_dict(cls, data: dict) -> RunResult:
        """The one inverse of `to_dict`: a written verdict read back (ValueError if it is of another version)."""
        if data.get("version") != VERSION:
            raise ValueError(f"a verdict of version {data.get('version')!r}, not {VERSION}")
        tests = [CaseResult.from_dict(t) for t in data["tests"]]
        return cls(Status(data["status"]), data["message"], tests, data.get("mistakes", []))

    def to_dict(self, *, private_details: bool = False, hidden_actual: bool = False) -> dict:
        room = min(CASE_CHARS, SUBMISSION_CHARS // max(len(self.tests), 1))
        written = {
            "version": VERSION,
            "status": self.status.value,
            "message": _cut(self.message, room // 10) if self.message else self.message,
            "tests": [
                t.to_dict(private_details=private_details, hidden_actual=hidden_actual, room=room) for t in self.tests
            ],
        }
        if self.mistakes:
            written["mistakes"] = self.mistakes
        return written


def stored_json(value) -> str:
    """Canonical JSON of a value read back from a verdict: written from canonical JSON, it is in canonical form
    already (no tuples, no integral floats), and is only written out again with grader.canonical's settings
    (checking every item again would cost a feedback run half its time)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def learner_view(case: dict) -> dict:
    """What a learner may be shown of a written case (a feedback page, a report handed back): a visible case whole;
    a hidden case without any value (its name, status, message, output and trace); a private case as written
    (its name and status only, unless an instructor asked for the details: then those too are removed)."""
    if case.get("private"):
        return _private(case["name"], case["status"])
    if case.get("hidden"):
        return {key: value for key, value in case.items() if key not in SHOWN}
    return case


def _private(name: str, status: str) -> dict:
    """All that is written of a private case for anyone but the instructor."""
    return {
        "name": name,
        "status": status,
        "message": PRIVATE_NOTE,
        "output": "",
        "hidden": True,
        "private": True,
        "trace": [],
    }


def failed_submission(cases: list, message: str) -> RunResult:
    """The verdict of a submission that could not be run at all (unreadable, too large, or it broke the grader
    twice): an error, with `message` for the learner, every case an error, written as its kind is (`cases`: the
    challenge's, each with a `name`, `hidden` and `private`). A hidden case written as a visible one showed, on a
    feedback page and in Gradescope, as a visible case expecting None."""
    tests = [CaseResult(c.name, Status.ERROR, message, hidden=c.hidden, private=c.private) for c in cases]
    return RunResult(status=Status.ERROR, message=message, tests=tests)


def size(value) -> int:
    """Characters of `value` as compact JSON, the measure every limit here is in."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def _fit(make, length: int, room: int):
    """`make(n)` for the largest n <= `length` whose result is at most `room` characters as JSON (escapes count)."""
    n = length
    while True:
        made = make(n)
        grown = size(made)
        if grown <= room or n == 0:
            return made
        n = max(0, min(n - 1, int(n * room / grown) - 1))


def _cut(text: str, room: int) -> str:
    if size(text) <= room:
        return text
    return _fit(lambda n: f"{text[:n]}\n[... {len(text) - n} more characters not shown]", len(text), room)


def _cut_value(value, room: int):
    """A value too large to show, as a note that says so and shows how it starts."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if size(value) <= room:
        return value
    return _fit(
        lambda n: f"[value not shown in full: {len(text)} characters of JSON; it starts: {text[:n]}]", len(text), room
    )


def _cut_trace(trace: list, room: int) -> list:
    kept, used = [], 2
    for event in trace:
        cost = size(event) + 1
        if used + cost > room - 120:
            left = len(trace) - len(kept)
            kept.append({"kind": "note", "text": f"[trace cut short: {left} more event(s) not shown]"})
            break
        kept.append(event)
        used += cost
    return kept


def bounded(data: dict, room: int) -> dict:
    """`data` (a case as written) cut to about `room` characters, each part to its share, what was cut named in
    `truncated`. A case within its room is returned as it is."""
    parts = [key for key in _SHARES if key in data]
    sizes = {key: size(data[key]) for key in parts}
    if sum(sizes.values()) + 200 <= room:
        return data
    # Parts smaller than their share keep everything; the room they leave goes to the larger ones.
    budget, left = {}, room - 200 - size(data["name"])
    for key in sorted(parts, key=lambda k: sizes[k]):
        share = int(left * _SHARES[key] / sum(_SHARES[k] for k in parts if k not in budget))
        budget[key] = min(sizes[key], max(share, 0))
        left -= budget[key]
    out, cut = dict(data), []
    for key in parts:
        if sizes[key] <= budget[key]:
            continue
        cut.append(key)
        if key == "trace":
            out[key] = _cut_trace(data[key], budget[key])
        elif key in _TEXTS:
            out[key] = _cut(data[key], budget[key])
        else:
            out[key] = _cut_value(data[key], budget[key])
    out["truncated"] = cut
    return out
