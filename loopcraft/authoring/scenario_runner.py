"""Runs inside Pyodide, never on the host: one program (a reference solution, a mutant, a wrong solution) on
many scenarios, in one case of a runner request (loopcraft/authoring/strengthen.py sends this file as the request's
sandbox and `run_scenarios` as its entry).

A case of its own per scenario would cost the grader's full round (a fresh namespace, the guard's checks, a
collection, the trace) several times over what the program itself takes; here each scenario costs a fresh
namespace of the challenge's sandbox and one call. What it returns per scenario is what grading compares:
the canonical JSON of the value, or that the program raised. The verdicts `strengthen` proposes are then
confirmed by real grading.

A generator that sets `CALL_TWICE` (loopcraft/authoring/scenarios.py) has each scenario's entry called a second time in the
same namespace with the same arguments, as a case with `call_twice` is: a second call that returns something else
than the first (state kept at module level, never reset) is its own output, "again".

A program that loops is stopped by counting its loops' backward jumps (sys.monitoring), not by a clock: the
same program on the same scenario is stopped at the same point on any machine, however busy, so a search is
the same for a seed everywhere.
"""

import builtins
import json
import sys

from grader.canonical import canonical_json

_monitoring = sys.monitoring
_TOOL = 5  # the last of the tool ids free for tools other than debuggers, profilers and coverage


class _OutOfJumps(BaseException):
    """Not an Exception, so that a program's `except Exception` does not swallow it."""


def run_scenarios(sandbox, source, entry, scenarios, budget, twice=False):
    """[kind, text, jumps] per scenario (JSON text of its args): kind "value" (text: canonical JSON), "error"
    (the exception), "timeout" (more than `budget` backward jumps, both calls together), "again" (`twice`: the
    second call returned something else, text its canonical JSON or its exception) or "load" (the program does
    not load)."""
    try:
        sandbox_code = compile(sandbox, "sandbox.py", "exec")
        code = compile(source, "solution.py", "exec")
    except SyntaxError as exc:
        return [["load", f"SyntaxError: {exc.msg}", 0] for _ in scenarios]
    return [_run(sandbox_code, code, entry, args, budget, twice) for args in scenarios]


def _run(sandbox_code, code, entry, args_json, budget, twice):
    jumps = [0]

    def jumped(*_):
        jumps[0] += 1
        if jumps[0] > budget:
            raise _OutOfJumps

    namespace = {"__name__": "solution", "__builtins__": builtins}
    try:
        exec(sandbox_code, namespace)
        exec(code, namespace)
        function = namespace[entry]
    except BaseException as exc:  # noqa: BLE001 - the program's own failure is its result
        return ["load", f"{type(exc).__name__}: {exc}", 0]
    _monitoring.use_tool_id(_TOOL, "loopcraft scenarios")
    _monitoring.register_callback(_TOOL, _monitoring.events.JUMP, jumped)
    _monitoring.set_events(_TOOL, _monitoring.events.JUMP)
    failed = "error"  # what an exception is, from the first call; "again" from the second's
    try:
        value = canonical_json(function(**json.loads(args_json)))
        if twice:
            failed = "again"
            again = canonical_json(function(**json.loads(args_json)))
            if again != value:
                return ["again", again, jumps[0]]
        _monitoring.set_events(_TOOL, 0)
        return ["value", value, jumps[0]]
    except _OutOfJumps:
        return ["timeout", "", jumps[0]]
    except BaseException as exc:  # noqa: BLE001
        return [failed, f"{type(exc).__name__}: {exc}", jumps[0]]
    finally:
        _monitoring.set_events(_TOOL, 0)
        _monitoring.register_callback(_TOOL, _monitoring.events.JUMP, None)
        _monitoring.free_tool_id(_TOOL)
