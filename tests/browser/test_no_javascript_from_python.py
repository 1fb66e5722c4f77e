"""In the page's worker, as under Node: from a learner's namespace, nothing the garbage collector or
sys.modules reaches is a JavaScript object (tests/pyodide/test_pyodide_runner.py proves it under Node)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests import hostile_corpus
from tests.browser.test_learner import open_challenge, run_and_wait

# The walk runs in the one case whose task is "maths" (it takes a second or so); the other cases return {}.
SOLUTION = (
    hostile_corpus.named(hostile_corpus.JAVASCRIPT_WALK).source
    + """

def run_agent(task, script, **options):
    return walk_for_javascript() if task == "maths" else {}
"""
)


@pytest.mark.browser
def test_no_javascript_object_is_reachable_from_learner_code_in_the_page(page: Page, site_url: str, tmp_path):
    path = tmp_path / "walk.py"
    path.write_text(SOLUTION, encoding="utf-8")
    open_challenge(page, site_url, "consecutive-error-limit")
    page.get_by_test_id("upload").set_input_files(path)
    run_and_wait(page)
    walked = [
        t["actual"] for t in page.evaluate("window.loopcraft.lastResult")["tests"] if t.get("actual", {}).get("walked")
    ]
    assert len(walked) == 1
    assert walked[0]["walked"] > 20_000 and walked[0]["javascript"] == []
