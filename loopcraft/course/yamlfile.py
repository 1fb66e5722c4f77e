"""Change YAML files that authors write, keeping their comments, quoting and layout (ruamel round-trip)."""

from __future__ import annotations

import io
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.nodes import MappingNode, ScalarNode

from grader.canonical import canonical_json, encode

FLOW_WIDTH = 60  # containers whose JSON is this short are written on one line, `{a: 1, b: [2]}`


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096  # never re-wrap an author's long lines
    yaml.indent(mapping=2, sequence=4, offset=2)  # the layout of every file in exercises/: `  - item`
    # `answer: null`, as authors write it, rather than ruamel's bare `answer:`.
    yaml.representer.add_representer(type(None), lambda r, _: r.represent_scalar("tag:yaml.org,2002:null", "null"))
    yaml.representer.add_representer(_Set, _represent_set)
    return yaml


class _Set(frozenset):
    """A set of a case's value, as `flowing` hands it to ruamel."""


def _represent_set(representer, items: _Set) -> MappingNode:
    """`!!set {1: null, 2: null}`, YAML's set, on one line, its items in their value texts' order (ruamel's own set
    is a block of `? item` keys, which this file's `null` spelling breaks: `? 1 null`). A tuple is a list."""
    nodes = [
        (representer.represent_data(flowing(item)), ScalarNode("tag:yaml.org,2002:null", "null"))
        for item in sorted(items, key=canonical_json)
    ]
    return MappingNode("tag:yaml.org,2002:set", nodes, flow_style=True)


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
    """A case's value for ruamel to write: short containers in flow style, long ones as blocks; a tuple as a list; a
    set as YAML's `!!set`."""
    if isinstance(value, dict):
        node = CommentedMap((key, flowing(item)) for key, item in value.items())
    elif isinstance(value, (list, tuple)):
        node = CommentedSeq(flowing(item) for item in value)
    elif isinstance(value, (set, frozenset)):
        return _Set(value)
    else:
        return value
    if len(encode(value)[0]) <= FLOW_WIDTH:
        node.fa.set_flow_style()
    return node
