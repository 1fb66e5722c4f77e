"""The Node runner: the grader in real Pyodide (Python 3.14), time limits enforced both ways."""

from __future__ import annotations

import os
import shutil
import subprocess
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from grader.results import Status
from loopcraft.course.project import INSTALL as ROOT
from loopcraft.course.project import Project
from loopcraft.running import pyodide
from loopcraft.running.grading import run_only
from loopcraft.running.pyodide import PyodideRunner, RunnerError
from tests import hostile_corpus

LOOP = "def f():\n    while True:\n        pass\n"
# The time limit of a case that must finish: far above what any of them takes, so that a busy machine cannot make one
# time out. A case that must time out gets 0.25-0.5 s: what is under test is that it ends, not the limit's value.
FINISH_S = 10
STUBBORN = "def f():\n    while True:\n        try:\n            while True:\n                pass\n        except BaseException:\n            pass\n"


def run(runner, source, args: list[dict], time_limit=FINISH_S, entry="f", sandbox="", budget=None):
    """The verdicts of `source` called once per mapping of `args`, each case expecting nothing (a value passes)."""
    return run_only(
        runner, source=source, sandbox=sandbox, entry=entry, args=args, time_limit=time_limit, budget=budget
    )


def one(runner, source, time_limit=FINISH_S, entry="f", sandbox="", args=None):
    return run(runner, source, [args or {}], time_limit, entry, sandbox)[0]


def test_verdicts_come_from_python_3_14(pyodide_runner):
    outcome = one(
        pyodide_runner,
        "import json, sys\ndef f():\n    try:\n        json.loads('{\"a\": 1,}')\n    except ValueError as e:\n        return [sys.version_info[:2], e.msg]\n",
    )
    assert outcome.actual == [[3, 14], "Illegal trailing comma before end of object"]


def test_an_infinite_loop_is_interrupted_and_the_next_case_runs(pyodide_runner):
    # The second case finds what the first left in its interpreter: it was interrupted, not replaced.
    outcomes = run(
        pyodide_runner,
        "import sys\ndef f(n):\n    sys.left = getattr(sys, 'left', 0) + 1\n    while n:\n        pass\n    return sys.left\n",
        [{"n": 1}, {"n": 0}],
        time_limit=0.5,
    )
    assert [o.status for o in outcomes] == [Status.TIMEOUT, Status.PASS]
    assert outcomes[1].actual == 2


def test_a_loop_that_swallows_the_interrupt_gets_a_new_worker(pyodide_runner):
    assert one(pyodide_runner, STUBBORN, time_limit=0.25).status is Status.TIMEOUT
    assert one(pyodide_runner, "def f():\n    return 7\n").actual == 7


def test_without_an_interrupt_buffer_the_worker_is_restarted():
    with PyodideRunner(Project(), interrupt=False) as runner:
        assert one(runner, LOOP, time_limit=0.25).status is Status.TIMEOUT
        assert one(runner, "def f():\n    return 'alive'\n").actual == "alive"


def test_deep_recursion_is_an_error_and_python_survives(pyodide_runner):
    outcome = one(pyodide_runner, "def f(n=0):\n    return f(n + 1)\n")
    assert outcome.status is Status.ERROR and "RecursionError" in outcome.message
    assert one(pyodide_runner, "def f():\n    return 1\n").actual == 1


def test_no_javascript_object_is_reachable_from_learner_code(pyodide_runner):
    for _ in range(2):  # the first interpreter of the runner and one restored for a later submission
        walk = hostile_corpus.named(hostile_corpus.JAVASCRIPT_WALK).source
        result = one(pyodide_runner, walk, entry="walk_for_javascript", time_limit=60).actual
        assert result["walked"] > 20_000 and result["javascript"] == []


def test_every_submission_gets_a_fresh_interpreter_and_the_first_is_made_before_learner_code(pyodide_runner):
    leaves = "import sys, builtins\ndef f():\n    seen = [getattr(sys, 'left', None), hasattr(builtins, 'left')]\n    sys.left = 1\n    return seen\n"
    assert [one(pyodide_runner, leaves).actual for _ in range(3)] == [[None, False]] * 3


def test_runners_started_together_boot_python_once_and_keep_the_snapshot_for_the_next_trusted_or_not(tmp_path):
    project = Project(snapshots=tmp_path)
    leaves = "import sys\ndef f():\n    seen = getattr(sys, 'left', None)\n    sys.left = 1\n    return seen\n"
    counts = "import sys\ndef f():\n    sys.runs = getattr(sys, 'runs', 0) + 1\n    return sys.runs\n"

    def first_submissions(_) -> str:
        with PyodideRunner(project) as runner:
            assert [one(runner, leaves).actual for _ in range(2)] == [None, None]
        return runner.snapshot

    with ThreadPoolExecutor(2) as pool:  # as `python -m grader class --jobs 2` on a machine without a snapshot
        # The one that waited restored the snapshot the other made: kept for the next runner, as it is below.
        assert sorted(pool.map(first_submissions, range(2))) == ["kept", "made"]
    kept = list(tmp_path.iterdir())
    assert len(kept) == 1 and kept[0].suffix == ".bin" and kept[0].stat().st_size > 1_000_000  # no temporary left
    with PyodideRunner(project, fresh=False) as trusted:
        # Trusted code shares one interpreter, restored from the snapshot as a fresh runner's first is.
        assert [one(trusted, counts).actual for _ in range(3)] == [1, 2, 3]
    assert trusted.snapshot == "kept"


def test_a_kept_snapshot_that_cannot_be_restored_is_dropped_and_grading_goes_on(tmp_path):
    project = Project(snapshots=tmp_path)
    broken = pyodide.snapshot_file(pyodide.find_node(project), project)
    broken.write_bytes(b"not a memory snapshot" * 1000)
    with PyodideRunner(project) as runner:
        assert [one(runner, "def f():\n    return 6 * 7\n").actual for _ in range(2)] == [42, 42]
    assert runner.snapshot == "unusable" and not broken.exists()  # the next runner makes one (the test above)


def test_cases_of_one_submission_share_the_interpreter_unless_one_tampers(pyodide_runner):
    source = "import sys\ndef f(tamper):\n    sys.count = getattr(sys, 'count', 0) + 1\n    if tamper:\n        sys.setrecursionlimit(50)\n    return sys.count\n"
    outcomes = run(pyodide_runner, source, [{"tamper": i == 1} for i in range(3)])
    assert outcomes[0].actual == 1
    assert "the recursion limit changed" in outcomes[1].message
    assert outcomes[2].actual == 1  # the interpreter reset in place after the tampering case


def probe_env(monkeypatch, module: str) -> None:
    """Preloads `module` (JavaScript) into the runner's main thread and every worker thread, as Node's
    --import does: a way into the real runner process that only a test, setting its environment, has."""
    monkeypatch.setenv("NODE_OPTIONS", "--import=data:text/javascript," + urllib.parse.quote(module))


PERMISSION_PROBE = """
import { isMainThread } from "node:worker_threads";
import { execFileSync } from "node:child_process";
import { writeFileSync, readFileSync } from "node:fs";
const target = process.env.PROBE_TARGET;
const tries = {
  child: () => execFileSync("/bin/true"),
  write: () => writeFileSync(target, "written"),
  read: () => readFileSync(process.env.PROBE_SECRET),
  page: () => readFileSync(process.env.PROBE_PAGE),
};
const report = {};
for (const [name, attempt] of Object.entries(tries)) {
  try { attempt(); report[name] = "allowed"; } catch (error) { report[name] = error.code ?? String(error); }
}
console.error(`PROBE ${isMainThread ? "main" : "worker"} ${JSON.stringify(report)}`);
"""


def test_the_runners_front_end_is_its_scripts_and_every_module_they_import(tmp_path):
    frontend = tmp_path / "frontend"
    (frontend / "src").mkdir(parents=True)
    (frontend / "node-runner.mjs").write_text('import { a } from "./src/a.js";\nimport "node:fs";\n')
    (frontend / "node-worker.mjs").write_text('import {\n  b,\n} from "./src/b.js";\n// import "./src/not.js";\n')
    (frontend / "src" / "a.js").write_text('export { c } from "./c.js";\nimport * as b from "./b.js";\n')
    (frontend / "src" / "b.js").write_text("export const b = 1;\n")
    (frontend / "src" / "c.js").write_text('const where = "./not.js";\n')
    found = [path.relative_to(frontend.resolve()).as_posix() for path in pyodide.runner_files(frontend)]
    assert found == ["node-runner.mjs", "node-worker.mjs", "src/a.js", "src/b.js", "src/c.js"]
    real = [path.name for path in pyodide.runner_files(ROOT / "frontend")]
    assert {"worker-core.js", "reset.js", "same-bytes.js", "session.js", "cli-options.mjs"} <= set(real)


def test_the_runner_process_may_not_start_a_child_process_write_or_read_outside_what_it_loads(monkeypatch, tmp_path):
    target = tmp_path / "written.txt"
    monkeypatch.setenv("PROBE_TARGET", str(target))
    monkeypatch.setenv("PROBE_SECRET", str(ROOT / "exercises" / "build-an-agent" / "track.yaml"))
    monkeypatch.setenv("PROBE_PAGE", str(ROOT / "frontend" / "src" / "app.js"))  # the front end, not the runner's part
    probe_env(monkeypatch, PERMISSION_PROBE)
    # The probe itself works: without the permission model, node lets it do all three.
    unrestricted = subprocess.run(["node", "-e", ""], capture_output=True, text=True, timeout=60)
    assert 'PROBE main {"child":"allowed","write":"allowed","read":"allowed","page":"allowed"}' in unrestricted.stderr
    target.unlink()
    with PyodideRunner(Project()) as runner:
        assert one(runner, "def f():\n    return 1\n").actual == 1
        said = "\n".join(runner._diagnostics)
    denied = '{"child":"ERR_ACCESS_DENIED","write":"ERR_ACCESS_DENIED","read":"ERR_ACCESS_DENIED","page":"ERR_ACCESS_DENIED"}'
    assert f"PROBE main {denied}" in said and f"PROBE worker {denied}" in said
    assert not target.exists()


def test_stray_output_from_a_worker_thread_breaks_nothing(monkeypatch):
    # A worker that prints, on stdout and stderr, lines that look like the runner's replies.
    probe_env(
        monkeypatch,
        """
import { isMainThread } from "node:worker_threads";
if (!isMainThread) {
  const forge = () => { console.log('{"id": 1, "outcomes": []}'); console.error('{"ready": false, "error": "forged"}'); };
  forge();
  setInterval(forge, 5).unref();
}
""",
    )
    with PyodideRunner(Project()) as runner:
        for expected in (1, 2):
            assert one(runner, f"def f():\n    print('{{\"id\": 9}}')\n    return {expected}\n").actual == expected
        assert any("forged" in line for line in runner._diagnostics)


def test_a_reply_that_is_not_json_is_an_error_naming_the_runner(monkeypatch):
    probe_env(
        monkeypatch,
        """
import { isMainThread } from "node:worker_threads";
import { writeSync } from "node:fs";
if (isMainThread) writeSync(Number(process.argv[process.argv.indexOf("--replies") + 1]), "garbage\\n");
""",
    )
    with (
        PyodideRunner(Project()) as runner,
        pytest.raises(RunnerError, match=r"frontend/node-runner.mjs\) sent a reply that is not JSON"),
    ):
        one(runner, "def f():\n    return 1\n")


def test_a_value_too_deep_or_too_big_is_an_error_for_that_case_only(pyodide_runner):
    deep = "def f(kind):\n    v = []\n    for _ in range(3000):\n        v = [v]\n    return {'deep': v, 'int': 7 ** 5917, 'ok': 1}[kind]\n"
    outcomes = run(pyodide_runner, deep, [{"kind": k} for k in ("deep", "int", "ok")])
    assert "nested more than 100 levels deep" in outcomes[0].message
    assert "an int of more than 1,000 digits" in outcomes[1].message
    assert outcomes[2].actual == 1


# --- A runner nothing a submission does can end --------------------------------------------------------------------

# Preloaded into every worker thread (probe_env): the ways a worker can fail that learner code no longer has (see
# the corpus's kills_its_worker.py and rejects_a_promise_through_the_ffi.py), set off by a case's arguments. Its
# listener goes in just before the worker's own (listening earlier would take messages the worker is not yet
# there to hear), and so runs first, in the same task.
FAILING_WORKER = """
import { isMainThread, parentPort } from "node:worker_threads";
if (!isMainThread) {
  let armed = false;
  const fail = (message) => {
    const how = message.type === "run-case" ? JSON.parse(message.run.args).fail : message.type === "renew" && armed ? "die" : null;
    if (how === "die") process.exit(7);
    if (how === "reject") Promise.reject(new Error("a promise left rejected"));
    if (how === "throw") setImmediate(() => { throw new Error("thrown after the case"); });
    if (how === "die-at-renew") armed = true;
  };
  const on = parentPort.on.bind(parentPort);
  parentPort.on = (event, listener) => (event === "message" && on("message", fail), on(event, listener));
}
"""
ALIVE = "import sys\ndef f(fail=None):\n    return sys.version_info[0]\n"


def fail(runner, *hows):
    return run(runner, ALIVE, [{"fail": how} for how in hows])


@pytest.fixture(scope="module")
def failing_project(tmp_path_factory) -> Project:
    """A project with a copy of the grader of its own, which a test deletes while `failing_runner` runs."""
    root = tmp_path_factory.mktemp("failing")
    shutil.copytree(ROOT / "grader", root / "grader", ignore=shutil.ignore_patterns("__pycache__"))
    return Project(root)


@pytest.fixture(scope="module")
def failing_runner(failing_project):
    """One runner for the tests of failing workers (each starts a runner's worth of CPU otherwise): whatever a test
    leaves of it, the runner goes on, which is what they are about."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        probe_env(monkeypatch, FAILING_WORKER)
        with PyodideRunner(failing_project) as runner:
            yield runner


def test_a_worker_that_dies_during_a_case_costs_that_case_only_and_a_new_worker_goes_on(failing_runner):
    died, after = fail(failing_runner, "die", None)
    assert died.status is Status.ERROR
    assert died.message == (
        "The grader's Python stopped while running this case, so it has no result: "
        "its worker thread ended (exit code 7)."
    )
    assert after.actual == 3
    assert [o.actual for o in fail(failing_runner, None)] == [3]


def test_a_runner_keeps_the_grader_it_started_with_for_every_worker_it_starts(failing_runner, failing_project):
    """A runner is lent to any project whose grader has the same bytes (loopcraft.running.grading.Runners.key): a worker it
    starts later must load the grader the runner started with, not whatever the files on disk say by then."""
    assert fail(failing_runner, None)[0].actual == 3  # started, its grader read
    shutil.rmtree(failing_project.grader_root / "grader")
    died, after = fail(failing_runner, "die", None)
    assert (
        died.message.startswith("The grader's Python stopped") and after.actual == 3
    )  # the new worker has the grader all the same


def test_a_worker_that_dies_between_submissions_costs_no_verdict(failing_runner):
    assert [o.actual for o in fail(failing_runner, "die-at-renew", None)] == [3, 3]
    # The next submission's renew ends the worker; a new one grades it.
    assert [o.actual for o in fail(failing_runner, None, None)] == [3, 3]


def test_what_fails_in_the_worker_after_a_case_returned_ends_that_case_as_a_crash(failing_runner):
    rejected, thrown, after = fail(failing_runner, "reject", "throw", None)
    assert rejected.message == "Python crashed while running your code: a promise left rejected"
    assert thrown.message == "Python crashed while running your code: thrown after the case"
    assert after.actual == 3


def test_a_request_over_its_cap_is_not_sent_and_its_cases_are_errors(pyodide_runner):
    huge = "x = 1\n" * (pyodide.REQUEST_BYTES // 6 + 1)
    outcomes = run(pyodide_runner, huge, [{}] * 2)
    assert {o.status for o in outcomes} == {Status.ERROR}
    assert outcomes[0].message.startswith("This submission is too large to grade: sending it with its cases takes")
    assert one(pyodide_runner, "def f():\n    return 1\n").actual == 1


def test_the_runner_refuses_a_request_line_over_its_cap_or_not_a_request_and_goes_on(pyodide_runner):
    for line in (b"x" * (pyodide.REQUEST_BYTES + 1), b"[1, 2]", b'{"id": 99, "cases": 3}'):
        pyodide_runner._proc.stdin.write(line + b"\n")
        pyodide_runner._proc.stdin.flush()
        with pytest.raises(RunnerError) as refused:
            pyodide_runner._read()
        assert refused.value.kind == "refused"
    assert one(pyodide_runner, "def f():\n    return 1\n").actual == 1


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        ([], "--pyodide is required"),
        (["--pyodide", "--replies", "3"], "argument is ambiguous"),
        (["--replies"], "argument missing"),
        (["--no-such-flag"], "Unknown option '--no-such-flag'"),
    ],
)
def test_the_runner_checks_its_arguments(argv, said):
    proc = subprocess.run(
        ["node", str(ROOT / "frontend" / "node-runner.mjs"), *argv], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2 and proc.stderr.startswith("node-runner.mjs: ") and said in proc.stderr


def test_the_runner_checks_a_numbers_argument():
    good = pyodide.runner_command(pyodide.find_node(Project()), Project(), 1, snapshot=None)
    bad = [*good[good.index(str(ROOT / "frontend" / "node-runner.mjs")) :], "--max-reply", "lots"]
    proc = subprocess.run(["node", *bad], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--max-reply must be a whole number" in proc.stderr


def test_a_submission_whose_every_case_loops_costs_its_budget(pyodide_runner):
    outcomes = run(pyodide_runner, LOOP, [{}] * 8, time_limit=0.25, budget=1)
    kinds = [o.status for o in outcomes]
    # Each case that ran used its whole limit, so at most four fit; the rest did not start.
    ran = kinds.index(Status.ERROR)
    assert 1 <= ran <= 4 and kinds == [Status.TIMEOUT] * ran + [Status.ERROR] * (8 - ran)
    assert outcomes[-1].message.startswith("Not run: this submission's cases had used up their 1 s of grading time")


def test_a_runner_that_says_nothing_is_stopped_and_reported_not_waited_for(monkeypatch):
    # No runner can boot Python in 50 ms: this one is silent for longer than it may be, as a hung one is for good.
    monkeypatch.setattr(pyodide, "SILENCE_S", 0.05)
    with pytest.raises(RunnerError) as raised:
        with PyodideRunner(Project()) as runner:
            one(runner, "def f():\n    return 1\n")
    assert raised.value.kind == "start" and "said nothing for 0.05 s and was stopped" in str(raised.value)


def test_a_new_snapshot_keeps_the_last_used_of_its_kind_and_deletes_the_older(tmp_path):
    # Every grader edit makes a runner's and a site's snapshot (31 and 13 MB): without pruning they pile up for good.
    def kept(name: str, age_s: int) -> Path:
        path = tmp_path / name
        path.write_bytes(b"snapshot")
        os.utime(path, (1_000_000 - age_s, 1_000_000 - age_s))
        return path

    runners = [kept(f"{i}.bin", age_s=i) for i in range(5)]  # 0.bin used last
    sites = [kept(f"site-{i}.bin", age_s=i) for i in range(5)]
    lock = kept("9.lock", age_s=99)
    pyodide.used(runners[4])  # the oldest, used now: kept
    new = kept("new.bin", age_s=0)
    pyodide.keep_recent(new)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["new.bin", "4.bin", "0.bin", "9.lock"] + [p.name for p in sites]
    )
    pyodide.keep_recent(sites[0])
    assert sorted(p.name for p in tmp_path.glob("site-*")) == ["site-0.bin", "site-1.bin", "site-2.bin"]
    assert lock.exists()
