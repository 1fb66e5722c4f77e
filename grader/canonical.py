"""Canonical JSON: the one textual form in which results are compared and hashed.

The same bytes come out of CPython and Pyodide, and the page compares them as strings, so the
encoding must not depend on dict order or float spelling.
"""

from __future__ import annotations

import hashlib
import json
import math

# Bound once at import: learner code in the same interpreter may replace json.dumps afterwards.
_dumps = json.dumps
_sha256 = hashlib.sha256


# Results are small JSON values; these limits keep a runaway one from costing the grader (or a host
# decoding it) more than a learner's mistake should: each becomes a learner-facing NotJSONError.
MAX_DEPTH = 100
MAX_ITEMS = 100_000
MAX_INT_DIGITS = 1_000
MAX_CHARS = 1_000_000
_INT_BOUND = 10**MAX_INT_DIGITS


class NotJSONError(TypeError):
    """A value that has no JSON form, or too big a one; the message speaks to the learner."""


def _type_name(value) -> str:
    return type(value).__name__


def normalize(value, _path="the return value", _seen=None, _count=None):
    """Return a JSON-ready copy: tuples become lists, integral floats become ints."""
    if _seen is None:
        _seen, _count = set(), [0]
    _count[0] += 1
    if _count[0] > MAX_ITEMS:
        raise NotJSONError(f"the return value holds more than {MAX_ITEMS:,} items, more than a result may")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        value = int(value)
        if not -_INT_BOUND < value < _INT_BOUND:
            raise NotJSONError(f"{_path} is an int of more than {MAX_INT_DIGITS:,} digits, more than a result may hold")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotJSONError(f"{_path} is {value!r}, which JSON cannot represent")
        # 3.0 and 3 are the same answer to a learner; compare them as equal.
        if value.is_integer() and abs(value) < 2**53:
            return int(value)
        return float(value)
    if isinstance(value, (list, tuple, dict)):
        if id(value) in _seen:
            raise NotJSONError(f"{_path} contains itself (a circular reference)")
        if len(_seen) >= MAX_DEPTH:
            raise NotJSONError(
                f"the return value is nested more than {MAX_DEPTH} levels deep, more than a result may be"
            )
        _seen.add(id(value))
        try:
            if isinstance(value, dict):
                out = {}
                for key, item in value.items():
                    if not isinstance(key, str):
                        raise NotJSONError(
                            f"{_path} has a key {key!r} of type {_type_name(key)}; JSON keys must be strings"
                        )
                    out[key] = normalize(item, f"{_path}[{key!r}]", _seen, _count)
                return out
            return [normalize(item, f"{_path}[{i}]", _seen, _count) for i, item in enumerate(value)]
        finally:
            _seen.discard(id(value))
    raise NotJSONError(
        f"{_path} is a {_type_name(value)}, which is not JSON (use dict, list, str, int, float, bool or None)"
    )


def canonical_json(value) -> str:
    text = _dumps(normalize(value), sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    if len(text) > MAX_CHARS:
        raise NotJSONError(
            f"the return value is {len(text):,} characters long as JSON, more than the {MAX_CHARS:,} a result may be"
        )
    return text


def digest(salt: str, canonical: str) -> str:
    return _sha256((salt + canonical).encode("utf-8")).hexdigest()
