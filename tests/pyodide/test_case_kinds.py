"""The case kinds through the real Node runner (Pyodide, Python 3.14) and its judge: positional and keyword args, a
call with setup, a class with operators, a program fed by stdin, a generator consumed by its call, exceptions and
what is judged of them, printed output kept head and tail; and the value text, the same in Pyodide as on the host,
held to tests/golden/value_vectors.json (LOOPCRAFT_REGEN_GOLDEN=1 rewrites it)."""

from __future__ import annotations

import json

from grader.canonical import encode
from grader.results import RunResult, Status
from loopcraft.course.course import MISSING, Case, Raises
from loopcraft.running.grading import request_case
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


def case(name, *, args=None, expected=MISSING, **kinds) -> Case:
    return Case(name, args, expected, hidden=False, line=0, **kinds)


def judged(runner, source: str, entry, *cases: Case) -> list:
    """The one judge's verdict of each case, as the host reads it."""
    document = runner.run(source=source, sandbox="", cases=[request_case(c, entry) for c in cases], time_limit=FINISH_S)
    return RunResult.from_dict(document).tests


def test_the_value_text_and_shown_are_the_golden_ones_on_the_host_and_in_pyodide(pyodide_runner):
    made = [[expression, *encode(eval(expression))] for expression in VALUES]
    check_golden(GOLDEN, json.dumps(made, indent=1) + "\n")
    source = "def values():\n    return [" + ", ".join(VALUES) + "]\n"
    source += "from grader.canonical import encode\ndef texts():\n    return [list(encode(v)) for v in values()]\n"
    (test,) = judged(pyodide_runner, source, "texts", case("texts", args=[]))
    assert [[e, *pair] for e, pair in zip(VALUES, test.actual, strict=True)] == made


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
    added, equal, raised, unexpected, wrong = judged(
        pyodide_runner,
        CLOCK,
        "Clock",
        case("added", call="str(Clock(8, 0) + 3)", expected="08:03"),
        case("equal", setup="a = Clock(23, 59)\nb = a + 2", call="b == Clock(0, 1)", expected=True),
        case("raised", call="Clock(1, 0) - 1", raises=Raises("TypeError")),
        case("unexpected", setup="a = Clock(1, 0)", call="a - 1", expected=0),
        case("wrong", call="str(Clock(8, 0) + 3)", expected="08:04"),
    )
    assert [t.status for t in (added, equal, raised)] == [Status.PASS] * 3
    assert (added.call_shown, added.actual_shown) == ("str(Clock(8, 0) + 3)", "'08:03'")
    # Raised where a value is expected: the case's error, its traceback through the case's own lines.
    assert unexpected.status is Status.ERROR and 'File "<case>", line 2' in unexpected.message
    assert unexpected.message.endswith("TypeError: unsupported operand type(s) for -: 'Clock' and 'int'")
    assert wrong.status is Status.FAIL


def test_positional_and_keyword_args_and_a_generator_consumed_by_its_call(pyodide_runner):
    source = (
        "def pair(a, b=0):\n    return (a, b)\n\ndef countdown(n):\n    while n:\n        yield n\n        n -= 1\n"
    )
    positional, keyword, generator = judged(
        pyodide_runner,
        source,
        "pair",
        case("positional", args=[{1: "x"}, {2, 3}], expected=[{1: "x"}, {3, 2}]),
        case("keyword", args={"a": 1.5}, expected=[1.5, 0], call_twice=True),
        case("generator", call="list(countdown(3))", expected=[3, 2, 1]),
    )
    assert [t.status for t in (positional, keyword, generator)] == [Status.PASS] * 3
    assert positional.call_shown == "pair({1: 'x'}, {2, 3})"
    (bare,) = judged(pyodide_runner, source, "countdown", case("bare", args=[2], expected=[2, 1]))
    assert bare.status is Status.ERROR and "countdown returned a generator" in bare.message


def test_a_program_reads_stdin_and_is_judged_by_its_stdout_alone(pyodide_runner):
    source = "import sys\n\ndef main():\n    a = int(input())\n    b = int(input('b? '))\n    print('warned', file=sys.stderr)\n    print(a + b)\n"
    fed, wrong, starved = judged(
        pyodide_runner,
        source,
        "main",
        case("fed", call="main()", stdin="3\n4\n", stdout="b? 7\n"),
        case("wrong", call="main()", stdin="3\n5\n", stdout="b? 7\n"),
        case("starved", call="main()", raises=Raises("EOFError", "EOF when reading a line")),
    )
    assert fed.status is Status.PASS and fed.output == "b? warned\n7\n"  # stderr shown, never compared
    assert wrong.status is Status.FAIL and "line 1, column 4" in wrong.message
    assert starved.status is Status.PASS


def test_a_hostile_exception_and_hostile_values_never_have_their_methods_called(pyodide_runner):
    source = (
        "class Boom(ValueError):\n    def __str__(self):\n        raise RuntimeError('no str')\n\n"
        "class Sly(int):\n    def __repr__(self):\n        raise RuntimeError('no repr')\n"
        "    def __eq__(self, other):\n        raise RuntimeError('no eq')\n    __hash__ = int.__hash__\n\n"
        "class Named(type):\n    __name__ = property(lambda cls: 'ValueError')\n\n"
        "class Liar(Exception, metaclass=Named):\n    pass\n\n"
        "def boom():\n    raise Boom()\n\ndef liar():\n    raise Liar('x')\n\ndef sly():\n"
        "    return [Sly(7), {Sly(2): 'k'}]\n"
    )
    boom, boom_said, liar, sly = judged(
        pyodide_runner,
        source,
        ["boom", "liar", "sly"],
        case("boom", call="boom()", raises=Raises("ValueError")),
        case("boom said", call="boom()", raises=Raises("ValueError", "")),
        case("liar", call="liar()", raises=Raises("ValueError")),
        case("sly", call="sly()", expected=[7, {2: "k"}]),
    )
    assert boom.status is Status.PASS
    assert boom_said.status is Status.FAIL and "its message could not be read" in boom_said.message
    # A class may say any name of itself: what it derives from is read by identity, so it is no ValueError.
    assert liar.status is Status.FAIL and "but it raised Liar: x" in liar.message
    assert sly.status is Status.PASS and sly.actual_shown == "[7, {2: 'k'}]"


def test_a_ten_megabyte_print_keeps_the_head_and_the_tail_and_says_how_much_was_left_out(pyodide_runner):
    source = "def f():\n    print('<' + 'x' * 10_000_000 + '>')\n"
    (test,) = judged(pyodide_runner, source, "f", case("prints", call="f()", stdout="<>\n"))
    assert test.output.startswith("<xxx") and test.output.endswith("xxx>\n")
    assert "[... 9,980,003 characters of output not shown ...]" in test.output
    assert test.status is Status.FAIL and "printed" in test.message.lower()
