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


class NotJSONError(TypeError):
    """A value that has no JSON form; the message speaks to the learner."""


def _type_name(value) -> str:
    return type(value).__name__


def normalize(value, _path="the return value", _seen=None):
    """Return a JSON-ready copy: tuples become lists, integral floats become ints."""
    if _seen is None:
        _seen = set()
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
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
        _seen.add(id(value))
        try:
            if isinstance(value, dict):
                out = {}
                for key, item in value.items():
                    if not isinstance(key, str):
                        raise NotJSONError(
                            f"{_path} has a key {key!r} of type {_type_name(key)}; JSON keys must be strings"
                        )
                    out[key] = normalize(item, f"{_path}[{key!r}]", _seen)
                return out
            return [normalize(item, f"{_path}[{i}]", _seen) for i, item in enumerate(value)]
        finally:
            _seen.discard(id(value))
    raise NotJSONError(f"{_path} is a {_type_name(value)}, which is not JSON (use dict, list, str, int, float, bool or None)")


def canonical_json(value) -> str:
    return _dumps(normalize(value), sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def digest(salt: str, canonical: str) -> str:
    return _sha256((salt + canonical).encode("utf-8")).hexdigest()
