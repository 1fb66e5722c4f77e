"""Run grading requests in Pyodide under Node.js (frontend/node-runner.mjs) from CPython.

Verdicts must come from the interpreter learners run (Pyodide, Python 3.14), not from the host
Python, whose error messages differ. One Node process serves many solutions; unless `fresh=False`,
each `run` (one submission) gets an interpreter of its own, restored from a memory snapshot.

Protocol: requests as JSON lines on the runner's stdin; replies as JSON lines on a pipe of their own
(a file descriptor the runner inherits, named by `--replies`), so nothing the runner or a library prints can pose as a reply. Its
stdout and stderr are drained as they come by a thread, and their last lines explain a runner that stops.
"""

from __future__ import annotations

import collections
import itertools
import json
import os
import shutil
import subprocess
import threading
from pathlib import Path

from .errors import BuildError
from .grading import ROOT, grader_files

RUNNER = ROOT / "frontend" / "node-runner.mjs"
STDERR_KEPT = 50  # lines of the runner's diagnostics kept to explain a failure


def node_command(node: str, script: Path) -> list[str]:
    """How the runner's node is started: Node's permission model, read access only to what it loads.

    No child processes, no file writes, no addons (refused under the model unless allowed); worker
    threads are allowed, since Pyodide runs in one. Node 20's model does not cover the network.
    `--disallow-code-generation-from-strings` removes eval and the Function constructor outright."""
    pyodide = (ROOT / "node_modules" / "pyodide").resolve()
    readable = [ROOT / "frontend", ROOT / "grader", pyodide]
    return [
        node,
        "--experimental-permission",
        *(f"--allow-fs-read={path}{os.sep}" for path in readable),
        "--allow-worker",
        "--disallow-code-generation-from-strings",
        "--no-warnings",
        str(script),
        "--pyodide",
        str(pyodide),
        "--grader-files",
        ",".join(grader_files(ROOT)),
    ]


def runner_command(replies: int, *, interrupt: bool = True, fresh: bool = True) -> list[str]:
    node = shutil.which("node")
    if node is None:
        raise BuildError("Node.js is not installed: it is needed to run Pyodide (see README, set-up)")
    if not (ROOT / "node_modules" / "pyodide").is_dir():
        raise BuildError("node_modules/pyodide is missing: run `npm ci` first (see README, set-up)")
    options = ["--replies", str(replies)] + ([] if interrupt else ["--no-interrupt"]) + ([] if fresh else ["--reuse"])
    return node_command(node, RUNNER) + options


class RunnerError(BuildError):
    """The runner process itself failed (not one submission)."""


class PyodideRunner:
    """`fresh=False` runs every submission in the same interpreter: for trusted code only (an author's
    own mutants, say), since one submission could then change what the next one sees."""

    def __init__(self, *, interrupt: bool = True, fresh: bool = True):
        reply_read, reply_write = os.pipe()
        try:
            self._proc = subprocess.Popen(
                runner_command(reply_write, interrupt=interrupt, fresh=fresh),
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                pass_fds=(reply_write,),
            )
        finally:
            os.close(reply_write)
        self._replies = os.fdopen(reply_read, "rb")
        self._diagnostics: collections.deque[str] = collections.deque(maxlen=STDERR_KEPT)
        self._drain = threading.Thread(target=self._drain_output, name="pyodide-runner-output", daemon=True)
        self._drain.start()
        self._ids = itertools.count(1)
        self.version = None
        self.load_ms = None  # how long the runner's first interpreter took to be ready, as it measured

    def _drain_output(self) -> None:
        for raw in self._proc.stdout:
            self._diagnostics.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def _failure(self, what: str) -> RunnerError:
        if self._proc.poll() is not None or not self._drain.is_alive():
            self._drain.join(timeout=2)
        said = "\n".join(self._diagnostics).strip()
        return RunnerError(f"the Pyodide runner (frontend/node-runner.mjs) {what}" + (f":\n{said}" if said else ""))

    def _read(self) -> dict:
        line = self._replies.readline()
        if not line:
            self._proc.wait(timeout=10) if self._proc.poll() is None else None
            raise self._failure(f"stopped unexpectedly (exit code {self._proc.poll()})")
        try:
            reply = json.loads(line)
        except ValueError as exc:
            raise self._failure(f"sent a reply that is not JSON ({exc}): {line[:200]!r}") from None
        if not isinstance(reply, dict):
            raise self._failure(f"sent a reply that is not an object: {line[:200]!r}")
        return reply

    def run(self, *, source: str, sandbox: str, entry: str, cases: list[dict], time_limit: float) -> list[dict]:
        """Outcomes (see docs/architecture.md), one per case, in order."""
        request_id = next(self._ids)
        request = {
            "id": request_id,
            "source": source,
            "sandbox": sandbox,
            "entry": entry,
            "cases": [{"name": c["name"], "args": c["args"]} for c in cases],
            "time_limit": time_limit,
        }
        try:
            self._proc.stdin.write((json.dumps(request) + "\n").encode("utf-8", "surrogatepass"))
            self._proc.stdin.flush()
        except BrokenPipeError:
            raise self._failure("is not running") from None
        while True:
            reply = self._read()
            if "ready" in reply:
                if not reply["ready"]:
                    raise self._failure(f"could not start Pyodide: {reply.get('error')}")
                self.version = reply.get("version")
                self.load_ms = reply.get("load_ms")
                continue
            if reply.get("id") != request_id:
                raise self._failure(f"answered out of turn: {str(reply)[:200]}")
            if "error" in reply:
                raise self._failure(f"failed: {reply['error']}")
            return [_checked(outcome) for outcome in reply["outcomes"]]

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.stdin.close()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._drain.join(timeout=5)
        self._replies.close()
        self._proc.stdout.close()

    def __enter__(self) -> PyodideRunner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


_OUTCOME_KINDS = {"value": ("value",), "error": ("error",), "timeout": ()}


def _checked(outcome) -> dict:
    """An outcome the host can judge, or an `error` outcome for this one case: a malformed or
    undecodable outcome never aborts the batch."""
    if isinstance(outcome, dict) and outcome.get("kind") in _OUTCOME_KINDS:
        texts = _OUTCOME_KINDS[outcome["kind"]]
        if all(isinstance(outcome.get(key), str) for key in texts) and isinstance(outcome.get("output", ""), str):
            if outcome["kind"] != "value":
                return outcome
            try:
                json.loads(outcome["value"])
                return outcome
            except (ValueError, RecursionError) as exc:
                problem = f"its return value could not be read back ({type(exc).__name__})"
        else:
            problem = "the grader's result for it was malformed"
    else:
        problem = "the grader's result for it was malformed"
    return {
        "kind": "error",
        "phase": "return",
        "output": "",
        "trace": [],
        "error": f"This case could not be graded: {problem}.",
    }
