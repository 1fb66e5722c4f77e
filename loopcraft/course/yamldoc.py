"""An author's YAML file (track.yaml, exercise.yaml, lesson.yaml) as a Document: plain JSON data, checked against its
schema in schemas/, with the line of every key, so that each problem is reported as `path:line: message`.

Each file is parsed with ruamel's round-trip loader (which keeps line numbers) and turned into plain JSON data (a
case's values, whose dict keys may be numbers or lists and which may hold sets, in the tagged form of the value text,
grader/canonical.py); schema errors are mapped back to lines. A file that loads without errors is kept in the build cache (its data and
the line of each key), keyed by its text and its schema, so a rebuild parses only the files that changed.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import math
import re
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path

import jsonschema
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedSet
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.scalarbool import ScalarBoolean

from grader.canonical import DICT_TAG, SET_TAG, looks_tagged

from .cache import BuildCache
from .errors import Problem, did_you_mean
from .schemas import fill_defaults, names_schema, schema_comment, schema_text, schema_validator

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Files this process has parsed without errors, as the build cache keeps them, by their kind, schema and text: the
# course is loaded again by each command a process runs (a teacher's class, the tests, `serve` after each change),
# and ruamel takes about 0.1 s a challenge. Kept as JSON text, so that every load gets data of its own to change.
_PARSED: OrderedDict[str, str] = OrderedDict()
_PARSED_KEPT = 256


class Document:
    """A parsed YAML file: plain JSON `data`, and the 1-based line of every key and list item by its path."""

    def __init__(self, data, lines: dict[tuple, int]):
        self.data = data
        self.lines = lines

    @classmethod
    def load(
        cls, path: Path | str, rel: Path, kind: str, problems: list[Problem], cache: BuildCache | None = None
    ) -> Document | None:
        """Parse and validate; None if the file cannot be parsed at all (the problem is recorded)."""
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except UnicodeDecodeError as exc:
            problems.append(Problem(rel, 1, f"not UTF-8 text: {exc.reason}"))
            return None
        if not names_schema(text, kind):
            problems.append(
                Problem(
                    rel,
                    1,
                    f"add `{schema_comment(rel, kind)}` as the first line, so that editors check this file as you type",
                    note=True,
                )
            )
        schema = schema_text(kind)
        key = cache.key("yaml", kind, schema, text) if cache else ""
        if cache and (cached := cache.get_json("yaml", key)) is not None:
            return cls._from_json(cached)
        parsed = hashlib.sha256(json.dumps([kind, schema, text]).encode()).hexdigest()
        if (kept := _PARSED.get(parsed)) is not None:
            _PARSED.move_to_end(parsed)
            if cache:
                cache.put_json("yaml", key, json.loads(kept))
            return cls._from_json(json.loads(kept))
        try:
            tree = YAML(typ="rt").load(text)
        except MarkedYAMLError as exc:
            problems.append(_syntax_problem(rel, exc))
            return None
        except YAMLError as exc:
            problems.append(Problem(rel, 1, f"YAML error: {exc}"))
            return None
        before = len(problems)
        doc = cls(None, _lines(tree))
        doc.data = doc._plain(tree, (), rel, problems)
        if not isinstance(doc.data, dict):
            problems.append(Problem(rel, 1, f"expected a mapping of fields, got {_kind(doc.data)}"))
            return None
        validator = schema_validator(schema)
        doc._validate(validator, rel, problems)
        fill_defaults(validator.schema, doc.data)
        if len(problems) == before:  # only error-free files, so errors are always found afresh
            kept = {"data": doc.data, "lines": [[list(p), n] for p, n in doc.lines.items()]}
            _PARSED[parsed] = json.dumps(kept)
            if len(_PARSED) > _PARSED_KEPT:
                _PARSED.popitem(last=False)
            if cache:
                cache.put_json("yaml", key, kept)
            doc = cls._from_json(json.loads(_PARSED[parsed]))  # not sharing its lists with what was kept
        return doc

    @classmethod
    def _from_json(cls, kept: dict) -> Document:
        return cls(kept["data"], {tuple(path): line for path, line in kept["lines"]})

    def line(self, path: tuple) -> int:
        """1-based line of the key (or list item) at `path`; the nearest enclosing one if it is missing."""
        line = 1
        for end in range(1, len(path) + 1):
            if path[:end] not in self.lines:
                break
            line = self.lines[path[:end]]
        return line

    def _plain(self, node, path: tuple, rel: Path, problems: list[Problem]):
        """Plain JSON data; a non-JSON value is reported and replaced by a stand-in so validation goes on."""

        def report(message: str, line_path: tuple = path) -> None:
            problems.append(Problem(rel, self.line(line_path), at(path, message)))

        if node is None or isinstance(node, bool):
            return node
        if isinstance(node, ScalarBoolean):  # what ruamel makes of an anchored true/false
            return bool(node)
        if isinstance(node, str):  # ruamel's str subclasses keep the quoting style; drop it
            return str(node)
        if isinstance(node, int):
            return int(node)
        if isinstance(node, float):
            if not math.isfinite(node):
                report(f"{node} is not a JSON number (JSON has no NaN or infinity)")
                return None
            return float(node)
        if isinstance(node, dict):
            if _is_value(path) and (any(not isinstance(key, str) for key in node) or looks_tagged(node)):
                pairs = []
                for key, value in node.items():
                    if key is not None and not isinstance(key, (str, int, float, tuple)):
                        report(f"a key of {_kind(key)} cannot be a Python dict's key; use a string, a number or a list")
                        continue
                    pairs.append(
                        [self._plain(key, path, rel, problems), self._plain(value, path + (key,), rel, problems)]
                    )
                return {DICT_TAG: pairs}
            out = {}
            for key, value in node.items():
                if not isinstance(key, str):
                    report(f"key {key!r} is {_kind(key)}; JSON keys are strings, so quote it", path + (key,))
                out[str(key)] = self._plain(value, path + (key,), rel, problems)
            return out
        if isinstance(node, (set, CommentedSet)) and _is_value(path):
            return {SET_TAG: [self._plain(value, path, rel, problems) for value in node]}
        if isinstance(node, list) or (isinstance(node, tuple) and _is_value(path)):  # a tuple: a list as a key
            return [self._plain(value, path + (i,), rel, problems) for i, value in enumerate(node)]
        if isinstance(node, (datetime.date, datetime.datetime)):
            report(f"{node} is a YAML timestamp, not JSON; quote it to make it a string")
        else:
            report(f"a YAML {type(node).__name__} is not a JSON value")
        return str(node)

    def _validate(self, validator: jsonschema.Draft202012Validator, rel: Path, problems: list[Problem]) -> None:
        reported_required: set[tuple] = set()
        for error in validator.iter_errors(self.data):
            path = tuple(error.absolute_path)
            line = self.line(path)
            if error.validator == "additionalProperties":
                allowed = error.schema.get("properties", {})
                for key in error.instance:
                    if key not in allowed:
                        problems.append(
                            Problem(
                                rel,
                                self.line(path + (key,)),
                                at(path, f"unknown key {key!r}{did_you_mean(key, allowed)}"),
                            )
                        )
            elif error.validator == "required":
                # jsonschema yields one error per missing field; answer the first with all of them.
                if path not in reported_required:
                    reported_required.add(path)
                    for field in error.validator_value:
                        if field not in error.instance:
                            problems.append(Problem(rel, line, at(path, f"missing required field {field!r}")))
            elif error.validator == "type":
                wanted = error.validator_value
                wanted = " or ".join(map(_TYPE_NAMES.get, wanted if isinstance(wanted, list) else [wanted]))
                problems.append(
                    Problem(
                        rel,
                        line,
                        at(path, f"expected {wanted}, got {_kind(error.instance)} ({_short(error.instance)})"),
                    )
                )
            elif error.validator == "enum":
                choices = ", ".join(map(str, error.validator_value))
                message = f"must be one of {choices}; got {_short(error.instance)}"
                problems.append(Problem(rel, line, at(path, message)))
            elif error.validator == "oneOf" and all("required" in option for option in error.validator_value):
                keys = " or ".join(repr(k) for option in error.validator_value for k in option["required"])
                problems.append(Problem(rel, line, at(path, f"give exactly one of {keys}")))
            elif error.validator == "pattern" and "propertyNames" in error.schema_path:
                problems.append(
                    Problem(
                        rel,
                        self.line(path + (error.instance,)),
                        at(path, f"key {error.instance!r} is not a Python identifier"),
                    )
                )
            else:
                problems.append(Problem(rel, line, at(path, error.message)))


def _is_value(path: tuple) -> bool:
    """Whether `path` is in a case's `expected` or an argument of its `args`: Python values, whose dict keys may be numbers and which may
    hold sets, kept in the tagged form of the value text (grader/canonical.py), which JSON can hold."""
    return len(path) >= 3 and path[0] == "cases" and (path[2] == "expected" or (path[2] == "args" and len(path) > 3))


def _lines(tree) -> dict[tuple, int]:
    """The line of every key and list item of a ruamel tree that has one, by path (merged keys have none)."""
    lines: dict[tuple, int] = {}

    def walk(node, path: tuple) -> None:
        for key in node if isinstance(node, dict) else range(len(node)) if isinstance(node, list) else ():
            if not isinstance(key, (str, int)):  # a value's key (a list, null): its line is its mapping's
                continue
            try:
                pos = node.lc.key(key) if isinstance(node, dict) else node.lc.item(key)
            except (AttributeError, KeyError, IndexError, TypeError):
                continue
            lines[path + (key,)] = pos[0] + 1
            walk(node[key], path + (key,))

    walk(tree, ())
    return lines


_TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "null",
}


def _syntax_problem(rel: Path, exc: MarkedYAMLError) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    message = f"YAML syntax error at column {mark.column + 1}: {exc.problem or exc.context}"
    if exc.problem and exc.context and exc.context_mark:
        message += f" ({exc.context} at line {exc.context_mark.line + 1}, column {exc.context_mark.column + 1})"
    return Problem(rel, mark.line + 1, message)


def _kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, tuple):
        return "a list"
    return f"a {type(value).__name__}"


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def at(path: tuple, message: str) -> str:
    """Prefix a message with where it applies, e.g. `cases[2].args: ...`; nothing at the top level."""
    where = ""
    for key in path:
        if isinstance(key, int):
            where += f"[{key}]"
        elif isinstance(key, str) and _IDENTIFIER.match(key):
            where += f".{key}" if where else key
        else:
            where += f"[{key!r}]"
    return f"{where}: {message}" if where else message
