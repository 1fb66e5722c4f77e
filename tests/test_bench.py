"""The benchmark runs end to end on a tiny setting and writes what it says it writes. No time is asserted: only
ratios of things measured side by side in the same run whose order is structural, by a wide margin on any machine
(a memory snapshot restored against Python booted; a warm re-run against a first start; bytes, which do not move)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from tests.helpers import ROOT

pytestmark = pytest.mark.bench


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
        "editor",
        "ready",
        "first_verdict",
        "second_visit",
        "closed_early",
        "rerun",
        "bytes",
        "floor_bytes",
    ):
        assert network[key] > 0, key
    # The first page of that visit was closed 1 s after Python was ready: the second restored what it kept.
    assert network["samples"]["closed_early_starts"] == ["restored"]
    # Whether the service worker it registered (once Python was ready) had cached the site by then: timing, not asserted.
    assert network["samples"]["closed_early_served_by"][0] in {"sw", "network"}
    # A second visit restores what a boot makes (the floor boots: 4-6x as long here); a warm re-run of every case
    # is tens of milliseconds against a first verdict's seconds; the page fetches what the floor fetches, and its own
    # code, which is small.
    assert network["second_visit"] < network["floor"] and network["closed_early"] < network["floor"]
    # Where the second visit's time went, as its worker measured it; the page's share is the rest of it.
    phases = network["second_visit_phases"]
    assert {"python", "grader", "snapshot", "cut", "settle", "page"} <= set(phases) and phases["python"] > 0
    assert network["rerun"] < network["first_verdict"] / 5
    assert 1 <= network["bytes"] / network["floor_bytes"] < 1.3
    assert set(result["build"]) == {"2", "4", "rebuild_one"}
    assert all(b["seconds"] > 0 and b["peak_mb"] > 0 for b in result["build"].values())
    assert result["core_bytes"] > 0 and result["goals"]
    assert "goal" in printed


def test_the_fresh_interpreter_benchmark_runs_and_prints_its_ratio():
    printed = bench("fresh_interpreter.py", "--submissions", "2")
    ratio = float(re.search(r"reset / restore: ([0-9.]+)x in CPU", printed).group(1))
    assert ratio > 0  # two submissions are too few for the goal: the benchmark's own runs judge it
    assert re.search(r"reset: .*'reset': 3", printed)  # every submission after the first got a reset


def test_the_tiering_benchmark_runs_and_prints_its_ratios():
    printed = bench("tiering.py", "--rounds", "1", "--seconds", "0.3")
    cpu = float(re.search(r"([0-9.]+)x the default's CPU time \(goal: at most 0\.8x\)", printed).group(1))
    speed = float(re.search(r"([0-9.]+)x the default's speed \(goal: at least 0\.9x\)", printed).group(1))
    assert cpu > 0 and speed > 0  # one round is too noisy for their goals: bench/tiering.py's own runs judge those
