"""grader.execute in the host CPython: the learner's code runs, its mistakes become outcomes."""

from __future__ import annotations

import json

import pytest

from grader.execute import baseline_here, run_case
from loopcraft.course.cases import keyword_run

SANDBOX = "def double(x):\n    return 2 * x\n"


@pytest.fixture(autouse=True)
def _this_process():
    """The guard's baseline is this test process as the test finds it: a test that ran before in it may have left a
    gc callback (hypothesis does), which is no case's tampering."""
    with baseline_here():
        yield


def run(source, args=None, entry="f", call_twice=False, keep_stdout=False, **kw):
    spec = {**keyword_run(entry, args or {}), "call_twice": call_twice, "keep_stdout": keep_stdout}
    return json.loads(run_case(source, SANDBOX, json.dumps(spec), **kw))


def test_a_returned_value_comes_back_as_canonical_json_with_printed_output():
    outcome = run("def f(a):\n    print('thinking')\n    return {'b': double(a), 'a': (1, 2.0)}\n", {"a": 2})
    assert outcome.pop("trace") == [{"kind": "return", "value": {"a": [1, 2], "b": 4}}]
    assert outcome == {
        "kind": "value",
        "value": '{"a":[1,2],"b":4}',
        "shown": "{'b': 4, 'a': (1, 2.0)}",
        "output": "thinking\n",
        "stdout": "",  # kept only for a case that compares it
    }


@pytest.mark.filterwarnings("ignore:coroutine 'g' was never awaited:RuntimeWarning")
def test_a_coroutine_never_awaited_and_freed_by_the_graders_collection_is_a_warning_not_tampering():
    # Kept in a cycle, the coroutine is freed by the collection run_case makes after the call: Python then warns
    # from the grader's own frame, which gave grader.execute a __warningregistry__ and the learner a tampering error.
    source = "async def g():\n    pass\ndef f(a):\n    c = [g()]\n    c.append(c)\n    return a\n"
    outcomes = [run(source, {"a": 2}) for _ in range(2)]
    assert [(o["kind"], o["value"]) for o in outcomes] == [("value", "2")] * 2, outcomes


def test_the_sandbox_records_a_capped_trace_that_starts_fresh_each_case():
    sandbox = "from grader import trace\ndef tool(x):\n    trace.record('tool', tool='t', arguments={'x': x}, result='r' * 5000)\n"
    source = "def f(n):\n    for i in range(n):\n        tool({1, 2})\n    raise ValueError('no')\n"
    first = json.loads(run_case(source, sandbox, json.dumps(keyword_run("f", {"n": 300}))))["trace"]
    assert len(first) == 202 and first[-2] == {"kind": "note", "text": "trace truncated: 100 more events not recorded"}
    assert first[-1]["kind"] == "raise"  # the ending is never dropped
    assert first[0]["arguments"] == {"x": "{1, 2}"} and first[0]["result"].endswith("… [3000 more characters]")
    second = json.loads(run_case(source, sandbox, json.dumps(keyword_run("f", {"n": 1}))))["trace"]
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


def test_a_set_is_a_value_and_an_object_is_not_and_the_message_says_so():
    outcome = run("def f():\n    return {'tools': {2, 1}}\n")
    assert (outcome["value"], outcome["shown"]) == ('{"tools":{"$set":[1,2]}}', "{'tools': {1, 2}}")
    outcome = run("def f():\n    return {'tools': object()}\n")
    assert outcome["phase"] == "return"
    assert outcome["error"] == (
        "f() must return plain data, but the return value['tools'] is a object, which is not a plain value "
        "(use dict, list, tuple, set, str, int, float, bool or None)."
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
    outcome = run("def f():\n    print('x' * 1_000_000)\n    return 1\n", output_limit=100, keep_stdout=True)
    assert outcome["value"] == "1"
    assert outcome["output"] == "x" * 50 + "\n[... 999,901 characters of output not shown ...]\n" + "x" * 49 + "\n"
    assert outcome["stdout"] == "x" * 1_000_000 and outcome["stdout_cut"] is True  # its newline is past the cap


def test_each_case_gets_a_fresh_namespace():
    source = "seen = []\ndef f():\n    seen.append(1)\n    return len(seen)\n"
    assert [run(source)["value"] for _ in range(3)] == ["1", "1", "1"]


def test_input_reads_end_of_file_instead_of_blocking():
    outcome = run("def f():\n    return input()\n")
    assert "EOFError" in outcome["error"]


def test_tampering_with_builtins_or_json_is_an_error_that_asks_for_a_new_interpreter():
    for patch, changed in (
        ("import builtins\n    builtins.isinstance = lambda o, k: True", "builtins.isinstance"),
        ("import json\n    json.dumps = lambda *a, **k: '1'", "json.dumps"),
    ):
        outcome = run(f"def f():\n    {patch}\n    return 1\n")
        assert outcome["restart"] is True and f"({changed} was changed" in outcome["error"]
        # What was changed is put back, so this process can still write its verdicts.
        assert run("def f():\n    return [1]\n")["value"] == "[1]"


def tampered(body: str) -> str:
    """The error of a case whose f() runs `body` (indented lines); asserts the case asks for a new interpreter."""
    outcome = run(f"def f():\n{body}\n    return 1\n")
    assert outcome.get("restart") is True, outcome
    assert run("def f():\n    return [1]\n")["value"] == "[1]"  # put back: the next case is graded as usual
    return outcome["error"]


def test_the_sandbox_is_compiled_once_and_a_case_that_swaps_it_is_tampering():
    assert run("def f():\n    return double(2)\n")["value"] == "4"
    # The sandbox's code object is kept for the next cases: swapped, a page's later runs would run another one.
    assert "the provided code kept compiled was replaced" in tampered(
        "    import grader.execute as ex\n"
        "    ex._SANDBOXES.update({k: compile('def double(x):\\n    return 0', 'sandbox.py', 'exec') for k in ex._SANDBOXES})"
    )
    assert run("def f():\n    return double(2)\n")["value"] == "4"


def test_the_learners_code_is_compiled_once_a_run_and_a_case_that_swaps_it_is_tampering():
    # Each case of a run takes the code the case before compiled, and runs it in a namespace of its own.
    source = "n = 0\ndef f():\n    global n\n    n += 1\n    return n\n"
    assert run(source)["value"] == run(source)["value"] == "1"
    assert "your code kept compiled was replaced" in tampered(
        "    import grader.execute as ex\n"
        "    ex._SOLUTION[1] = compile('def f():\\n    return 2', 'solution.py', 'exec')"
    )
    assert run(source)["value"] == "1"
    # What a case finds kept is its own code: never the code of a submission before it.
    peek = "import grader.execute as ex\ndef f():\n    return ex._SOLUTION[0]\n"
    run("SECRET = 'a classmate'\ndef f():\n    return 0\n")
    assert json.loads(run(peek)["value"]) == peek


def test_a_class_attribute_or_a_function_patched_in_place_is_caught_and_put_back():
    import json as host_json

    assert "json.decoder.JSONDecoder.decode was changed in place" in tampered(
        "    import json\n    json.JSONDecoder.decode = lambda self, s, _w=None: {}"
    )
    assert "grader.canonical.encode was changed in place" in tampered(
        "    import grader.canonical\n    grader.canonical.encode.__code__ = (lambda v, *a: 0).__code__"
    )
    assert "json.encoder.JSONEncoder.spy was added" in tampered("    import json\n    json.JSONEncoder.spy = 1")
    # Defaults too, keyword-only ones included (the guard tells them from what the functions refer to).
    assert "json.dumps was changed in place" in tampered(
        "    import json\n    json.dumps.__kwdefaults__ = {'indent': 4}"
    )
    assert "json.loads was changed in place" in tampered("    import json\n    json.loads.__kwdefaults__ = None")
    # The collection after a case calls what its default says: a default of a grader's function like any other.
    assert "grader.execute._collect_after_case was changed in place" in tampered(
        "    import grader.execute\n    grader.execute._collect_after_case.__defaults__ = (print,)"
    )
    # An attribute of a watched function that the grader does not rely on is no tampering.
    assert run("import json\ndef f():\n    json.dumps.note = 1\n    return 1\n")["value"] == "1"
    assert host_json.loads("[2]") == [2] and not hasattr(host_json.JSONEncoder, "spy")


def test_new_builtins_and_interpreter_settings_are_caught_and_put_back():
    import gc
    import signal
    import sys

    assert "builtins.spy was added" in tampered("    import builtins\n    builtins.spy = 1")
    # A handler other than the one this process has: a process started in the background ignores SIGINT already.
    original = signal.getsignal(signal.SIGINT)
    other = "SIG_DFL" if original is signal.SIG_IGN else "SIG_IGN"
    error = tampered(
        "    import sys, gc, signal\n    sys.setrecursionlimit(77)\n    sys.set_int_max_str_digits(999)\n"
        f"    gc.callbacks.append(print)\n    signal.signal(signal.SIGINT, signal.{other})"
    )
    assert "the recursion limit changed; the int max str digits limit changed; gc.callbacks changed" in error
    assert sys.getrecursionlimit() != 77 and sys.get_int_max_str_digits() != 999 and print not in gc.callbacks
    assert signal.getsignal(signal.SIGINT) is original


def test_what_an_exception_or_a_finalizer_does_after_the_case_is_seen_by_the_guard():
    late_str = "    class E(Exception):\n        def __str__(self):\n            import builtins\n            builtins.len = abs\n            return 'x'\n    raise E()"
    assert "builtins.len was changed" in tampered(late_str)
    late_del = (
        "    class Late:\n        def __del__(self):\n            import grader.trace\n            grader.trace.record = None\n"
        "    late = Late()\n    late.cycle = late"
    )
    assert "grader.trace.record was changed" in tampered(late_del)


def test_an_audit_hook_cannot_be_added():
    outcome = run(
        "import sys\nseen = []\nsys.addaudithook(lambda e, a: seen.append(e))\ncompile('1', 'x', 'eval')\ndef f():\n    return seen\n"
    )
    assert outcome["value"] == "[]"


def test_values_too_deep_too_big_or_too_long_are_refused_with_a_message():
    deep = run("def f():\n    v = []\n    for _ in range(3000):\n        v = [v]\n    return v\n")
    assert deep["phase"] == "return" and "nested more than 100 levels deep" in deep["error"]
    assert "an int of more than 1,000 digits" in run("def f():\n    return [7 ** 5917]\n")["error"]
    assert "more than the 1,000,000 a result may be" in run("def f():\n    return 'x' * 2_000_000\n")["error"]
    assert "more than 100,000 items" in run("def f():\n    return [0] * 200_000\n")["error"]


def test_error_text_is_capped_and_lone_surrogates_are_shown_as_escapes():
    outcome = run("def f():\n    print('half \\ud800')\n    raise ValueError('\\udc00' + 'y' * 100_000)\n")
    assert outcome["output"] == "half \\ud800\n"
    assert len(outcome["error"]) < 5_100 and "characters of this error not shown" in outcome["error"]
    assert outcome["error"].startswith("Traceback") and outcome["error"].endswith("y" * 100)
    assert "ValueError: \\udc00" in outcome["error"]
    json.dumps(outcome, ensure_ascii=False).encode("utf-8")  # printable as UTF-8


def test_a_trace_is_capped_in_total_and_made_quickly():
    sandbox = "from grader import trace\ndeep = 'leaf'\nfor _ in range(3000):\n    deep = [deep]\nwide = [['x' * 5000] * 100] * 100\n"
    source = "def f():\n    for _ in range(1000):\n        trace.record('note', text=wide, deep=deep)\n    return 1\n"
    events = json.loads(run_case(source, sandbox, json.dumps(keyword_run("f", {}))))["trace"]
    assert len(json.dumps(events)) < 600_000
    assert events[-2]["text"].startswith("trace truncated:") and events[-1] == {"kind": "return", "value": 1}


def test_code_cannot_write_the_graders_ending_into_its_trace():
    # Issue 38: a solution recorded a fake "return" that the feedback page and Gradescope showed as its result.
    source = "from grader import trace\ndef f():\n    trace.record('return', value='all passed')\n    return 1\n"
    events = run(source)["trace"]
    assert [e["kind"] for e in events] == ["note", "return"] and events[-1]["value"] == 1
    assert "not shown" in events[0]["text"] and "all passed" not in json.dumps(events)


def test_no_finalizer_of_the_codes_can_run_inside_the_tamper_check(monkeypatch):
    # Issue 38: the collector was turned off only after the check, so a finalizer run by a collection inside it could
    # change what the check had yet to look at. The check now runs with the collector off, told how the code left it.
    import gc

    from grader import guard

    seen = []
    check = guard.changes
    monkeypatch.setattr(
        guard, "changes", lambda before, collecting: seen.append(gc.isenabled()) or check(before, collecting)
    )
    with baseline_here():  # the check replaced above is this test's doing, not the code's
        assert run("def f():\n    return 1\n")["kind"] == "value"
        assert seen == [False]
        turned_off = run("import gc\ndef f():\n    gc.disable()\n    return 1\n")
    assert turned_off["kind"] == "error" and "gc.isenabled() changed" in turned_off["error"]


MUTABLE_DEFAULT = """\
def f(goal, tools_called=[]):
    print('called with', len(tools_called))
    tools_called.append(goal)
    return {'tools_called': tools_called}
"""


def test_a_case_that_calls_twice_hands_back_both_values_from_one_namespace():
    # A mutable default argument keeps the first call's list: the second call returns it longer.
    outcome = run(MUTABLE_DEFAULT, {"goal": "g"}, call_twice=True)
    assert (outcome["value"], outcome["again"]) == ('{"tools_called":["g"]}', '{"tools_called":["g","g"]}')
    assert outcome["output"] == "called with 0\ncalled with 1\n"  # one output for both calls
    note, ending = outcome["trace"]
    assert note == {"kind": "note", "text": "f() returned; this case calls it a second time, with the same arguments."}
    assert ending == {"kind": "return", "value": {"tools_called": ["g", "g"]}}  # what the last call returned
    # Called once (the default), the same code has nothing to compare, and no `again`.
    assert "again" not in run(MUTABLE_DEFAULT, {"goal": "g"})
    # Module-level state is kept between the calls too; the arguments are read afresh, so changing them is not.
    counter = "n = [0]\ndef f(items):\n    n[0] += 1\n    items.append(0)\n    return [n[0], items]\n"
    outcome = run(counter, {"items": []}, call_twice=True)
    assert (outcome["value"], outcome["again"]) == ("[1,[0]]", "[2,[0]]")


def test_a_second_call_that_fails_is_the_cases_error_and_says_it_was_the_second():
    source = "calls = []\ndef f():\n    calls.append(1)\n    if len(calls) > 1:\n        raise ValueError('seen')\n    return 1\n"
    outcome = run(source, call_twice=True)
    assert (outcome["kind"], outcome["phase"]) == ("error", "call")
    assert outcome["error"].startswith(
        "Called a second time with the same arguments (this case calls f() twice), it failed:\nTraceback"
    )
    assert outcome["error"].endswith("ValueError: seen") and outcome["trace"][-1]["kind"] == "raise"
    returns = "calls = []\ndef f():\n    calls.append(1)\n    return object() if len(calls) > 1 else 1\n"
    outcome = run(returns, call_twice=True)
    assert outcome["phase"] == "return" and "f() must return plain data, but" in outcome["error"]
    # A first call that fails is the case's error as ever: no second call.
    outcome = run("def f():\n    raise KeyError('k')\n", call_twice=True)
    assert not outcome["error"].startswith("Called a second time") and len(outcome["trace"]) == 1
