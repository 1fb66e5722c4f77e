"""A test's tier is the folder of tests/ it is in (tests/conftest.py, `tier`): the marker `make test-unit`,
`make test-fast` and `make test` select by, with no list to keep; a test file outside the tiers' folders is refused."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.conftest import TIERS, tier
from tests.helpers import ROOT


def at(*parts: str) -> SimpleNamespace:
    """What `tier` reads of a collected test: its file's path."""
    return SimpleNamespace(path=ROOT.joinpath("tests", *parts))


def test_a_tests_tier_is_the_first_folder_of_its_path_under_tests():
    assert TIERS == ("unit", "pyodide", "integration", "browser")
    for name in TIERS:
        assert tier(at(name, "test_anything.py")) == name
    assert tier(at("unit", "deeper", "test_anything.py")) == "unit"


@pytest.mark.parametrize("parts", [("test_anything.py",), ("js", "test_anything.py"), ("fixtures", "test_anything.py")])
def test_a_test_file_outside_the_tiers_folders_is_refused_naming_it_and_the_folders(parts):
    with pytest.raises(pytest.UsageError) as refused:
        tier(at(*parts))
    assert str(refused.value) == (
        f"{ROOT.joinpath('tests', *parts)}: a test file belongs in one of "
        "tests/unit, tests/pyodide, tests/integration, tests/browser"
    )
