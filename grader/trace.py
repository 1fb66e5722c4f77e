"""The run trace: what happened inside one case, step by step, for the learner to debug their loop.

Sandboxes call `record(kind, **fields)` as the model is called, replies are parsed and tools run;
`grader.execute` starts a fresh trace for every case and ships it in the outcome, so the trace comes
from the grading run itself. It is capped (events, characters a text, items and depth a value, and
characters in all), and every value is made JSON-safe and printable (the page shows it as text).

Event kinds used by the sandboxes: `model` (messages: the messages added since the previous call,
reply), `parse` (call), `parse_error` (error), `tool` (tool, arguments, result), `note` (text); the
grader adds `return` (value) or `raise` (error) at the end.
"""

from __future__ import annotations

import json

_dumps = json.dumps  # bound at import, before learner code could replace it

MAX_EVENTS = 200
MAX_TEXT = 2_000
MAX_ITEMS = 100  # items of one list or dict
MAX_DEPTH = 10
MAX_EVENT = 20_000  # characters of one event, roughly: its texts, numbers and containers
MAX_TOTAL = 500_000  # characters of all the events of a case

# Mutated in place, never rebound: grader.guard checks that this module's names stay as they were.
_events: list[dict] = []
_dropped = [0]
_size = [0]
_BIG = 2**53


def readable(text: str) -> str:
    """Text any report can print: a lone surrogate (half of a UTF-16 pair, which no UTF-8 output can
    encode) is shown as its escape, `\\ud800`."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _safe(value, budget: list[int], depth: int = 0):
    """A JSON-safe copy with long strings shortened; anything else becomes its repr. `budget` holds the
    characters left for this event: once spent, what is left becomes "…"."""
    if budget[0] <= 0:
        return "…"
    if isinstance(value, str):
        value = readable(
            value if len(value) <= MAX_TEXT else value[:MAX_TEXT] + f"… [{len(value) - MAX_TEXT} more characters]"
        )
        budget[0] -= len(value) + 2
        return value
    if value is None or isinstance(value, (bool, float)):
        budget[0] -= 5
        # NaN and the infinities have no JSON form: as text, like anything else JSON cannot hold.
        return value if not isinstance(value, float) or value - value == 0 else repr(value)
    if isinstance(value, int):
        value = int(value)
        budget[0] -= 20
        # A huge int has no JSON form the page can read exactly (nor, past 4,300 digits, a str at all).
        return value if -_BIG < value < _BIG else f"(an int of about {int(value.bit_length() * 0.30103)} digits)"
    if isinstance(value, (list, tuple, dict)) and depth >= MAX_DEPTH:
        return _safe("[nested too deep to show]", budget, depth)
    if isinstance(value, (list, tuple)):
        budget[0] -= 2
        return [_safe(v, budget, depth + 1) for v in _until_spent(value, budget)]
    if isinstance(value, dict):
        budget[0] -= 2
        return {
            _safe(str(k), budget, depth + 1): _safe(v, budget, depth + 1)
            for k, v in _until_spent(value.items(), budget)
        }
    return _safe(repr(value), budget, depth)


def _until_spent(items, budget: list[int]):
    """At most MAX_ITEMS of `items`, and none once the budget is spent."""
    for count, item in enumerate(items):
        if count >= MAX_ITEMS or budget[0] <= 0:
            return
        yield item


# The grader's own kinds: only `take` writes them, at the end. Learner code can call `record` (the sandbox's module is
# theirs to import), and a "return" of its making read as the case's ending on a feedback page and in Gradescope.
_GRADERS = frozenset({"return", "raise"})


def record(kind: str, **fields) -> None:
    if kind in _GRADERS:
        kind, fields = "note", {"text": f"(a step of the grader's own kind {kind!r}, recorded by the code: not shown)"}
    if len(_events) >= MAX_EVENTS or _size[0] >= MAX_TOTAL:
        _dropped[0] += 1
        return
    event, size = _event(kind, fields)
    if _size[0] + size > MAX_TOTAL:
        _dropped[0] += 1
        _size[0] = MAX_TOTAL  # full: later events are dropped without being made
        return
    _size[0] += size
    _events.append(event)


def _event(kind: str, fields: dict) -> tuple[dict, int]:
    """The event and its size in characters."""
    try:
        budget = [MAX_EVENT]
        event = {"kind": kind, **{k: _safe(v, budget) for k, v in fields.items()}}
        return event, len(_dumps(event))
    except Exception:  # noqa: BLE001 - a trace must never break a run
        event = {"kind": "note", "text": f"(an event of kind {kind!r} could not be recorded)"}
        return event, 0


def start() -> None:
    _events.clear()
    _dropped[0] = 0
    _size[0] = 0


def take(final_kind: str, **final_fields) -> list[dict]:
    """The case's events, ending with the grader's own final event, which the cap never drops."""
    events = list(_events)
    if _dropped[0]:
        events.append({"kind": "note", "text": f"trace truncated: {_dropped[0]} more events not recorded"})
    events.append(_event(final_kind, final_fields)[0])
    start()
    return events
