"""The stylesheet, read as text: what the browser tests of both themes (tests/browser/test_a11y.py) rely on for pages
they do not open. Not a browser test: it opens nothing, so it runs in `make test-fast` too."""

from __future__ import annotations

import re

from tests.helpers import ROOT


def test_the_stylesheet_keeps_every_colour_in_custom_properties():
    # Other pages inherit both themes only if colours are never written outside the properties.
    css = (ROOT / "frontend/src/style.css").read_text()
    rules = css[css.index(':root[data-theme="dark"]') :]
    assert not re.findall(r"#[0-9a-fA-F]{3,8}\b", rules)
