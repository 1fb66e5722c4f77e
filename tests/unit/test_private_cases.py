"""Private cases (`private: true`): graded by the CLI and the build's checks, never published in any form."""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from loopcraft.course.cases import salt
from loopcraft.course.course import Case
from loopcraft.course.errors import ExerciseError
from loopcraft.course.load import find_exercise, load_course
from loopcraft.running.grading import request_case
from loopcraft.site.render import challenge_context, challenge_inputs, solution_key
from tests.helpers import FIXTURES

PRIVATE = """\
  - name: a secret sum of big numbers
    args: {a: 1000, b: 234}
    expected: 1234
    private: true
"""


@pytest.fixture
def track(tmp_path: Path) -> Path:
    """The fixture track `basics`, its `add` given a private case."""
    track = tmp_path / "exercises/basics"
    shutil.copytree(FIXTURES / "valid/exercises/basics", track)
    with (track / "add/exercise.yaml").open("a", encoding="utf-8") as f:
        f.write(PRIVATE)
    return track


def test_a_private_case_is_loaded_as_a_hidden_one(track: Path):
    ex = find_exercise(track.parent.parent, str(track / "add"))
    case = ex.cases[-1]
    assert (case.name, case.private, case.hidden) == ("a secret sum of big numbers", True, True)
    assert not any(c.private for c in ex.cases[:-1])


def test_a_private_case_cannot_be_shown(track: Path):
    yaml = track / "add/exercise.yaml"
    yaml.write_text(yaml.read_text().replace("    private: true\n", "    private: true\n    hidden: false\n"))
    with pytest.raises(ExerciseError) as caught:
        find_exercise(track.parent.parent, str(track / "add"))
    line = yaml.read_text().splitlines().index("    hidden: false") + 1
    assert f"add/exercise.yaml:{line}: cases[3]: a private case is never shown, so it cannot be `hidden: false`" in str(
        caught.value
    )


def test_the_page_counts_private_cases_and_carries_nothing_else_of_them(track: Path):
    (course,) = load_course(track.parent.parent)
    ex = next(e for e in course.exercises if e.slug == "add")
    context = challenge_context(challenge_inputs(course, ex, None, None))
    page = context["page_data"]
    assert [c["name"] for c in page["cases"]] == ["small numbers", "text stays text", "negative"]
    assert context["ex"]["private_count"] == 1 and context["ex"]["hidden_count"] == 1
    assert "a secret sum" not in json.dumps(context["ex"], default=str)
    # The reference solution unlocks with the values of the published cases: the page never has the others.
    secret = page["solution"]
    key = solution_key(salt(ex), [c for c in ex.cases if not c.private])
    plain = AESGCM(key).decrypt(base64.b64decode(secret["iv"]), base64.b64decode(secret["ciphertext"]), None)
    assert plain.decode() == ex.solution_source


def test_a_private_case_is_hidden_however_it_is_made_and_the_judge_is_told_so():
    # The course model holds the rule; the judge (frontend/src/judge.js) and the verdicts read `hidden` as sent.
    case = Case("secret", {"a": 1, "b": 2}, 3, hidden=False, line=1, private=True)
    assert case.hidden
    sent = request_case(case, "add")
    assert (sent["hidden"], sent["private"]) == (True, True)
    assert request_case(case, "add", reveal_hidden=True)["hidden"] is False
