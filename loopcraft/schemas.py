"""The JSON Schemas in schemas/ of the files Loopcraft reads back (progress files, verdicts, gradebooks, Gradescope's
results), checked in one place. The YAML files' schemas are applied by loopcraft/exercises.py, line by line."""

from __future__ import annotations

import json
from functools import cache

import jsonschema
import jsonschema_rs

from .project import INSTALL


@cache
def document(name: str) -> dict:
    """schemas/NAME as data (its own keywords, such as progress files' maxBytes, included)."""
    return json.loads((INSTALL / "schemas" / name).read_text(encoding="utf-8"))


@cache
def _explaining(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(document(name))


@cache
def _fast(name: str):
    return jsonschema_rs.validator_for(document(name))


def validation_error(doc, name: str) -> str | None:
    """What is wrong with `doc` by schemas/NAME, in a line, or None. jsonschema-rs says whether it is valid (in
    microseconds, where jsonschema takes 2 ms for a verdict: 26 s for a course of 1,000 learners, and seconds for a
    progress file of 200,000 entries); jsonschema says what is wrong with one that is not."""
    if _fast(name).is_valid(doc):
        return None
    error = jsonschema.exceptions.best_match(_explaining(name).iter_errors(doc))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path)
    return f"{'at ' + where[:200] + ': ' if where else ''}{error.message[:300]}"
