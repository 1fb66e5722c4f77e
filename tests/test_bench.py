"""The benchmark runs end to end on a tiny setting. No timing is asserted: the numbers are for people."""

from __future__ import annotations

import json
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
    assert set(result["build"]) == {"2", "4", "rebuild_one"}
    assert all(b["seconds"] > 0 and b["peak_mb"] > 0 for b in result["build"].values())
    assert result["core_bytes"] > 0 and result["goals"]
    assert "goal" in printed


def test_the_fresh_interpreter_benchmark_runs_and_prints_its_ratio():
    assert "x a plain load (goal: at most 0.25x)" in bench("fresh_interpreter.py", "--submissions", "2")


def test_the_tiering_benchmark_runs_and_prints_its_ratios():
    printed = bench("tiering.py", "--rounds", "1", "--seconds", "0.3")
    assert "x the default's CPU time (goal: at most 0.8x)" in printed
    assert "x the default's speed (goal: at least 0.9x)" in printed
