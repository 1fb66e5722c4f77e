"""The front end's own unit tests (node --test), run from pytest so one command runs everything."""

from __future__ import annotations

import subprocess

from tests.helpers import ROOT


def test_front_end_unit_tests_pass():
    proc = subprocess.run(["node", "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "# fail 0" in proc.stdout
