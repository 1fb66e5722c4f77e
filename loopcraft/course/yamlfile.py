"""Change YAML files that authors write, keeping their comments, quoting and layout (ruamel round-trip)."""

from __future__ import annotations

import io
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from grader.canonical import encode

FLOW_WIDTH = 60  # containers whose JSON is this short are written on one line, `{a: 1, b: [2]}`


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096  # never re-wrap an author's long lines
    yaml.indent(mapping=2, sequence=4, offset=2)  # the layout of every file in exercises/: `  - item`
    # `answer: null`, as authors write it, rather than ruamel's bare `answer:`.
    yaml.representer.add_representer(type(None), lambda r, _: r.represent_scalar("tag:yaml.org,2002:null", "null"))
    return yaml


def load(path: Path):
    return _yaml().load(path.read_text(encoding="utf-8"))


def dump(tree, path: Path) -> None:
    with path.open("w", encoding="utf-8") as f:
        _yaml().dump(tree, f)


def to_text(data) -> str:
    text = io.StringIO()
    _yaml().dump(data, text)
    return text.getvalue()


def flowing(value):
    """A case's value for ruamel to write: short containers in flow style, long ones as blocks; a tuple as a list.
    ValueError for a set."""
    if isinstance(value, dict):
        node = CommentedMap((key, flowing(item)) for key, item in value.items())
    elif isinstance(value, (list, tuple)):
        node = CommentedSeq(flowing(item) for item in value)
    elif isinstance(value, (set, frozenset)):
        # ruamel writes a set's items as keys of null, which this file's `null` spelling breaks (`? 1 null`).
        raise ValueError("a set cannot be written back: write it as `!!set {a, b}` by hand")
    else:
        return value
    if len(encode(value)[0]) <= FLOW_WIDTH:
        node.fa.set_flow_style()
    return node
