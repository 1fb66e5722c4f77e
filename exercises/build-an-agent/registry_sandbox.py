# ---------------------------------------------------------------------------
# The tool registry of the "Parse and dispatch" challenges. It is provided:
# read it, don't edit it. It runs before your code, in the same namespace,
# so you can use REGISTRY, json_type and signature directly.
#
# Three small tools. Each entry names the Python function to run and its
# parameters, in order, with their JSON types. Every parameter is required.
# Two of the tools raise exceptions, as real tools do.
# ---------------------------------------------------------------------------
import grader.trace as _trace


def json_type(value):
    """The JSON name of a Python value's type: "null", "boolean", "number",
    "string", "array" or "object". (True is a "boolean", not a "number".)"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


_PAGES = {
    "python release": "Python 3.14 was released on 7 October 2025.",
    "pyodide": "Pyodide runs CPython in the browser, compiled to WebAssembly.",
}

_FILES = {
    "notes.txt": "Call the plumber on Monday.",
    "todo.txt": "1. water the plants 2. pay the rent",
}


def _search(query):
    page = _PAGES.get(query.strip().lower())
    return page if page else f"no results for {query!r}"


def _read_file(path):
    if path not in _FILES:
        known = ", ".join(sorted(_FILES))
        raise FileNotFoundError(f"no file named {path!r}; the files are: {known}")
    return _FILES[path]


def _divide(a, b):
    if b == 0:
        raise ZeroDivisionError("cannot divide by zero")
    quotient = a / b
    # 6 / 3 prints as "2", never "2.0".
    return str(int(quotient)) if quotient.is_integer() else str(quotient)


REGISTRY = {
    "search": {"function": _search, "params": {"query": "string"}},
    "read_file": {"function": _read_file, "params": {"path": "string"}},
    "divide": {"function": _divide, "params": {"a": "number", "b": "number"}},
}


def signature(name):
    """How a tool is called, for error messages: signature("divide") is
    "divide(a: number, b: number)"."""
    params = REGISTRY[name]["params"]
    return f"{name}(" + ", ".join(f"{p}: {t}" for p, t in params.items()) + ")"


# Every tool records what it did in the run's trace, so you can see in the
# trace view which tools your code really ran, with which arguments.
def _traced(name, function):
    def run(**args):
        try:
            result = function(**args)
        except Exception as exc:
            _trace.record("tool", tool=name, arguments=args, result=f"raised {exc!r}")
            raise
        _trace.record("tool", tool=name, arguments=args, result=result)
        return result
    return run


for _name, _entry in REGISTRY.items():
    _entry["function"] = _traced(_name, _entry["function"])
