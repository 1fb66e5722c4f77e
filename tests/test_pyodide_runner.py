"""The Node runner: the grader in real Pyodide (Python 3.14), time limits enforced both ways."""
from __future__ import annotations

import time

from loopcraft.pyodide import PyodideRunner

LOOP = "def f():\n    while True:\n        pass\n"
STUBBORN = "def f():\n    while True:\n        try:\n            while True:\n                pass\n        except BaseException:\n            pass\n"


def one(runner, source, time_limit=1.0, entry="f", sandbox="", args=None):
    return runner.run(source=source, sandbox=sandbox, entry=entry, cases=[{"name": "c", "args": args or {}}], time_limit=time_limit)[0]


def test_verdicts_come_from_python_3_14(pyodide_runner):
    outcome = one(pyodide_runner, "import json, sys\ndef f():\n    try:\n        json.loads('{\"a\": 1,}')\n    except ValueError as e:\n        return [sys.version_info[:2], e.msg]\n")
    assert outcome["value"] == '[[3,14],"Illegal trailing comma before end of object"]'


def test_an_infinite_loop_is_interrupted_and_the_next_case_runs(pyodide_runner):
    started = time.monotonic()
    outcomes = pyodide_runner.run(
        source="def f(n):\n    while n:\n        pass\n    return n\n", sandbox="", entry="f",
        cases=[{"name": "loops", "args": {"n": 1}}, {"name": "returns", "args": {"n": 0}}], time_limit=0.5,
    )
    assert [o["kind"] for o in outcomes] == ["timeout", "value"]
    assert time.monotonic() - started < 3  # an interrupt, not a worker restart


def test_a_loop_that_swallows_the_interrupt_gets_a_new_worker(pyodide_runner):
    assert one(pyodide_runner, STUBBORN, time_limit=0.5)["kind"] == "timeout"
    assert one(pyodide_runner, "def f():\n    return 7\n")["value"] == "7"


def test_without_an_interrupt_buffer_the_worker_is_restarted():
    with PyodideRunner(interrupt=False) as runner:
        assert one(runner, LOOP, time_limit=0.5)["kind"] == "timeout"
        assert one(runner, "def f():\n    return 'alive'\n")["value"] == '"alive"'


def test_deep_recursion_is_an_error_and_python_survives(pyodide_runner):
    outcome = one(pyodide_runner, "def f(n=0):\n    return f(n + 1)\n", time_limit=5)
    assert outcome["kind"] == "error" and "RecursionError" in outcome["error"]
    assert one(pyodide_runner, "def f():\n    return 1\n")["value"] == "1"
