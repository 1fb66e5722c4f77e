"""Rendering the course: the index in parts, links across parts, and the reference solution published
encrypted under a key only a run that passes every case can rebuild.

Regenerate the golden pages with: LOOPCRAFT_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/unit/test_render_course.py
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import re

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from grader.canonical import canonical_json
from loopcraft.course.cases import salt
from loopcraft.course.course import Part
from loopcraft.course.load import load_course
from loopcraft.site.render import (
    _highlight_fence,
    challenge_context,
    challenge_inputs,
    index_context,
    positional_parameters,
    render_pages,
    solution_key,
)
from tests.helpers import FIXTURES, GOLDEN, ROOT, check_golden, the_track

PAGES = GOLDEN / "pages"


def page_data(html: str) -> dict:
    return json.loads(
        re.search(r'<script type="application/json" id="exercise-data">(.*?)</script>', html, re.S).group(1)
    )


def decrypt(secret: dict, key: bytes) -> str:
    plain = AESGCM(key).decrypt(base64.b64decode(secret["iv"]), base64.b64decode(secret["ciphertext"]), None)
    return plain.decode("utf-8")


@pytest.fixture(scope="module")
def fixture_track():
    (track,) = load_course(FIXTURES / "valid")
    return track


def test_the_key_from_the_expected_values_decrypts_the_solution(fixture_track):
    add, _ = fixture_track.exercises
    secret = challenge_context(challenge_inputs(fixture_track, add, None, None))["page_data"]["solution"]
    assert secret["salt"] == salt(add)
    # What the page does (solution.js): each case's expectation text, a hidden one's from the outcome that matched
    # its digest, joined as a list.
    texts = [f'{{"value":{canonical_json(case.expected)}}}' for case in add.cases]
    material = secret["salt"] + "[" + ",".join(texts) + "]"
    key = hashlib.sha256(material.encode("utf-8")).digest()
    assert key == solution_key(secret["salt"], add.cases)
    assert decrypt(secret, key) == add.solution_source


def test_a_run_that_fails_one_hidden_case_cannot_decrypt(fixture_track):
    add, _ = fixture_track.exercises
    secret = challenge_context(challenge_inputs(fixture_track, add, None, None))["page_data"]["solution"]
    assert add.cases[-1].hidden
    wrong = dataclasses.replace(add.cases[-1], expected=3)
    with pytest.raises(InvalidTag):
        decrypt(secret, solution_key(secret["salt"], [*add.cases[:-1], wrong]))


def test_the_encryption_is_reproducible(fixture_track):
    add, double = fixture_track.exercises
    first = challenge_context(challenge_inputs(fixture_track, add, None, double))["page_data"]["solution"]
    assert first == challenge_context(challenge_inputs(fixture_track, add, None, double))["page_data"]["solution"]
    # Another solution means another salt, so another key and nonce.
    changed = dataclasses.replace(add, solution_source=add.solution_source + "# changed\n")
    assert (
        challenge_context(challenge_inputs(fixture_track, changed, None, double))["page_data"]["solution"]["iv"]
        != first["iv"]
    )


def test_the_index_shows_parts_with_challenges_numbered_across_them(fixture_track, tmp_path):
    add, double = fixture_track.exercises
    track = dataclasses.replace(fixture_track, parts=[Part("First steps", [add]), Part("Going further", [double])])
    pages = render_pages(ROOT / "templates", [track], "test")
    index = pages["index.html"]
    assert re.search(r"Part 1</span> First steps.*Part 2</span> Going further", index, re.S)
    numbers = re.findall(
        r'data-slug="(\w+)".*?<span class="challenge-number" aria-hidden="true">(\d+)</span>', index, re.S
    )
    assert numbers == [("add", "1"), ("double", "2")]
    assert 'data-testid="progress"' in index and "0 of 2 done" in index
    assert 'src="assets/index.js?v=test"' in index
    # Up next goes from the last challenge of one part to the first of the next, and back.
    first, second = pages["basics/add/index.html"], pages["basics/double/index.html"]
    assert re.search(r'data-testid="up-next" href="../../basics/double/">Up next: Double', first)
    assert re.search(r'class="pager-prev" href="../../basics/add/"', second)
    assert 'href="../../index.html#track-basics">Back to the course' in second


def test_lessons_and_challenges_are_numbered_each_on_their_own():
    """Numbered across both, a course of 13 challenges had a "Challenge 19", and "challenge 7" was its fourth."""
    track = the_track()
    cards = [card for part in index_context([track])["tracks"][0]["parts"] for card in part["challenges"]]
    numbers = {kind: [card["number"] for card in cards if card["kind"] == kind] for kind in ("lesson", "challenge")}
    assert numbers == {
        "lesson": list(range(1, len(track.lessons) + 1)),
        "challenge": list(range(1, len(track.exercises) + 1)),
    }
    assert [card["number"] for card in cards if card["kind"] == "lab"] == [None]
    # "Start from my code for challenge N" names the earlier challenge by its number among the challenges.
    later = next(ex for ex in track.exercises if ex.builds_on)
    earlier = next(ex for ex in track.exercises if ex.slug == later.builds_on.slug)
    _, number, _ = challenge_inputs(track, later, None, None).builds_on
    assert number == track.exercises.index(earlier) + 1


def test_placeholders_in_a_tasks_code_block_are_not_drawn_as_syntax_errors():
    html = _highlight_fence('{"tool": "<tool name>", "arguments": {"<argument>": <value>, ...}}\n', "json", None)
    assert 'class="err"' not in html
    assert '<span class="ge">&lt;value&gt;</span>' in html and '<span class="ge">...</span>' in html
    # What the lexer reads stays as it was: a key, a string.
    assert '<span class="nt">"tool"</span>' in html


def test_a_challenge_page_names_the_parameters_a_scenario_may_give_by_position():
    assert positional_parameters("run_agent(task, script, max_steps=5, *, strict=False, **options) -> dict") == [
        "task",
        "script",
        "max_steps",
    ]
    assert positional_parameters("f(a, /, b)") == positional_parameters("def f(a: int, /, b: int) -> int") == ["a", "b"]
    assert positional_parameters("run_agent(goal, faults=(1, 2)) -> dict, which runs your policy(goal) -> dict") == [
        "goal",
        "faults",
    ]
    assert positional_parameters("not python(") == []


def test_hints_are_rendered_hidden_for_the_page_to_reveal(fixture_track):
    add, _ = fixture_track.exercises
    with_hints = dataclasses.replace(add, hints=["Use `plus`.", "Return <b>it</b>."])
    pages = render_pages(
        ROOT / "templates", [dataclasses.replace(fixture_track, parts=[Part("P", [with_hints])])], "test"
    )
    html = pages["basics/add/index.html"]
    assert html.count('<li class="hint-item prose" hidden>') == 2
    assert "<code>plus</code>" in html and "Return &lt;b&gt;it&lt;/b&gt;." in html  # authors' raw HTML is text
    assert 'data-testid="hint-button" hidden>Show a hint (1 of 2)</button>' in html


def test_pages_match_the_golden_ones(fixture_track):
    """The fixture course rendered with the production templates, as learners get it: any change to a page's
    context or to the templates shows here as a diff to review."""
    add, double = fixture_track.exercises
    track = dataclasses.replace(fixture_track, parts=[Part("First steps", [add]), Part("Going further", [double])])
    pages = render_pages(ROOT / "templates", [track], "golden")
    PAGES.mkdir(parents=True, exist_ok=True)
    assert sorted(pages) == ["404.html", "basics/add/index.html", "basics/double/index.html", "index.html"]
    for page, html in pages.items():
        check_golden(PAGES / page.replace("/", "__"), html)
