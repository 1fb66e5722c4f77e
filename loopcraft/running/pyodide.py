"""Run grading requests in Pyodide under Node.js (frontend/node-runner.mjs) from CPython: the "fresh" kind of
loopcraft/running/runners.py, which makes the runners grading uses.

Verdicts must come from the interpreter learners run (Pyodide, Python 3.14), not from the host
Python, whose error messages differ. One Node process serves many solutions; unless `fresh=False`,
each `run` (one submission) gets an interpreter of its own, restored from a memory snapshot.

The snapshot (Python booted, the grader imported, no learner code run) is kept on disk in
`.cache/loopcraft/pyodide-snapshot/`, keyed by everything it is made from, so a runner starts by restoring it
(a fraction of a second) rather than booting Pyodide (seconds): the CLI, every build check and every class
worker. The first runner without one makes it and hands the bytes back on a descriptor of their own; runners
started meanwhile wait for it rather than each boot Python.

Protocol (node-runner.mjs documents every message): requests as JSON lines on the runner's stdin, each case with
its expectation and the challenge's known mistakes; replies as JSON lines on a pipe of their own (a file descriptor
the runner inherits, named by `--replies`), so nothing the runner or a library prints can pose as a reply, each
with a `type` ("ready", "verdict", "error" with a `kind`): the runner judges the outcomes itself, with the page's
judge (frontend/src/judge.js), and replies with the verdict. Its stdout and stderr are drained as they come by a
thread, and their last lines explain a runner that stops. Both ways are capped (REQUEST_BYTES, REPLY_BYTES): a
request over its cap is never sent, and its cases become errors.
"""

from __future__ import annotations

import collections
import fcntl
import functools
import hashlib
import itertools
import json
import os
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

from grader.results import CaseResult, RunResult, Status
from loopcraft.course.errors import BuildError, LoopcraftError
from loopcraft.course.project import Project

STDERR_KEPT = 50  # lines of the runner's diagnostics kept to explain a failure
SNAPSHOT_WAIT_S = 60  # how long a runner waits for another to make the snapshot (it takes seconds)
# How long a runner may stay silent before it is taken for hung and stopped: far above a boot of Python on a loaded
# machine (seconds) and above any submission's run (a budget of 30 s, plus a new worker after a case that ignored
# its interrupt), so that only a runner stuck for good reaches it, and a class run never waits forever on one.
SILENCE_S = 600
WASM_TIERING_BUDGET = 180_000_000  # V8's default is 1,800,000 (see node_command)
# A request line the host sends and the runner reads, at most: a submission (256 KB at most from intake, about six
# times that once its control characters are escaped in JSON), the provided code and the cases' arguments fit many
# times over. Far below V8's longest string (about 512 million characters), which a longer line once overran.
REQUEST_BYTES = 16 * 2**20
# What one request's outcomes may take, at most, before they are judged. Each outcome is capped inside the
# interpreter (a value at a million characters of JSON, a trace at half a million): enough to judge a few cases at
# their largest; past it, a case's outcome is judged as an error that says so (outcomes.js, tooLargeToSend).
REPLY_BYTES = 16 * 2**20
# The scripts a runner starts: they and the modules they import are the front end's part of every verdict and snapshot.
RUNNER_SCRIPTS = ("node-runner.mjs", "node-worker.mjs")
_IMPORTS = re.compile(
    r"""^\s*(?:import\s*(?:[^;'"]*?\sfrom\s*)?|export\s[^;'"]*?\sfrom\s*)["'](\.{1,2}/[^"']+)["']""", re.MULTILINE
)


def runner_files(frontend: Path) -> list[Path]:
    """Every file of the front end a runner runs: RUNNER_SCRIPTS and the modules they import, followed through their
    static relative imports (Pyodide's own files are imported by path, and are not the front end's). The runner may
    read these and nothing else of the front end, so a module left out here is one the runner cannot start without."""
    found: set[Path] = set()
    todo = [frontend / name for name in RUNNER_SCRIPTS]
    while todo:
        path = todo.pop().resolve()
        if path not in found:
            found.add(path)
            todo += [path.parent / name for name in _IMPORTS.findall(path.read_text(encoding="utf-8"))]
    return sorted(found)


@functools.cache
def _node_version(node: str) -> bytes:
    return subprocess.run([node, "--version"], capture_output=True, check=True).stdout


def snapshot_file(node: str, project: Project) -> Path:
    """Where the snapshot for this Node, this Pyodide and these grader files is kept (whether or not it exists)."""
    h = hashlib.sha256(_node_version(node))
    for path in runner_files(project.frontend):
        h.update(b"\0" + path.relative_to(project.frontend).as_posix().encode() + b"\0" + path.read_bytes())
    h.update(project.grader_hash.encode())
    h.update((project.pyodide / "package.json").read_bytes())
    return project.snapshots / f"{h.hexdigest()[:32]}.bin"


def node_command(node: str, script: Path, project: Project, readable_files: tuple[Path, ...] = ()) -> list[str]:
    """How the runner's node is started: Node's permission model, read access only to what it loads.

    No child processes, no file writes, no addons (refused under the model unless allowed); worker
    threads are allowed, since Pyodide runs in one. Node 20's model does not cover the network.
    `--disallow-code-generation-from-strings` removes eval and the Function constructor outright.

    `--wasm-tiering-budget`: V8 recompiles a WebAssembly function with its optimizing compiler once the function
    has run for a while; the default budget is set for pages that live for hours, while a runner lives for seconds
    to minutes, and most of that compiling never paid for itself. At 100 times the default, grading one file takes
    about a third less CPU time, a folder of 46 a few percent less, and a hot loop runs as fast (bench/tiering.py)."""
    pyodide = project.pyodide.resolve()
    readable = [project.grader_root / "grader", pyodide]
    return [
        node,
        "--experimental-permission",
        *(f"--allow-fs-read={path}{os.sep}" for path in readable),
        *(f"--allow-fs-read={path}" for path in (*runner_files(project.frontend), *readable_files)),
        "--allow-worker",
        "--disallow-code-generation-from-strings",
        f"--wasm-tiering-budget={WASM_TIERING_BUDGET}",
        "--no-warnings",
        str(script),
        "--pyodide",
        str(pyodide),
        "--grader-root",
        str(project.grader_root),
        "--grader-files",
        ",".join(project.grader_files),
    ]


# Snapshots of each kind (a runner's, "<key>.bin"; the site's, "site-<key>.bin") kept in the snapshot folder. Each is
# made for one grader, Node, Pyodide and front end (31 and 13 MB): every edit of the grader makes new ones, and the
# old ones would stay for good. The most recently used are kept: switching between two branches makes none again.
KEPT_SNAPSHOTS = 3


def used(snapshot: Path) -> None:
    """Mark `snapshot` as used now (its modification time), so that `keep_recent` keeps it."""
    try:
        os.utime(snapshot)
    except OSError:
        pass  # a folder that cannot be written: nothing is kept, and nothing pruned, there either


def keep_recent(snapshot: Path) -> None:
    """`snapshot` was just kept: delete the snapshots of its kind beside it but the KEPT_SNAPSHOTS used last."""
    site = snapshot.name.startswith("site-")
    same_kind = [p for p in snapshot.parent.glob("*.bin") if p.name.startswith("site-") == site and p != snapshot]

    def last_used(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except FileNotFoundError:  # pruned meanwhile by another process
            return 0.0

    for old in sorted(same_kind, key=last_used, reverse=True)[KEPT_SNAPSHOTS - 1 :]:
        old.unlink(missing_ok=True)


def find_node(project: Project) -> str:
    node = shutil.which("node")
    if node is None:
        raise BuildError("Node.js is not installed: it is needed to run Pyodide (see README, set-up)")
    if not project.pyodide.is_dir():
        raise BuildError("node_modules/pyodide is missing: run `npm ci` first (see README, set-up)")
    return node


def runner_command(
    node: str,
    project: Project,
    replies: int,
    *,
    interrupt: bool = True,
    fresh: bool = True,
    reset: bool = True,
    snapshot: Path | int | None,
) -> list[str]:
    """`snapshot`: the file to restore the first interpreter from, a descriptor to write a new snapshot to, or
    None (no snapshot kept: a fresh runner makes its own, a reusing one boots Python plainly)."""
    options = ["--replies", str(replies), "--max-request", str(REQUEST_BYTES), "--max-reply", str(REPLY_BYTES)]
    options += (
        ([] if interrupt else ["--no-interrupt"]) + ([] if fresh else ["--reuse"]) + ([] if reset else ["--no-reset"])
    )
    script = project.frontend / "node-runner.mjs"
    if isinstance(snapshot, Path):
        return node_command(node, script, project, (snapshot,)) + options + ["--snapshot", str(snapshot)]
    return (
        node_command(node, script, project) + options + ([] if snapshot is None else ["--snapshot-out", str(snapshot)])
    )


class RunnerError(LoopcraftError):
    """The runner process itself failed (not one submission). `kind`, one of KINDS: "start" (it could not start
    Python: the machine's problem), else "stopped" (the process ended), "protocol" (it answered out of turn, or not
    with a reply), "refused" (it refused a request: the host's mistake) or "failed" (it failed during a request)."""

    KINDS = ("start", "stopped", "protocol", "refused", "failed")

    def __init__(self, message: str, kind: str):
        assert kind in self.KINDS, kind
        super().__init__(message)
        self.kind = kind


# The kind of RunnerError each kind of error reply is (node-runner.mjs).
_ERROR_KINDS = {"start": "start", "request": "refused", "runner": "failed"}


def request_too_large(size: int) -> str:
    return (
        f"This submission is too large to grade: sending it with its cases takes {size:,} bytes, over the "
        f"{REQUEST_BYTES:,} the grader takes."
    )


def not_sent(cases: list[dict], message: str) -> dict:
    """The verdict of a request never sent: the run an error, with `message`, and every case one."""
    tests = [CaseResult(c["name"], Status.ERROR, message, hidden=c["hidden"], private=c["private"]) for c in cases]
    return RunResult(Status.ERROR, message, tests).to_dict(private_details=True, hidden_actual=True)


class PyodideRunner:
    """`fresh=False` runs every submission in the same interpreter: for trusted code only (an author's
    own mutants, say), since one submission could then change what the next one sees. A fresh interpreter is the
    one before reset in place (frontend/src/reset.js) where it can be, else restored from the snapshot;
    `reset=False` always restores (the benchmark's baseline). `made` counts the interpreters each way."""

    def __init__(
        self,
        project: Project,
        *,
        interrupt: bool = True,
        fresh: bool = True,
        reset: bool = True,
        kept_snapshot: bool = True,
    ):
        """`kept_snapshot=False` neither uses nor keeps the snapshot on disk (the benchmark's baseline)."""
        self.silence_s = SILENCE_S
        node = find_node(project)
        self._snapshot = snapshot_file(node, project)
        self._new_snapshot = None  # the temporary file a snapshot is being written to, when none was kept
        self._making = None  # the lock this runner holds while it makes the snapshot other runners wait for
        passed = []
        if kept_snapshot and not self._snapshot.is_file():
            self._wait_for_a_maker()
        if not kept_snapshot:
            snapshot = None
        elif self._snapshot.is_file():
            snapshot = self._snapshot
            used(snapshot)
        else:
            self._new_snapshot = self._snapshot.with_name(f"{self._snapshot.name}.{os.getpid()}.{id(self)}.tmp")
            snapshot = os.open(self._new_snapshot, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            passed.append(snapshot)
        reply_read, reply_write = os.pipe()
        passed.append(reply_write)
        try:
            self._proc = subprocess.Popen(
                runner_command(
                    node, project, reply_write, interrupt=interrupt, fresh=fresh, reset=reset, snapshot=snapshot
                ),
                cwd=project.root,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                pass_fds=tuple(passed),
            )
        finally:
            for fd in passed:
                os.close(fd)
        self._replies = os.fdopen(reply_read, "rb")
        self._diagnostics: collections.deque[str] = collections.deque(maxlen=STDERR_KEPT)
        self._drain = threading.Thread(target=self._drain_output, name="pyodide-runner-output", daemon=True)
        self._drain.start()
        self._ids = itertools.count(1)
        self.version = None
        self.load_ms = None  # how long the runner's first interpreter took to be ready, as it measured
        self.snapshot = None  # where it started from: "kept" (on disk), "made" (now kept) or "unusable" (dropped)
        self.made: collections.Counter[str] = collections.Counter()  # "reset", "started" or "kept": one a request
        if self._making is not None:
            # Other runners wait for this one's snapshot: it is kept now, not at this runner's first run.
            try:
                self._ready(self._read())
            except BaseException:
                self.close()
                raise

    def _wait_for_a_maker(self) -> None:
        """Runners started together on a machine without a kept snapshot (a class graded with --jobs 4, say) would
        each boot Python and make one: the first makes it, holding a lock beside it, and the others wait for it
        and restore it. A maker that takes longer than SNAPSHOT_WAIT_S is not waited for any longer."""
        self._snapshot.parent.mkdir(parents=True, exist_ok=True)
        lock = open(self._snapshot.with_suffix(".lock"), "w")  # held until the snapshot is kept, or given up
        deadline = time.monotonic() + SNAPSHOT_WAIT_S
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    lock.close()
                    return
                time.sleep(0.05)
        if self._snapshot.is_file():  # made while this runner waited
            lock.close()
        else:
            self._making = lock

    def _drain_output(self) -> None:
        for raw in self._proc.stdout:
            self._diagnostics.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def _failure(self, what: str, kind: str) -> RunnerError:
        if self._proc.poll() is not None or not self._drain.is_alive():
            self._drain.join(timeout=2)
        said = "\n".join(self._diagnostics).strip()
        message = f"the Pyodide runner (frontend/node-runner.mjs) {what}" + (f":\n{said}" if said else "")
        # Before its first "ready", whatever went wrong kept Python from starting: no submission is to blame.
        return RunnerError(message, "start" if self.version is None else kind)

    def _read(self) -> dict:
        """The next reply: an object with a `type` ("ready", "verdict" or "error", which has a `kind`)."""
        silent = threading.Event()

        def give_up() -> None:
            silent.set()
            self._proc.kill()  # the read below then ends

        watchdog = threading.Timer(self.silence_s, give_up)
        watchdog.start()
        try:
            line = self._replies.readline()
        finally:
            watchdog.cancel()
        if silent.is_set():
            self._proc.wait()
            raise self._failure(f"said nothing for {self.silence_s:g} s and was stopped", "stopped")
        if not line:
            self._proc.wait(timeout=10) if self._proc.poll() is None else None
            raise self._failure(f"stopped unexpectedly (exit code {self._proc.poll()})", "stopped")
        try:
            reply = json.loads(line)
        except ValueError as exc:
            raise self._failure(f"sent a reply that is not JSON ({exc}): {line[:200]!r}", "protocol") from None
        if not isinstance(reply, dict) or reply.get("type") not in ("ready", "verdict", "error"):
            raise self._failure(f"sent what is not a reply: {line[:200]!r}", "protocol")
        if reply["type"] == "error":
            kind = _ERROR_KINDS.get(reply.get("kind"), "protocol")
            said = {"start": "could not start Pyodide", "refused": "refused a request", "failed": "failed"}
            raise self._failure(f"{said.get(kind, 'sent an error of no known kind')}: {reply.get('message')}", kind)
        return reply

    def run(
        self,
        *,
        source: str,
        sandbox: str,
        cases: list[dict],
        mistakes: dict | None = None,
        time_limit: float,
        budget: float | None = None,
    ) -> dict:
        """The verdict of the cases, as the runner's judge wrote it (the results document: see loopcraft.running.runners
        Runner.run). `budget`: seconds all the cases may take together (node-runner.mjs); a case starts only while
        its whole time limit is left of it."""
        request_id = next(self._ids)
        request = {
            "id": request_id,
            "source": source,
            "sandbox": sandbox,
            "cases": cases,
            "mistakes": mistakes,
            "time_limit": time_limit,
            "budget": budget,
        }
        line = (json.dumps(request) + "\n").encode("utf-8", "surrogatepass")
        if len(line) > REQUEST_BYTES:
            return not_sent(cases, request_too_large(len(line)))
        try:
            self._proc.stdin.write(line)
            self._proc.stdin.flush()
        except BrokenPipeError:
            raise self._failure("is not running", "stopped") from None
        if self.version is None:
            self._ready(self._read())
        reply = self._read()
        if reply["type"] != "verdict" or reply.get("id") != request_id:
            raise self._failure(f"answered out of turn: {str(reply)[:200]}", "protocol")
        verdict = reply.get("verdict")
        tests = verdict.get("tests") if isinstance(verdict, dict) else None
        if not isinstance(tests, list) or len(tests) != len(cases):
            raise self._failure(f"sent a verdict of {str(tests)[:100]} for {len(cases)} cases", "protocol")
        self.made[str(reply.get("fresh"))] += 1
        return verdict

    def _ready(self, reply: dict) -> None:
        """The runner's first reply: Python has started (an error reply, that it could not, was raised already)."""
        if reply["type"] != "ready":
            raise self._failure(f"answered before it was ready: {str(reply)[:200]}", "protocol")
        self.version = reply.get("version")
        self.load_ms = reply.get("load_ms")
        self.snapshot = reply.get("snapshot")
        self._settle_snapshot()

    def _settle_snapshot(self) -> None:
        """The runner has written the snapshot it made before saying it is ready: keep it for the next runner,
        renamed into place whole so that no runner reads half of one (a runner racing this one writes the same).
        A kept snapshot the runner could not restore is dropped, and the next runner makes a new one."""
        if self.snapshot == "unusable":
            self._snapshot.unlink(missing_ok=True)
        if self._new_snapshot is not None:
            if self.snapshot == "made" and self._new_snapshot.stat().st_size > 0:
                os.replace(self._new_snapshot, self._snapshot)
                keep_recent(self._snapshot)
            self._new_snapshot.unlink(missing_ok=True)
            self._new_snapshot = None
        self._stop_making()

    def _stop_making(self) -> None:
        if self._making is not None:
            # Removed, then released: the runners waiting go on, with the snapshot or without (then one of them
            # makes it); a runner that comes later finds the snapshot, or makes it beside them.
            self._snapshot.with_suffix(".lock").unlink(missing_ok=True)
            self._making.close()
            self._making = None

    def close(self) -> None:
        if self._new_snapshot is not None:
            self._new_snapshot.unlink(missing_ok=True)
        self._stop_making()
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


class TrustedRunner:
    """A runner for an author's own code (`fresh=False`), started on its first run: the stages of a check (the
    solutions, the mutants, the generated scenarios) share one instead of each starting its own, and a check whose
    verdicts all come from the cache starts none. The author's programs share its interpreter, as a learner's runs
    do in the page (the guard still checks every case)."""

    def __init__(self, project: Project):
        self._project = project
        self._runner = None

    def run(self, **request) -> list[dict]:
        if self._runner is None:
            self._runner = PyodideRunner(self._project, fresh=False)
        return self._runner.run(**request)

    def close(self) -> None:
        if self._runner is not None:
            self._runner.close()
            self._runner = None

    def __enter__(self) -> TrustedRunner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
