"""The case kinds through the real Node runner (Pyodide, Python 3.14): positional and keyword args, a call with
setup, a class with operators, a program fed by stdin, a generator consumed by its call, exceptions and what the
judge reads of them, printed output kept head and tail; and the value text, the same in Pyodide as on the host,
held to tests/golden/value_vectors.json (LOOPCRAFT_REGEN_GOLDEN=1 rewrites it)."""

from __future__ import annotations

import json

from grader.canonical import encode
from loopcraft.cases import keyword_run
from tests.helpers import ROOT, check_golden

GOLDEN = ROOT / "tests" / "golden" / "value_vectors.json"
FINISH_S = 10

# Each a Python expression: its value, its value text and shown.
VALUES = [
    "3.0",
    "2.0 ** 63",
    "-0.0",
    "0.1",
    "True",
    "[True, 1, 1.0]",
    "(1, 2)",
    "(1,)",
    "{2, 1}",
    "frozenset({'b', 'a'})",
    "set()",
    "{'b': 1, 'a': (2,)}",
    "{1: 'one', 'two': 2}",
    "{(1, 2): [3]}",
    "{'$set': [1]}",
    "{'$x': 1, '$y': 2}",
    "'caf\\u00e9 \\\"quoted\\\"'",
    "None",
    "10 ** 50",
    "[{'k': {3, 2}}, None]",
]


def _spec(entry, *, args=None, call=None, setup=None, stdin=None, call_twice=False, keep_stdout=False):
    return {
        "entry": entry,
        "args": args,
        "call": call,
        "setup": setup,
        "stdin": stdin,
        "call_twice": call_twice,
        "keep_stdout": keep_stdout,
    }


def _run(runner, source, *specs):
    cases = [{"name": str(i), "run": spec} for i, spec in enumerate(specs)]
    return runner.run(source=source, sandbox="", cases=cases, time_limit=FINISH_S)


def test_the_value_text_and_shown_are_the_golden_ones_on_the_host_and_in_pyodide(pyodide_runner):
    made = [[expression, *encode(eval(expression))] for expression in VALUES]
    check_golden(GOLDEN, json.dumps(made, indent=1) + "\n")
    source = "def values():\n    return [" + ", ".join(VALUES) + "]\n"
    source += "from grader.canonical import encode\ndef texts():\n    return [list(encode(v)) for v in values()]\n"
    (outcome,) = _run(pyodide_runner, source, _spec("texts", args="[]"))
    assert [[e, *pair] for e, pair in zip(VALUES, json.loads(outcome["value"]), strict=True)] == made


CLOCK = """
class Clock:
    def __init__(self, hour, minute):
        self.minutes = (hour * 60 + minute) % (24 * 60)

    def __add__(self, minutes):
        return Clock(0, self.minutes + minutes)

    def __eq__(self, other):
        return isinstance(other, Clock) and other.minutes == self.minutes

    def __str__(self):
        return f"{self.minutes // 60:02d}:{self.minutes % 60:02d}"
"""


def test_a_class_with_operators_runs_by_its_call_after_its_setup(pyodide_runner):
    value, equal, broken = _run(
        pyodide_runner,
        CLOCK,
        _spec("Clock", call="str(Clock(8, 0) + 3)"),
        _spec("Clock", setup="a = Clock(23, 59)\nb = a + 2", call="b == Clock(0, 1)"),
        _spec("Clock", setup="a = Clock(1, 0)", call="a - 1"),
    )
    assert (value["value"], value["shown"]) == ('"08:03"', "'08:03'")
    assert (equal["value"], equal["shown"]) == ("true", "True")
    assert broken["kind"] == "error" and broken["phase"] == "call"
    assert broken["exception"] == {
        "type": "TypeError",
        "mro": ["TypeError", "Exception", "BaseException"],
        "message": "unsupported operand type(s) for -: 'Clock' and 'int'",
    }
    assert 'File "<case>", line 2' in broken["error"]  # the call's line, after the setup's


def test_positional_and_keyword_args_and_a_generator_consumed_by_its_call(pyodide_runner):
    source = (
        "def pair(a, b=0):\n    return (a, b)\n\ndef countdown(n):\n    while n:\n        yield n\n        n -= 1\n"
    )
    positional, keyword, generator, bare = _run(
        pyodide_runner,
        source,
        _spec("pair", args=encode([{1: "x"}, {2, 3}])[0]),
        {**keyword_run("pair", {"a": 1.5}), "call_twice": True},
        _spec("countdown", call="list(countdown(3))"),
        _spec("countdown", args="[2]"),
    )
    assert positional["value"] == '[{"$dict":[[1,"x"]]},{"$set":[2,3]}]'
    assert positional["shown"] == "({1: 'x'}, {2, 3})"
    assert (keyword["value"], keyword["again"]) == ("[1.5,0]", "[1.5,0]")
    assert generator["value"] == "[3,2,1]"
    assert bare["phase"] == "return" and "generator" in bare["error"]


def test_a_program_reads_stdin_and_its_stdout_is_kept_apart_from_stderr(pyodide_runner):
    source = "import sys\n\ndef main():\n    a = int(input())\n    b = int(input('b? '))\n    print('warned', file=sys.stderr)\n    print(a + b)\n"
    fed, starved = _run(
        pyodide_runner,
        source,
        _spec("main", call="main()", stdin="3\n4\n", keep_stdout=True),
        _spec("main", call="main()"),
    )
    assert (fed["value"], fed["stdout"]) == ("null", "b? 7\n")
    assert fed["output"] == "b? warned\n7\n"
    assert starved["exception"]["type"] == "EOFError" and starved["exception"]["message"] == "EOF when reading a line"


def test_a_hostile_exception_and_hostile_values_never_have_their_methods_called(pyodide_runner):
    source = (
        "class Boom(ValueError):\n    def __str__(self):\n        raise RuntimeError('no str')\n\n"
        "class Sly(int):\n    def __repr__(self):\n        raise RuntimeError('no repr')\n"
        "    def __eq__(self, other):\n        raise RuntimeError('no eq')\n    __hash__ = int.__hash__\n\n"
        "class Named(type):\n    __name__ = property(lambda cls: 'ValueError')\n\n"
        "class Liar(Exception, metaclass=Named):\n    pass\n\n"
        "def boom():\n    raise Boom()\n\ndef liar():\n    raise Liar('x')\n\ndef sly():\n    return [Sly(7), {Sly(2): 'k'}]\n"
    )
    boom, liar, sly = _run(
        pyodide_runner, source, _spec("boom", args="[]"), _spec("liar", args="[]"), _spec("sly", args="[]")
    )
    assert boom["exception"] == {"type": "Boom", "mro": ["ValueError", "Exception", "BaseException"], "message": None}
    # A class may say any name of itself: its type is read as the interpreter made it, its mro by identity.
    assert liar["exception"] == {"type": "Liar", "mro": ["Exception", "BaseException"], "message": "x"}
    assert (sly["value"], sly["shown"]) == ('[7,{"$dict":[[2,"k"]]}]', "[7, {2: 'k'}]")


def test_a_ten_megabyte_print_keeps_the_head_and_the_tail_and_says_how_much_was_left_out(pyodide_runner):
    source = "def f():\n    print('<' + 'x' * 10_000_000 + '>')\n"
    (outcome,) = _run(pyodide_runner, source, _spec("f", call="f()", keep_stdout=True))
    output = outcome["output"]
    assert output.startswith("<xxx") and output.endswith("xxx>\n")
    assert "[... 9,980,003 characters of output not shown ...]" in output and len(output) < 21_000
    assert len(outcome["stdout"]) == 1_000_000 and outcome["stdout_cut"] is True
