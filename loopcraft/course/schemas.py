"""The JSON Schemas in schemas/, used from here only: those of the YAML files authors write (their text, their
defaults, the comment that names one for editors; loopcraft/course/yamldoc.py reports their errors at their lines) and
those of the files Loopcraft reads back (progress files, verdicts, gradebooks, Gradescope's results), checked here
in a line."""

from __future__ import annotations

import copy
import json
import os
import posixpath
import re
from functools import cache
from pathlib import Path

import jsonschema
import jsonschema_rs

from .project import INSTALL

SCHEMAS = INSTALL / "schemas"
_COMMENT = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(\S+)", re.MULTILINE)


# The files authors write: track.yaml, exercise.yaml, lesson.yaml, each of a `kind` with schemas/KIND.schema.json.


def schema_comment(rel: Path, kind: str) -> str:
    """The line naming the JSON Schema of a YAML file at `rel` (relative to the root), for editors."""
    if rel.is_absolute():  # outside the root
        schema = posixpath.relpath(f"schemas/{kind}.schema.json", rel.parent.as_posix())
    else:  # the same answer from "/" as from the working directory, which relpath would look up twice each time
        schema = posixpath.relpath(f"/schemas/{kind}.schema.json", f"/{rel.parent.as_posix()}")
    return f"# yaml-language-server: $schema={schema}"


def names_schema(text: str, kind: str) -> bool:
    """Whether a YAML file's text has a schema comment (see schema_comment) naming the schema of `kind`."""
    named = _COMMENT.search(text)
    return named is not None and posixpath.basename(named.group(1)) == f"{kind}.schema.json"


def schema_text(kind: str) -> str:
    """A schema's text: part of the cache key of every file it validates."""
    path = os.path.join(SCHEMAS, f"{kind}.schema.json")  # a string: this runs for every file loaded
    return _read_schema(path, os.stat(path).st_mtime_ns)


@cache
def _read_schema(path: str, _mtime_ns: int) -> str:
    # Keyed by modification time too, so the dev server picks up an edited schema.
    return Path(path).read_text(encoding="utf-8")


@cache
def schema_validator(text: str) -> jsonschema.Draft202012Validator:
    """Compiled only when a file is not in the cache."""
    schema = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def schema_default(kind: str, field: str):
    """The default of a top-level field, as the schema of `kind` writes it."""
    return schema_validator(schema_text(kind)).schema["properties"][field]["default"]


def fill_defaults(schema: dict, value) -> None:
    """Fill in the schema's `default` of every missing key, nested ones too: the one place a default is applied
    (the schema is the one place it is written), so what the loader passes on is complete."""
    if isinstance(value, dict):
        for key, sub in schema.get("properties", {}).items():
            if key not in value and "default" in sub:
                value[key] = copy.deepcopy(sub["default"])
            if key in value:
                fill_defaults(sub, value[key])
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for item in value:
            fill_defaults(schema["items"], item)


# The files Loopcraft reads back, each by its schema's file name.


@cache
def document(name: str) -> dict:
    """schemas/NAME as data (its own keywords, such as progress files' maxBytes, included)."""
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


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
