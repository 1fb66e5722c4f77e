"""Run a learner's solution on one case. This half runs inside the learner's interpreter (Pyodide).

A case comes as its run spec (docs/architecture.md): the entry's name (or names, each required), and either its
arguments (`args`, the value text of a list or a mapping: positional or keyword) or a `call`, a Python expression
evaluated in the learner's namespace after their code ran, with `setup` statements executed before it; `stdin` is
what input() reads. It hands back an "outcome": the value text of what the call gave (and how Python writes it),
or the exception it raised (its type, the built-in classes it derives from, its message), plus what it printed:
stdout alone for comparison, stdout and stderr together as the learner is shown them. It never sees expected
values; judging happens outside, in frontend/src/judge.js.
"""

from __future__ import annotations

import ast
import builtins
import collections
import contextlib
import gc
import inspect
import io
import json
import linecache
import sys
import traceback

from . import guard, trace
from .canonical import NotJSONError, encode, from_tagged
from .results import error_outcome, value_outcome

# Bound once at import, before any learner code runs (see guard.py).
_dumps, _loads = json.dumps, json.loads

SOLUTION_FILE = "solution.py"
SANDBOX_FILE = "sandbox.py"
CASE_FILE = "<case>"  # a case's own `setup` and `call`, as a traceback names them
DEFAULT_OUTPUT_LIMIT = 20_000  # characters of output shown: its first and its last half
STDOUT_LIMIT = 1_000_000  # characters of stdout compared; past it the outcome says `stdout_cut`
ERROR_LIMIT = 5_000  # characters of an error's text: its start and its end (where the exception's line is)
# A case that calls the entry twice (`call_twice` in exercise.yaml): the trace's mark between the calls, and what
# an error of the second call starts with.
AGAIN_NOTE = "{what} returned; this case calls it a second time, with the same arguments."
AGAIN_ERROR = "Called a second time with the same arguments (this case calls {what} twice), it failed:\n"
# The built-in exception classes, by identity: a learner's class could say any name or module of itself.
_BUILTIN_EXCEPTIONS = {
    id(value): name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
}
_parse, _increment_lineno = ast.parse, ast.increment_lineno
_type_name = type.__dict__["__name__"].__get__
_type_mro = type.__dict__["__mro__"].__get__


def _collect_after_case(collect=gc.collect):
    collect()


# Python's warning about an object the collection after a case frees (a learner's coroutine never awaited) names the
# code it was freed in: this function's, filed under a name that says what it is, so that the learner reads
# "<collection after the case>:1: RuntimeWarning: ...", not the grader's file and line. `collect` is a default, which
# the guard watches as it watches every default of the grader's functions.
_collect_after_case.__code__ = _collect_after_case.__code__.replace(
    co_filename="<collection after the case>", co_firstlineno=0
)


class _Capture:
    """What a case prints. As the learner is shown it, stdout and stderr together: the first and the last half of
    `limit` characters, and how many were left out between (issue 52); a 10 MB print costs no memory. For
    comparison (`keep_stdout`: a case that compares it), stdout alone, whole up to STDOUT_LIMIT characters (`cut`
    past them)."""

    def __init__(self, limit: int, keep_stdout: bool):
        self.keep_stdout = keep_stdout
        self.half = limit // 2
        self.head: list[str] = []
        self.head_len = 0
        self.tail: collections.deque[str] = collections.deque()
        self.tail_len = 0
        self.past_head = 0  # characters written once the head was full
        self.stdout: list[str] = []
        self.stdout_len = 0
        self.cut = False

    def write(self, text: str, is_stdout: bool) -> None:
        if is_stdout and self.keep_stdout and not self.cut:
            room = STDOUT_LIMIT - self.stdout_len
            self.stdout.append(text[:room])
            self.stdout_len += min(room, len(text))
            self.cut = len(text) > room
        room = self.half - self.head_len
        if room > 0:
            self.head.append(text[:room])
            self.head_len += min(room, len(text))
            text = text[room:]
        if not text or not self.half:
            return
        self.past_head += len(text)
        self.tail.append(text[-self.half :])
        self.tail_len += len(self.tail[-1])
        while self.tail_len > self.half:
            over = self.tail_len - self.half
            if len(self.tail[0]) <= over:
                self.tail_len -= len(self.tail.popleft())
            else:
                self.tail[0] = self.tail[0][over:]
                self.tail_len -= over

    def output(self) -> str:
        dropped = self.past_head - self.tail_len
        gap = f"\n[... {dropped:,} characters of output not shown ...]\n" if dropped else ""
        return trace.readable("".join(self.head) + gap + "".join(self.tail))

    def stdout_text(self) -> str:
        return trace.readable("".join(self.stdout))


class _Stream(io.TextIOBase):
    """sys.stdout or sys.stderr of a case, writing to its _Capture."""

    def __init__(self, capture: _Capture, is_stdout: bool):
        self.capture = capture
        self.is_stdout = is_stdout

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        text = str(text)
        self.capture.write(text, self.is_stdout)
        return len(text)


def _capped_error(text: str) -> str:
    text = trace.readable(text)
    if len(text) <= ERROR_LIMIT:
        return text
    half = ERROR_LIMIT // 2
    return f"{text[:half]}\n[... {len(text) - ERROR_LIMIT} characters of this error not shown ...]\n{text[-half:]}"


class _LoadError(Exception):
    """The learner's code cannot be loaded; carries the learner-facing message."""


def _show_lines(source: str, filename: str) -> None:
    # Tracebacks read source lines through linecache; exec'd strings are not on disk.
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def _compile(source: str, filename: str):
    _show_lines(source, filename)
    return compile(source, filename, "exec", dont_inherit=True)


# The sandbox is the course's own code, shown on the challenge's page and the same for every case: compiled once
# per interpreter, it no longer costs 3 ms of a case's 6. A case whose code swaps the kept code object is
# tampering (see run_case): a page's later runs would otherwise run the swapped one.
_SANDBOXES: dict[str, object] = {}


def _sandbox_code(sandbox: str):
    if sandbox not in _SANDBOXES:
        _SANDBOXES[sandbox] = _compile(sandbox, SANDBOX_FILE)
    else:
        _show_lines(sandbox, SANDBOX_FILE)
    return _SANDBOXES[sandbox]


# The learner's code as the case before compiled it: a run's cases share one source, so every case after the first
# takes it from here (compiling a solution of fifty lines cost about 2 ms of a case's 5 in Pyodide). One entry,
# replaced before any learner code runs, so no submission finds another's code here: the earlier cache that let one
# read a classmate's source kept every source it was given. A case whose code swaps it is tampering (see run_case).
_SOLUTION: list = [None, None]  # [source, its code]


def _solution_code(source: str):
    if _SOLUTION[0] is not source and _SOLUTION[0] != source:
        _SOLUTION[:] = [None, None]
        _SOLUTION[:] = [source, _compile(source, SOLUTION_FILE)]
    else:
        _show_lines(source, SOLUTION_FILE)
    return _SOLUTION[1]


def _format_exception(exc: BaseException) -> str:
    """A traceback trimmed to the learner's own lines and the case's: sandbox and grader frames are left out."""
    if isinstance(exc, SyntaxError) and exc.filename in (SOLUTION_FILE, CASE_FILE):
        return "".join(traceback.format_exception_only(type(exc), exc)).rstrip()
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename in (SOLUTION_FILE, CASE_FILE)]
    lines = []
    if frames:
        lines.append("Traceback (most recent call last):\n")
        lines.extend(traceback.format_list(frames))
    lines.extend(traceback.format_exception_only(type(exc), exc))
    return "".join(lines).rstrip()


def _exception(exc: BaseException) -> dict:
    """What the judge reads of an exception the call raised: its type's name, the built-in classes it derives from,
    str(exc) (None if that raised). str() is the learner's, so this runs while their code counts as running."""
    cls = type(exc)
    try:
        message = str.__str__(str(exc))
    except BaseException:  # noqa: BLE001 - a __str__ that raises, or a timeout in it
        message = None
    mro = [_BUILTIN_EXCEPTIONS[id(c)] for c in _type_mro(cls) if id(c) in _BUILTIN_EXCEPTIONS]
    message = None if message is None else trace.readable(message)
    return {"type": trace.readable(str.__str__(_type_name(cls))), "mro": mro, "message": message}


def _load(source: str, sandbox: str, names: list[str], callable_entry: bool) -> dict:
    """The namespace the learner's code made, which must define each of `names`; with `callable_entry`, the one
    name is called with the case's arguments."""
    namespace = {"__name__": "solution", "__builtins__": builtins}
    exec(_sandbox_code(sandbox), namespace)
    try:
        code = _solution_code(source)
    except SyntaxError as exc:
        raise _LoadError(_format_exception(exc)) from None
    exec(code, namespace)
    missing = [name for name in names if name not in namespace]
    if missing and callable_entry:
        raise _LoadError(f"Your code does not define {names[0]}(). Write a function named {names[0]}.")
    if missing:
        raise _LoadError(f"Your code does not define {', '.join(missing)}.")
    if callable_entry and not callable(namespace[names[0]]):
        kind = type(namespace[names[0]]).__name__
        raise _LoadError(f"{names[0]} is a {kind}, not a function. Define it with def {names[0]}(...).")
    return namespace


def _check_returned(what: str, value):
    if inspect.iscoroutine(value):
        value.close()
        raise NotJSONError(f"{what} returned a coroutine: define it with def, not async def")
    if inspect.isgenerator(value):
        value.close()
        raise NotJSONError(f"{what} returned a generator (it contains yield): return the result instead")
    return encode(value)


class _Run:
    """A case's run spec, read once: what to call and how."""

    def __init__(self, run_json: str):
        run = _loads(run_json)
        entry = run["entry"]
        self.names = [entry] if isinstance(entry, str) else list(entry)
        self.call_twice = bool(run.get("call_twice"))
        self.stdin = run.get("stdin") or ""
        self.keep_stdout = bool(run.get("keep_stdout"))
        self.args = run.get("args")  # value text, read afresh for each call
        self.call, self.setup = run.get("call"), run.get("setup")
        # How messages name what the case calls: `f` (as in "f returned a generator", "f() must return ...").
        self.label = self.names[0] if self.call is None else f"`{self.call}`"
        self.what = f"{self.label}()" if self.call is None else self.label
        if self.call is not None:
            # One text for tracebacks, the setup's lines then the call's.
            setup = self.setup or ""
            _show_lines(setup + "\n" + self.call if setup else self.call, CASE_FILE)

    def invoke(self, namespace: dict):
        """The call's value; what it raises is the case's."""
        if self.call is None:
            args = from_tagged(_loads(self.args))
            func = namespace[self.names[0]]
            return func(*args) if isinstance(args, list) else func(**args)
        if self.setup:
            exec(compile(self.setup, CASE_FILE, "exec", dont_inherit=True), namespace)
        expression = _parse(self.call, CASE_FILE, "eval")
        _increment_lineno(expression, self.setup.count("\n") + 1 if self.setup else 0)
        return eval(compile(expression, CASE_FILE, "eval", dont_inherit=True), namespace)


def _attempt(source: str, sandbox: str, run: _Run) -> tuple:
    """Load and call the learner's code: ("value", (text, shown), the second call's or None) or ("error", phase,
    message or exception, whether the second call failed). Exceptions are kept, to be formatted while the learner's
    code still counts as running (see run_case)."""
    try:
        namespace = _load(source, sandbox, run.names, run.call is None)
    except _LoadError as exc:
        return "error", "load", str(exc), False
    # BaseException too: sys.exit(), KeyboardInterrupt and friends are learner mistakes, not crashes.
    except BaseException as exc:  # noqa: BLE001
        return "error", "load", exc, False
    first = _call(namespace, run)
    if first[0] == "error":
        return (*first, False)
    if not run.call_twice:
        return (*first, None)
    # The same namespace, with arguments read afresh (or the setup and call run again): what the first call left
    # behind (a mutable default argument, a global, a class attribute) is all that can make the second differ.
    trace.record("note", text=AGAIN_NOTE.format(what=run.what))
    second = _call(namespace, run)
    return ("value", first[1], second[1]) if second[0] == "value" else (*second, True)


def _call(namespace: dict, run: _Run) -> tuple:
    """One call: ("value", (text, shown)) or ("error", phase, message or exception)."""
    try:
        value = run.invoke(namespace)
    except BaseException as exc:  # noqa: BLE001
        return "error", "call", exc
    try:
        return "value", _check_returned(run.label, value)
    except NotJSONError as exc:
        error = f"{run.what} must return plain data, but {exc}."
    except BaseException as exc:  # noqa: BLE001
        return "error", "return", exc
    # Out of the except block, so the exception and the parts of the value its traceback holds are gone.
    _dismantle(value)
    return "error", "return", error


def _dismantle(value) -> None:
    """Empty the lists and dicts of a value the grader refused, from the outside in, so that dropping it frees
    one empty container at a time. Freed whole, a list nested thousands deep is freed by a chain of calls as
    deep; in a browser that overflows the JavaScript stack (CPython's own guard watches the C stack, not it)
    whenever the interpreter's code has not been optimised yet, so the verdict would depend on the moment."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(list.__iter__(item))
            list.clear(item)
        elif isinstance(item, dict):
            stack.extend(dict.values(item))
            dict.clear(item)


def _formatted(exc: BaseException) -> str:
    try:
        return _format_exception(exc)
    except BaseException as failure:  # noqa: BLE001 - an exception whose __str__ raises, or a timeout in it
        return f"{type(exc).__name__} (its message could not be shown: {type(failure).__name__})"


def run_case(source: str, sandbox: str, run_json: str, output_limit: int = DEFAULT_OUTPUT_LIMIT) -> str:
    """Run one case, given as its run spec in JSON (see _Run), in a fresh namespace and return the outcome as a JSON
    string.

    `call_twice`: call again in the same namespace with the same arguments; the outcome then carries the second
    call's value too (`again`), for the judge to compare with the first, or the second call's error. Both calls are
    one case: one time limit, one output, one trace.

    Everything the learner's code can still set off runs before the guard looks: formatting the exception
    (its __str__ and __repr__ are the learner's), and the finalizers of the learner's objects, run by a
    collection. From the guard's check to the returned string, the grader runs its own code only, with the
    cyclic garbage collector off, so no finalizer of the learner's can run in between."""
    run = _Run(run_json)
    if _GC_ENABLED:
        gc.enable()
    try:  # before learner code runs; code that does not compile fails in _load instead
        sandbox_code = _sandbox_code(sandbox)
    except (SyntaxError, ValueError):
        sandbox_code = None
    try:
        _solution_code(source)
        kept = (*_SOLUTION,)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        kept = None
    capture = _Capture(output_limit, run.keep_stdout)
    saved = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr = _Stream(capture, True), _Stream(capture, False)
    sys.stdin = io.StringIO(run.stdin)  # past its end input() raises EOFError, as Python's does
    trace.start()
    exception = None
    try:
        attempt = _attempt(source, sandbox, run)
        if attempt[0] == "error":
            kind, phase, error, second = attempt
            if phase == "call" and not isinstance(error, str):
                exception = _exception(error)
            error = error if isinstance(error, str) else _formatted(error)
            attempt = kind, phase, (AGAIN_ERROR.format(what=run.what) + error) if second else error
        _collect_after_case()
    finally:
        # Off before the check, not after it: a finalizer of the learner's, run by a collection inside the check,
        # could change what the check has yet to look at, or this function's locals (issue 38). The check is told
        # whether the code left it on.
        collecting = gc.isenabled()
        gc.disable()
        sys.stdout, sys.stderr, sys.stdin = saved
    tampered = guard.changes(_PRISTINE, collecting)
    if sandbox_code is not None and _SANDBOXES.get(sandbox) is not sandbox_code:
        tampered.append("the provided code kept compiled was replaced")
    if kept is not None and (_SOLUTION[0] is not kept[0] or _SOLUTION[1] is not kept[1]):
        tampered.append("your code kept compiled was replaced")
    if tampered:
        # Whatever the case returned may have been forged; this interpreter is not to be trusted again.
        guard.restore(_PRISTINE)
        _SANDBOXES.clear()
        _SOLUTION[:] = [None, None]
        gc.disable()
    printed = {"output": capture.output(), "stdout": capture.stdout_text(), "stdout_cut": capture.cut}
    if tampered:
        error = _capped_error(
            "Your code changed the grader's environment (" + "; ".join(tampered[:3]) + "). "
            "Solutions must leave builtins, json, the grader and the interpreter's settings as they are."
        )
        # `restart`: the one field besides the outcome's own, which the worker takes off (worker-core.js).
        outcome = error_outcome(error, "call", trace=trace.take("raise", error=error), **printed)
        return _dumps({**outcome, "restart": True})
    if attempt[0] == "value":
        _, (value, shown), again = attempt
        last = value if again is None else again[0]  # the trace ends with what the last call returned
        steps = trace.take("return", value=_loads(last))
        return _dumps(
            value_outcome(
                value, trace=steps, again=again and again[0], shown=shown, again_shown=again and again[1], **printed
            )
        )
    error = _capped_error(attempt[2])
    steps = trace.take("raise", error=error)
    return _dumps(error_outcome(error, attempt[1], trace=steps, exception=exception, **printed))


def settle() -> None:
    """Move every object alive now (the interpreter's, the standard library's, the grader's: about 25,000) out
    of the collector's reach, once Python is ready and before any learner code runs. Every case ends with a
    collection (above); it then walks only what learner code made: well under a millisecond instead of about
    twenty, which is most of what a case costs. In this Python (3.14) frozen objects are no longer seen by
    gc.get_objects or gc.get_referrers: so the way to JavaScript is cut before this runs (guard.cut_javascript
    looks for what refers to it with gc.get_referrers), and a learner's walk over gc.get_objects starts from
    what is not frozen (tests/hostile/js_found_through_gc.py also walks from sys.modules and globals)."""
    gc.collect()
    gc.freeze()


@contextlib.contextmanager
def baseline_here():
    """For a host running trusted code in its own process (tests, loopcraft.running.runners.HostRunner): within the block, the
    guard compares with this process as it is now, its collector on as run_case has it when the guard looks, not as
    it was when this module was imported (a host moves on: its redirected streams, a test library's gc callbacks, the
    modules it imported), so that only what a case changes is tampering. Put back after. Never used where learner
    code runs: there the baseline is the interpreter as it started.

    As `settle` does in Pyodide, everything alive as the block starts is out of the collector's reach within it, so
    that a case's collection walks only what the case made, not the host's whole heap (in a test process, most of
    what an in-process case cost); without settle's own collection: what is garbage now is collected after the
    block, when it is given back."""
    kept, collecting = dict(_PRISTINE), gc.isenabled()
    gc.enable()
    _PRISTINE.update(guard.snapshot())
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        _PRISTINE.update(kept)
        if collecting:  # run_case ends each case with the collector off, as between cases in the page
            gc.enable()


_GC_ENABLED = gc.isenabled()
_PRISTINE: dict = {}  # filled in place, so that the snapshot sees this name already bound
_PRISTINE.update(guard.snapshot())
