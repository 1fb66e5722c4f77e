"""Run a lesson's "Live Python" block: the sandbox of a run-case request (entry `run_live`, source "").

The block runs as a module of its own, under its own file name, so that a traceback shows the block's own
lines and none of the grader's. A last bare expression is evaluated and its repr kept, as in a notebook.
What it prints is captured and capped by grader.execute, like any case's output; the value and the
traceback are capped here. The page and the build both call it through the ordinary run-case path.
"""

from __future__ import annotations

import ast
import builtins
import linecache
import traceback

BLOCK_FILE = "block.py"
VALUE_LIMIT = 2_000


def _cap(text: str) -> str:
    if len(text) <= VALUE_LIMIT:
        return text
    return text[:VALUE_LIMIT] + f"\n[cut: {len(text) - VALUE_LIMIT} more characters not shown]"


def _trimmed(exc: BaseException) -> str:
    """The traceback with only the block's frames, as a learner expects to read it."""
    if isinstance(exc, SyntaxError) and exc.filename == BLOCK_FILE:
        return "".join(traceback.format_exception_only(type(exc), exc)).rstrip()
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == BLOCK_FILE]
    lines = ["Traceback (most recent call last):\n", *traceback.format_list(frames)] if frames else []
    lines += traceback.format_exception_only(type(exc), exc)
    return _cap("".join(lines).rstrip())


def _split(tree: ast.Module):
    """(the statements, the last bare expression or None)."""
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        return ast.Module(body=tree.body[:-1], type_ignores=[]), ast.Expression(tree.body[-1].value)
    return tree, None


def run_live(code: str) -> dict:
    """{"value": repr of a last bare expression or None, "error": trimmed traceback or None}."""
    # Tracebacks read their source lines through linecache: the block is not a file on disk.
    linecache.cache[BLOCK_FILE] = (len(code), None, code.splitlines(True), BLOCK_FILE)
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    try:
        body, last = _split(ast.parse(code, BLOCK_FILE))
        exec(compile(body, BLOCK_FILE, "exec", dont_inherit=True), namespace)
        value = None
        if last is not None:
            result = eval(compile(last, BLOCK_FILE, "eval", dont_inherit=True), namespace)
            value = None if result is None else _cap(repr(result))
    # BaseException too: sys.exit() or a KeyboardInterrupt in a block is something to show, not a crash.
    except BaseException as exc:  # noqa: BLE001
        return {"value": None, "error": _trimmed(exc)}
    return {"value": value, "error": None}
