"""The benchmark runs end to end on a tiny setting and writes what it says it writes. No time is asserted: only
ratios of things measured side by side in the same run whose order is structural, by a wide margin on any machine
(a memory snapshot restored against Python booted; a warm re-run against a first start; bytes, which do not move)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from tests.helpers import ROOT


def bench(script: str, *args: str) -> str:
    """What `bench/SCRIPT ARGS` prints; it must exit 0."""
    done = subprocess.run(
        [sys.executable, f"bench/{script}", *args], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_bench_runs_and_writes_its_results(tmp_path):
    out = tmp_path / "latest.json"
    printed = bench("run.py", "--quick", "--out", str(out))
    result = json.loads(out.read_text())
    (network,) = result["browser"].values()
    for key in (
        "floor",
        "restore_floor_first",
        "restore_floor",
        "kept_restore_floor",
        "editor",
        "ready",
        "first_verdict",
        "second_visit",
        "closed_early",
        "kept_ready",
        "kept_second_visit",
        "next_page",
        "kept_next_page",
        "rerun",
        "bytes",
        "floor_bytes",
        "kept_bytes",
    ):
        assert isinstance(network[key], (int, float)) and network[key] >= 0, key
    # A first visit, incognito-like or in a profile kept on disk, restores the snapshot the site ships. The first page
    # of the last visit was closed 1 s after Python was ready: whether it had kept its 13 MB copy of the snapshot by
    # then is timing (a busy machine took longer, and the next page restored the site's), not asserted; that a first
    # visit keeps it is tests/browser/test_learner.py's (test_a_first_visit_keeps_pythons_snapshot_...).
    starts = network["samples"]["starts"]
    assert starts["first_visit"] == starts["kept_first_visit"] == ["shipped"]
    assert starts["closed_early"][0] in {"restored", "shipped"}
    # Whether the service worker it registered (once Python was ready) had cached the site by then: timing, not asserted.
    assert network["samples"]["closed_early_served_by"][0] in {"sw", "network"}
    # Times are reported, never judged here: how they compare is the machine's and the clock's (the benchmark's own
    # runs, in docs/performance.md, judge the goals). Every row the benchmark reports is there.
    for key in ("restore_floor_first", "restore_floor", "kept_restore_floor"):
        assert network[key] >= 0, key
    # Where the second visit's time went, as its worker measured it; the page's share is the rest of it.
    for key in ("second_visit_phases", "kept_second_visit_phases"):
        phases = network[key]
        assert {"python", "grader", "snapshot", "page"} <= set(phases)
    # The page fetches what the floor fetches, the snapshot (as compressed), and its own code, which is small: bytes,
    # which the machine does not decide.
    site = result["site"]
    snapshot = site["snapshot_bytes"]
    assert 0 < snapshot["br"] < snapshot["gzip"] < snapshot["identity"] / 2
    own_code = network["bytes"] - network["floor_bytes"] - snapshot["br"]
    assert abs(network["kept_bytes"] - network["bytes"]) < 0.01 * network["bytes"]
    assert 0 < own_code < 0.2 * network["floor_bytes"]
    assert site["site_bytes"] > snapshot["identity"] and site["site_bytes_with_copies"] > site["site_bytes"]
    assert site["build_seconds"] >= 0 and site["snapshot_make_seconds"] >= 0
    assert set(result["build"]) == {"2", "4", "rebuild_one"}
    assert all(b["seconds"] >= 0 and b["peak_mb"] > 0 for b in result["build"].values())
    assert result["core_bytes"] > 0 and result["goals"]
    assert "goal" in printed


def test_the_fresh_interpreter_benchmark_runs_and_prints_its_ratio():
    printed = bench("fresh_interpreter.py", "--submissions", "2")
    # Reported, not judged: with two submissions the reset's CPU, read from /proc in 10 ms ticks, can be 0.
    assert re.search(r"reset / restore: [0-9.]+x in CPU", printed)
    assert re.search(r"reset: .*'reset': 3", printed)  # every submission after the first got a reset


def test_the_tiering_benchmark_runs_and_prints_its_ratios():
    printed = bench("tiering.py", "--rounds", "1", "--seconds", "0.3")
    # Reported, not judged: one round is too noisy for their goals; bench/tiering.py's own runs judge those.
    assert re.search(r"[0-9.]+x the default's CPU time \(goal: at most 0\.8x\)", printed)
    assert re.search(r"[0-9.]+x the default's speed \(goal: at least 0\.9x\)", printed)
