"""Mutation testing in `check`: mutants of a small exercise's solution run in real Pyodide; a weakened case set
fails the build with the survivor at its line of solution.py, and the generated scenario that tells it apart;
`strengthen` proposes the case that catches it; equivalent marks; the cache; the operators that make learners'
mistakes.

Each test starts Pyodide under Node (seconds), so they share one project where they can.
"""

from __future__ import annotations

import ast
import contextlib
import io
from pathlib import Path

import pytest

from loopcraft.authoring import mutate
from loopcraft.course.cache import BuildCache
from loopcraft.course.load import load_course
from loopcraft.course.project import Project
from loopcraft.running import pyodide, runners
from loopcraft.site.build import check
from tests.helpers import FIXTURES, ROOT, make_project

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


@pytest.fixture(scope="module")
def checked(tmp_path_factory, author_runners):
    """A project of the course left as it is, checked once (cold) on the command line, for the tests that do not edit
    it: the project, the exit code, stdout, stderr and the report the command printed."""
    from loopcraft import commands

    project = make_project(tmp_path_factory.mktemp("checked"), COURSE)
    out, err, reports = io.StringIO(), io.StringIO(), []

    def kept(*args, **kwargs):
        reports.append(check(*args, **kwargs))
        return reports[-1]

    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(commands.check, "check", kept)  # the report the command printed, as it made it
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = commands.main(["check", "--root", str(project)], runners=author_runners)
    (report,) = reports
    return project, code, out.getvalue(), err.getvalue(), report


def test_mutants_make_learners_mistakes():
    source = """\
import json


def reply(call, text, limit):
    if call['tool'] == 'finish':
        return {'answer': call['args']['answer'], 'steps': 1}
    elif text.startswith('{') and limit > 0:
        return {'answer': json.dumps(call), 'steps': 2}
    for key in ('tool', 'args'):
        text = text.strip()
    return None
"""
    made = {(m.line, m.change): m.source for m in mutate.mutants(source)}
    changes = {change for _, change in made}
    # .strip() dropped and added; json.dumps's options changed.
    assert "`text.strip()` -> `text`" in changes
    assert "`text.startswith('{')` -> `text.strip().startswith('{')`" in changes
    assert "`json.dumps(call)` -> `json.dumps(call, ensure_ascii=False)`" in changes
    assert "`json.dumps(call)` -> `json.dumps(call, sort_keys=True)`" in changes
    assert "`json.dumps(call)` -> `json.dumps(call, separators=(',', ':'))`" in changes
    # Two checks in the other order: an if and its elif, the operands of `and`, the items a `for` checks in turn.
    assert (
        "    if text.startswith('{') and limit > 0:\n"
        in made[5, "`if call['tool'] == 'finish':` swapped with its `elif text.startswith('{') and limit > 0:`"]
    )
    # Never named as the literal change its first lines would suggest: that one is another mutant (or none).
    assert "`if call['tool'] == 'finish':` -> `if text.startswith('{') and limit > 0:`" not in changes
    assert "`text.startswith('{') and limit > 0` -> `limit > 0 and text.startswith('{')`" in changes
    assert "`for key in ('tool', 'args'):` -> `for key in ('args', 'tool'):`" in changes
    # A key left out of a returned dict; another field of the same value read.
    assert (
        "        return {'answer': call['args']['answer']}\n" in made[6, "key `'steps'` left out of the returned dict"]
    )
    assert "`call['tool']` -> `call['args']`" in changes


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


def test_making_mutants_changes_neither_the_solution_nor_an_earlier_mutant():
    # A mutant shares every node it does not change with the solution's tree (mutate._copy_to).
    for path in sorted((ROOT / "exercises").glob("*/*/solution.py")):
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        before = ast.dump(tree, include_attributes=True)
        read_at_once = [ast.unparse(mutated) for _, _, mutated, _ in mutate._mutations(ast.parse(source))]
        made = [mutated for _, _, mutated, _ in mutate._mutations(tree)]
        assert ast.dump(tree, include_attributes=True) == before, path
        assert [ast.unparse(mutated) for mutated in made] == read_at_once, path
        assert len(read_at_once) > 5, path  # the second course's one-line solutions make 8 or more


def test_one_survivor_of_few_mutants_is_told_it_alone_fails_the_bar_and_how_to_mark_it():
    (track,) = load_course(FIXTURES / "mutation")
    ex = track.exercises[0]
    outcomes = [mutate.Outcome(2, f"`0` -> `{n}`", "some case") for n in range(4)] + [mutate.Outcome(3, SURVIVOR, None)]
    problems = []
    score = mutate._score(FIXTURES, ex, outcomes, 90.0, cached=False, problems=problems)
    assert score.percent == 80.0
    assert [problem.message for problem in problems] == [
        "mutation score 80% is below the track's bar of 90%: add cases that catch the survivors in solution.py; "
        "with 5 mutants, one survivor alone puts the score below the bar (from 10 mutants on, one may survive); a "
        "survivor that no input can tell from the reference (an equivalent mutant) is marked in this file, under "
        "`equivalent_mutants:`, with its `line`, its `change` exactly as shown and the `reason` (docs/authoring.md)"
    ]


def test_strong_cases_pass_the_bar_and_check_prints_the_score(checked):
    _, code, out, err, _ = checked
    assert code == 0, err
    assert "counting/count-below: mutation score 100% (32 of 32 killed; bar 100%; 200 generated scenarios)\n" in out
    assert "survives" not in err


def test_a_weakened_case_set_fails_with_the_survivor_and_the_scenario_that_tells_it_apart(project: Path, author_cli):
    yaml = project / YAML
    yaml.write_text(yaml.read_text().replace(BOUNDARY_CASE, ""))

    code, out, err = author_cli("check", "--root", str(project))

    assert code == 1
    assert "counting/count-below: mutation score 96.8% (31 of 32 killed; bar 100%; 200 generated scenarios)\n" in out
    # The scenario is shrunk: no one simplification of it still tells the two apart.
    assert err.splitlines() == [
        f"{YAML}:15: mutation score 96.8% is below the track's bar of 100%: add cases that catch the survivors "
        "in solution.py"
        "; a survivor that no input can tell from the reference (an equivalent mutant) is marked in this file, "
        "under `equivalent_mutants:`, with its `line`, its `change` exactly as shown and the `reason` "
        "(docs/authoring.md)",
        f"{YAML}:15: 1 mutant(s) pass every case but not the generated scenarios: `python build.py strengthen "
        "counting/count-below` proposes cases that catch them",
        f"{YAML}:15: note: no private case, so the instructors' grader checks nothing a learner cannot see and "
        "hard-code; add one (`private: true`) at least as strong as the hidden ones",
        f"{YAML}:16: note: 2 cases catch none of the wrong solutions: this one, and the one at line 22",
        f"{SOLUTION}:7: {SURVIVOR} survives every case, but it differs on {{'numbers': [-1], 'limit': -1}}: "
        "reference 0, mutant 1",
        "3 problem(s); nothing was written",
    ]

    # Marked equivalent, the mutant leaves the score; but the scenario refutes the mark.
    mark = f'equivalent_mutants:\n  - line: 7\n    change: "{SURVIVOR}"\n    reason: for the test\ncases:\n'
    yaml.write_text(yaml.read_text().replace("cases:\n", mark))
    code, out, err = author_cli("check", "--root", str(project))
    assert code == 1
    assert "counting/count-below: mutation score 100% (31 of 31 killed, 1 equivalent; bar 100%; 200 generated" in out
    assert (
        f"{YAML}:16: mutant {SURVIVOR} at solution.py line 7 is marked equivalent, but it differs on "
        "{'numbers': [-1], 'limit': -1}: reference 0, mutant 1" in err.splitlines()
    )

    # A mark for a mutant there is no longer is an error at the mark.
    yaml.write_text(yaml.read_text().replace("line: 7", "line: 8"))
    code, out, err = author_cli("check", "--root", str(project))
    assert code == 1
    assert (
        f"{YAML}:16: no mutant {SURVIVOR} at solution.py line 8 any more; remove this equivalent mark"
        in err.splitlines()
    )


def test_strengthen_proposes_a_case_that_catches_what_a_weakened_case_set_misses(project: Path, author_cli):
    yaml = project / YAML
    yaml.write_text(yaml.read_text().replace(BOUNDARY_CASE, ""))
    # One run with --accept: it prints what it proposes, as a run without it does, then writes it.
    code, out, err = author_cli("strengthen", "--root", str(project), "count-below", "--scenarios", "300", "--accept")
    assert (code, err) == (0, "")
    assert out.startswith(
        "counting/count-below: 300 generated scenarios (seed 0) against the 1 program(s) the cases miss "
        "(1 mutant(s), 0 wrong solution(s)).\n1 of them differ from the reference on some scenario; these 1 case(s) "
        "catch them:\n\n"
        f"  # Found by `build.py strengthen`; catches the mutant {SURVIVOR} (solution.py line 7)\n"
        "  - name: "
    )
    assert "    hidden: true\n    args: {numbers: [-1], limit: -1}\n    expected: 0\n" in out
    assert f"Wrote 1 hidden case(s) into {YAML}" in out
    code, out, err = author_cli("check", "--root", str(project), "count-below")
    assert code == 0, err
    assert "counting/count-below: mutation score 100% (32 of 32 killed; bar 100%; 200 generated scenarios)\n" in out


def test_an_unchanged_challenge_is_not_mutated_again(project: Path, monkeypatch: pytest.MonkeyPatch):
    tracks = load_course(project)
    first, _ = mutate.score_course(Project(project), tracks, BuildCache(project))
    assert [s.cached for s in first] == [False]

    def no_pyodide(*args, **kwargs):
        raise AssertionError("Pyodide started for an unchanged challenge")

    monkeypatch.setattr(
        pyodide, "PyodideRunner", no_pyodide
    )  # the "trusted" kind's Pyodide (loopcraft/running/runners.py)
    again, problems = mutate.score_course(Project(project), load_course(project), BuildCache(project))
    assert [s.cached for s in again] == [True]
    assert (again[0].outcomes, problems) == (first[0].outcomes, [])

    # Any edit to the cases makes it a miss.
    yaml = project / YAML
    yaml.write_text(yaml.read_text().replace("limit: 4}\n    expected: 2", "limit: 6}\n    expected: 3"))
    with pytest.raises(AssertionError, match="Pyodide started"):
        mutate.score_course(Project(project), load_course(project), BuildCache(project))


def test_a_second_check_of_an_unchanged_course_starts_no_pyodide(checked, monkeypatch: pytest.MonkeyPatch):
    """Verification, mutants and scenarios all come from the cache: a warm check takes about a second."""
    project, *_, first = checked  # the first check, cold
    assert first.scenarios == {"counting/count-below": 200}

    def no_pyodide(*args, **kwargs):
        raise AssertionError("Pyodide started for an unchanged course")

    for module in (pyodide, runners):  # every runner of Pyodide is made there (loopcraft/running/runners.py)
        monkeypatch.setattr(module, "PyodideRunner", no_pyodide)
    again = check(Project(project))
    assert [str(p) for p in again.problems] == [str(p) for p in first.problems]
    assert [s.caught for s in again.strengths] == [s.caught for s in first.strengths]
