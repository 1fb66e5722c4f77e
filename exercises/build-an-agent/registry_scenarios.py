"""Building blocks for the scenarios of the challenges on registry_sandbox.py: calls of the registry's tools as
parse_action hands them to dispatch (see docs/authoring.md, "Scenarios"). Every pool lists its options simplest
first, each with a label that names what a case made from it exercises."""

TOOL_NAMES = {
    "": "search",
    "read_file": "read_file",
    "divide": "divide",
    "an unknown tool": "lookup",
    "a tool name in capitals": "Search",
    "a tool name padded with spaces": " search ",
    "an empty tool name": "",
}

# The registry's parameters, in its order, and values that fit them.
PARAMS = {"search": ["query"], "read_file": ["path"], "divide": ["a", "b"]}
FITTING = {
    "query": {"": "pyodide", "a page it lacks": "rust", "text padded with spaces": "  Python Release ", "non-ASCII text": "café ☕"},
    "path": {"": "notes.txt", "todo.txt": "todo.txt", "a file it lacks": "secrets.txt", "a path padded with spaces": " notes.txt"},
    "a": {"": 6, "a negative number": -3, "a float": 2.5, "zero": 0},
    "b": {"": 3, "a divisor of zero": 0, "a float divisor": 0.5, "a negative divisor": -4},
}

# Values of each JSON type: the label says what is odd about it.
VALUES = {
    "": "6",
    "a number": 6,
    "a boolean": True,
    "null": None,
    "a list": [1, 2],
    "an object": {"a": 1},
    "an empty string": "",
}

EXTRA_NAMES = {"": "q", "another unknown argument": "limit", "an argument of another tool": "path", "x": "x"}


def call(pick):
    """{"tool": name, "args": {...}}: each parameter of the tool given a fitting value, a value of some other
    type, or left out; maybe arguments the tool does not have; in the registry's order or any other."""
    name = pick.choice(TOOL_NAMES)
    params = PARAMS.get(name) or pick.choice([[], ["query"], ["a", "b"]])
    args = {}
    for param in params:
        how = pick.choice({"": "fit", "a value of another type": "odd", "an argument left out": "out"})
        if how == "fit":
            args[param] = pick.choice(FITTING[param])
        elif how == "odd":
            args[param] = pick.choice(VALUES)
    for extra in pick.sample(EXTRA_NAMES, 0, 2):
        args.setdefault(extra, pick.choice(VALUES))
    order = pick.sample(list(args), len(args), len(args))
    if order != list(args):
        pick.label("arguments in another order")
    return {"tool": name, "args": {key: args[key] for key in order}}
