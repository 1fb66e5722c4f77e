"""Shared fixtures. Browser fixtures live in tests/browser/conftest.py."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def pyodide_runner():
    """One Pyodide under Node for the whole session: it takes seconds to load."""
    from loopcraft.pyodide import PyodideRunner

    with PyodideRunner() as runner:
        yield runner
