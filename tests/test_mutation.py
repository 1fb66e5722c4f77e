"""Mutation testing in `check`: mutants of a small exercise's solution run in real Pyodide; a weakened case set
fails the build with the survivor at its line of solution.py; equivalent marks; the cache.

Each test starts Pyodide under Node (seconds), so they share one project where they can.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from loopcraft import mutate
from loopcraft.cache import BuildCache
from loopcraft.exercises import load_course
from tests.helpers import FIXTURES, make_project
from tests.helpers import run_cli as run

COURSE = FIXTURES / "mutation/exercises"
YAML = "exercises/counting/count-below/exercise.yaml"
SOLUTION = "exercises/counting/count-below/solution.py"
BOUNDARY_CASE = """\
  - name: a number equal to the limit is not below it
    args: {numbers: [4, 2], limit: 4}
    expected: 1
"""
SURVIVOR = "`numbers[i] < limit` -> `numbers[i] <= limit`"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path, COURSE)


def test_mutants_name_the_line_and_the_change():
    source = (COURSE / "counting/count-below/solution.py").read_text()
    made = {(m.line, m.change): m.source for m in mutate.mutants(source)}
    assert "    if numbers[i] <= limit:\n" in made[7, SURVIVOR]
    assert "        continue\n" in made[6, "`break` -> `continue`"]
    assert (9, "`i += 1` removed") in made
    assert (2, "`0` -> `1`") in made
    # Swapped only where order matters: `i = 0` feeds the loop after it.
    assert (3, "`i = 0` swapped with the next statement") in made
    assert not any(change.endswith("swapped with the next statement") for line, change in made if line == 2)


def test_strong_cases_pass_the_bar_and_check_prints_the_score(project: Path, capsys: pytest.CaptureFixture):
    code, out, err = run(capsys, "check", "--root", str(project))
    assert code == 0, err
    assert "counting/count-below: mutation score 100% (32 of 32 killed; bar 100%)\n" in out
    assert "survives" not in err


def test_a_weakened_case_set_fails_with_the_survivor_at_its_line_until_marked_equivalent(
    project: Path, capsys: pytest.CaptureFixture
):
    yaml = project / YAML
    yaml.write_text(yaml.read_text().replace(BOUNDARY_CASE, ""))

    code, out, err = run(capsys, "check", "--root", str(project))

    assert code == 1
    assert "counting/count-below: mutation score 96.8% (31 of 32 killed; bar 100%)\n" in out
    assert err.splitlines() == [
        f"{YAML}:15: mutation score 96.8% is below the track's bar of 100%: add cases that catch the survivors "
        "in solution.py (or mark a mutant that cannot be caught as equivalent, with the reason)",
        f"{YAML}:16: note: case 'counts the numbers below' catches none of the wrong solutions",
        f"{YAML}:22: note: case 'no numbers' catches none of the wrong solutions",
        f"{SOLUTION}:7: {SURVIVOR} survives every case",
        "2 problem(s); nothing was written",
    ]

    # Marked equivalent (wrongly, but the build takes the author's word): no survivor, the bar is met, and the
    # mutants' verdicts come from the cache, since neither the solution nor the cases changed.
    mark = f'equivalent_mutants:\n  - line: 7\n    change: "{SURVIVOR}"\n    reason: for the test\ncases:\n'
    yaml.write_text(yaml.read_text().replace("cases:\n", mark))
    code, out, err = run(capsys, "check", "--root", str(project))
    assert code == 0, err
    assert "counting/count-below: mutation score 100% (31 of 31 killed, 1 equivalent; bar 100%) (cached)\n" in out

    # A mark for a mutant there is no longer is an error at the mark.
    yaml.write_text(yaml.read_text().replace("line: 7", "line: 8"))
    code, out, err = run(capsys, "check", "--root", str(project))
    assert code == 1
    assert (
        f"{YAML}:16: no mutant {SURVIVOR} at solution.py line 8 any more; remove this equivalent mark"
        in err.splitlines()
    )


def test_an_unchanged_challenge_is_not_mutated_again(project: Path, monkeypatch: pytest.MonkeyPatch):
    tracks = load_course(project)
    first, _ = mutate.score_course(project, tracks, BuildCache(project))
    assert [s.cached for s in first] == [False]

    def no_pyodide(*args, **kwargs):
        raise AssertionError("Pyodide started for an unchanged challenge")

    monkeypatch.setattr(mutate, "PyodideRunner", no_pyodide)
    again, problems = mutate.score_course(project, load_course(project), BuildCache(project))
    assert [s.cached for s in again] == [True]
    assert (again[0].outcomes, problems) == (first[0].outcomes, [])

    # Any edit to the cases makes it a miss.
    yaml = project / YAML
    yaml.write_text(yaml.read_text().replace("limit: 4}\n    expected: 2", "limit: 6}\n    expected: 3"))
    with pytest.raises(AssertionError, match="Pyodide started"):
        mutate.score_course(project, load_course(project), BuildCache(project))
