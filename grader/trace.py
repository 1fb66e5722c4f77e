"""The run trace: what happened inside one case, step by step, for the learner to debug their loop.

Sandboxes call `record(kind, **fields)` as the model is called, replies are parsed and tools run;
`grader.execute` starts a fresh trace for every case and ships it in the outcome, so the trace comes
from the grading run itself. It is capped, and every value is made JSON-safe (the page shows it as text).

Event kinds used by the sandboxes: `model` (messages: the messages added since the previous call,
reply), `parse` (call), `parse_error` (error), `tool` (tool, arguments, result), `note` (text); the
grader adds `return` (value) or `raise` (error) at the end.
"""
from __future__ import annotations

import json

_dumps = json.dumps  # bound at import, before learner code could replace it

MAX_EVENTS = 200
MAX_TEXT = 2_000

# Mutated in place, never rebound: grader.guard checks that this module's names stay as they were.
_events: list[dict] = []
_dropped = [0]


def _safe(value, budget=MAX_TEXT):
    """A JSON-safe copy with long strings shortened; anything else becomes its repr."""
    if isinstance(value, str):
        return value if len(value) <= budget else value[:budget] + f"… [{len(value) - budget} more characters]"
    if value is None or isinstance(value, (bool, int, float)):
        return value if not isinstance(value, float) or value == value else repr(value)
    if isinstance(value, (list, tuple)):
        return [_safe(v, budget) for v in list(value)[:100]]
    if isinstance(value, dict):
        return {str(k): _safe(v, budget) for k, v in list(value.items())[:100]}
    return _safe(repr(value), budget)


def record(kind: str, **fields) -> None:
    if len(_events) >= MAX_EVENTS:
        _dropped[0] += 1
        return
    _events.append(_event(kind, fields))


def _event(kind: str, fields: dict) -> dict:
    try:
        event = {"kind": kind, **{k: _safe(v) for k, v in fields.items()}}
        _dumps(event)
    except Exception:  # noqa: BLE001 - a trace must never break a run
        event = {"kind": "note", "text": f"(an event of kind {kind!r} could not be recorded)"}
    return event


def start() -> None:
    _events.clear()
    _dropped[0] = 0


def take(final_kind: str, **final_fields) -> list[dict]:
    """The case's events, ending with the grader's own final event, which the cap never drops."""
    events = list(_events)
    if _dropped[0]:
        events.append({"kind": "note", "text": f"trace truncated: {_dropped[0]} more events not recorded"})
    events.append(_event(final_kind, final_fields))
    start()
    return events
