"""grader.execute in the host CPython: the learner's code runs, its mistakes become outcomes."""
from __future__ import annotations

import json

from grader.execute import run_case

SANDBOX = "def double(x):\n    return 2 * x\n"


def run(source, args=None, entry="f", **kw):
    return json.loads(run_case(source, SANDBOX, entry, json.dumps(args or {}), **kw))


def test_a_returned_value_comes_back_as_canonical_json_with_printed_output():
    outcome = run("def f(a):\n    print('thinking')\n    return {'b': double(a), 'a': (1, 2.0)}\n", {"a": 2})
    assert outcome.pop("trace") == [{"kind": "return", "value": {"a": [1, 2], "b": 4}}]
    assert outcome == {"kind": "value", "value": '{"a":[1,2],"b":4}', "output": "thinking\n"}


def test_the_sandbox_records_a_capped_trace_that_starts_fresh_each_case():
    sandbox = "from grader import trace\ndef tool(x):\n    trace.record('tool', tool='t', arguments={'x': x}, result='r' * 5000)\n"
    source = "def f(n):\n    for i in range(n):\n        tool({1, 2})\n    raise ValueError('no')\n"
    first = json.loads(run_case(source, sandbox, "f", json.dumps({"n": 300})))["trace"]
    assert len(first) == 202 and first[-2] == {"kind": "note", "text": "trace truncated: 100 more events not recorded"}
    assert first[-1]["kind"] == "raise"  # the ending is never dropped
    assert first[0]["arguments"] == {"x": "{1, 2}"} and first[0]["result"].endswith("… [3000 more characters]")
    second = json.loads(run_case(source, sandbox, "f", json.dumps({"n": 1})))["trace"]
    assert [e["kind"] for e in second] == ["tool", "raise"] and second[-1]["error"].endswith("ValueError: no")


def test_a_syntax_error_is_a_load_error_with_the_learners_line():
    outcome = run("x = 1\ndef f(:\n    pass\n")
    assert outcome["kind"] == "error" and outcome["phase"] == "load"
    assert 'File "solution.py", line 2' in outcome["error"] and "SyntaxError" in outcome["error"]


def test_a_missing_entry_point_says_what_to_define():
    outcome = run("def g():\n    pass\n")
    assert outcome["error"] == "Your code does not define f(). Write a function named f."


def test_a_traceback_shows_only_the_learners_frames():
    outcome = run("def f():\n    return double(None) + 1\n")
    assert outcome["phase"] == "call"
    assert 'File "solution.py", line 2, in f' in outcome["error"]
    assert "sandbox.py" not in outcome["error"] and "grader" not in outcome["error"]
    assert outcome["error"].endswith("TypeError: unsupported operand type(s) for *: 'int' and 'NoneType'")


def test_a_set_is_not_json_and_the_message_says_so():
    outcome = run("def f():\n    return {'tools': {1, 2}}\n")
    assert outcome["phase"] == "return"
    assert outcome["error"] == (
        "f() must return JSON data, but the return value['tools'] is a set, which is not JSON "
        "(use dict, list, str, int, float, bool or None)."
    )


def test_nan_and_circular_values_are_rejected():
    assert "nan" in run("def f():\n    return float('nan')\n")["error"]
    assert "circular" in run("def f():\n    d = {}\n    d['d'] = d\n    return d\n")["error"]


def test_async_def_and_generators_get_their_own_message():
    assert "not async def" in run("async def f():\n    return 1\n")["error"]
    assert "generator" in run("def f():\n    yield 1\n")["error"]


def test_sys_exit_and_base_exceptions_are_outcomes_not_crashes():
    for body in ("import sys\n    sys.exit(3)", "raise KeyboardInterrupt", "raise BaseException('x')"):
        outcome = run(f"def f():\n    {body}\n")
        assert outcome["kind"] == "error" and outcome["phase"] == "call"


def test_huge_output_is_capped_with_a_note():
    outcome = run("def f():\n    print('x' * 1_000_000)\n    return 1\n", output_limit=100)
    assert outcome["value"] == "1"
    assert outcome["output"].startswith("x" * 100)
    assert outcome["output"].endswith("[output truncated: 999901 more characters not shown]")


def test_each_case_gets_a_fresh_namespace():
    source = "seen = []\ndef f():\n    seen.append(1)\n    return len(seen)\n"
    assert [run(source)["value"] for _ in range(3)] == ["1", "1", "1"]


def test_input_reads_end_of_file_instead_of_blocking():
    outcome = run("def f():\n    return input()\n")
    assert "EOFError" in outcome["error"]


def test_tampering_with_builtins_or_json_is_an_error_that_asks_for_a_new_interpreter():
    for patch, changed in (("import builtins\n    builtins.isinstance = lambda o, k: True", "builtins.isinstance"),
                           ("import json\n    json.dumps = lambda *a, **k: '1'", "json.dumps")):
        outcome = run(f"def f():\n    {patch}\n    return 1\n")
        assert outcome["restart"] is True and f"({changed} was changed" in outcome["error"]
        # What was changed is put back, so this process can still write its verdicts.
        assert run("def f():\n    return [1]\n")["value"] == "[1]"
