"""The benchmark runs end to end on a tiny setting. No timing is asserted: the numbers are for people."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers import ROOT

pytestmark = pytest.mark.bench


def test_bench_runs_and_writes_its_results(tmp_path):
    out = tmp_path / "latest.json"
    done = subprocess.run(
        [sys.executable, "bench/run.py", "--quick", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(out.read_text())
    (network,) = result["browser"].values()
    for key in ("floor", "editor", "ready", "first_verdict", "second_visit", "rerun", "bytes", "floor_bytes"):
        assert network[key] > 0, key
    assert set(result["build"]) == {"2", "4", "rebuild_one"}
    assert all(b["seconds"] > 0 and b["peak_mb"] > 0 for b in result["build"].values())
    assert result["core_bytes"] > 0 and result["goals"]
    assert "goal" in done.stdout


@pytest.mark.bench
def test_the_fresh_interpreter_benchmark_runs_and_prints_its_ratio():
    done = subprocess.run(
        [sys.executable, "bench/fresh_interpreter.py", "--submissions", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "x a plain load (goal: at most 0.25x)" in done.stdout


def test_the_tiering_benchmark_runs_and_prints_its_ratios():
    done = subprocess.run(
        [sys.executable, "bench/tiering.py", "--rounds", "1", "--seconds", "0.3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "x the default's CPU time (goal: at most 0.8x)" in done.stdout
    assert "x the default's speed (goal: at least 0.9x)" in done.stdout
