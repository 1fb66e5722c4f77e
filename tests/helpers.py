"""Helpers shared by tests."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REGEN = os.environ.get("LOOPCRAFT_REGEN_GOLDEN") == "1"


def check_golden(path: Path, text: str) -> None:
    """Compare with a golden file; LOOPCRAFT_REGEN_GOLDEN=1 rewrites it instead."""
    if REGEN or not path.exists():
        path.write_text(text, encoding="utf-8")
        if not REGEN:
            pytest.fail(f"{path} did not exist and was written; review and commit it")
        return
    assert text == path.read_text(encoding="utf-8"), f"{path} differs; run with LOOPCRAFT_REGEN_GOLDEN=1 to accept"
