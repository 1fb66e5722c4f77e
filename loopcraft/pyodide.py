"""Run grading requests in Pyodide under Node.js (frontend/node-runner.mjs) from CPython.

Verdicts must come from the interpreter learners run (Pyodide, Python 3.14), not from the host
Python, whose error messages differ. One Node process and one Pyodide serve many solutions.
"""
from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path

from .errors import BuildError

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "frontend" / "node-runner.mjs"


class PyodideRunner:
    def __init__(self, *, interrupt: bool = True):
        node = shutil.which("node")
        if node is None:
            raise BuildError("Node.js is not installed: it is needed to run Pyodide (see README, set-up)")
        if not (ROOT / "node_modules" / "pyodide").is_dir():
            raise BuildError("node_modules/pyodide is missing: run `npm ci` first (see README, set-up)")
        args = [node, str(RUNNER)] + ([] if interrupt else ["--no-interrupt"])
        self._proc = subprocess.Popen(
            args, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8"
        )
        self._ids = itertools.count(1)
        self.version = None

    def _read(self) -> dict:
        line = self._proc.stdout.readline()
        if not line:
            err = self._proc.stderr.read().strip()
            raise BuildError(f"the Pyodide runner stopped unexpectedly: {err or 'no message'}")
        return json.loads(line)

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
        self._proc.stdin.write(json.dumps(request) + "\n")
        self._proc.stdin.flush()
        while True:
            reply = self._read()
            if "ready" in reply:
                if not reply["ready"]:
                    raise BuildError(f"Pyodide failed to start: {reply['error']}")
                self.version = reply["version"]
                continue
            if reply.get("id") != request_id:
                raise BuildError(f"the Pyodide runner answered out of turn: {reply}")
            if "error" in reply:
                raise BuildError(f"the Pyodide runner failed: {reply['error']}")
            return reply["outcomes"]

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.stdin.close()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
        for stream in (self._proc.stdout, self._proc.stderr):
            stream.close()

    def __enter__(self) -> PyodideRunner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
