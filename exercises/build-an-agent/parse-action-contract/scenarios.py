"""Valid arguments of parse_action(text): any text a model may reply with. JSON that is an action or almost one
(a key missing or extra, a value of the wrong type, several problems at once), or other JSON, or none; around
it, fences, prose and whitespace."""

import json

# What the JSON is: the label says what is wrong with it, if anything.
VALUES = {
    "": {"tool": "search", "args": {"query": "pyodide"}},
    "empty args": {"tool": "divide", "args": {}},
    "keys in another order": {"args": {"path": "notes.txt"}, "tool": "read_file"},
    "no tool": {"args": {}},
    "no args": {"tool": "search"},
    "an extra key": {"tool": "search", "args": {}, "thought": "look it up"},
    "two extra keys": {"tool": "search", "args": {}, "zeta": 1, "execute": True},
    "a tool that is not a string": {"tool": 7, "args": {}},
    "args that are not an object": {"tool": "search", "args": ["pyodide"]},
    "args that are null": {"tool": "search", "args": None},
    "an extra key and a tool that is not a string": {"tool": None, "args": {}, "why": 1},
    "no tool and an extra key": {"args": {}, "extra": 1},
    "a bad tool and bad args": {"tool": False, "args": "x"},
    "a list holding an action": [{"tool": "search", "args": {}}],
    "a string": "search",
    "a number": 42,
    "null": None,
    "an empty object": {},
    "an action with braces in its text": {"tool": "search", "args": {"query": "{x}"}},
    "an action with backticks in its text": {"tool": "search", "args": {"query": "```code```"}},
    "a non-ASCII action": {"tool": "search", "args": {"query": "café ☕"}},
}

# How the JSON text is written; {} is the JSON.
WRAPPERS = {
    "": "{}",
    "whitespace around": "  \n{}\n  ",
    "a json fence": "```json\n{}\n```",
    "a bare fence": "```\n{}\n```",
    "a fence that is not closed": "```json\n{}",
    "a fence after blank lines": "\n\n```json\n{}\n```\n",
    "prose before": "Sure! {}",
    "prose after": "{} Happy to help.",
    "prose around": "Here it is: {} (as asked)",
    "a fence inside prose": "Sure!\n```json\n{}\n```",
    "a fence with json on a line of its own": "```\njson\n{}\n```",
    "a fence with spaces before json": "``` json\n{}\n```",
    "a fence closed with text after it": "```json\n{}\n``` done",
}

BROKEN = {
    "": '{"tool": "search", "args": {"query": "x"},}',
    "single quotes": "{'tool': 'search', 'args': {}}",
    "a closing brace before the opening one": '} {"tool": "search"',
    "no braces": "search for pyodide",
    "an empty text": "",
    "only spaces": "   ",
    "an opening brace only": "{",
    "two objects": '{"tool": "search", "args": {}} {"tool": "divide", "args": {}}',
}


def scenario(pick):
    if pick.int(0, 4) == 4:
        pick.label("broken JSON")
        text = pick.choice(BROKEN)
    else:
        text = json.dumps(pick.choice(VALUES), ensure_ascii=False)
    return {"text": pick.choice(WRAPPERS).replace("{}", text, 1)}
