"""Scenario generators (loopcraft/authoring/scenarios.py) and the runner of many scenarios in Pyodide
(loopcraft/authoring/scenario_runner.py): a scenario is made again from its record, shrinking only ever makes smaller valid
scenarios, every challenge of the course has a generator that makes its entry's arguments, and a program that
loops is stopped at the same point on any machine.

Only the last tests start Pyodide (the session's runner); the rest are host Python.
"""

from __future__ import annotations

import ast
import inspect
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loopcraft.authoring.scenarios import Pick, find_generator, site
from loopcraft.authoring.strengthen import HARNESS
from loopcraft.running.grading import run_only
from tests.helpers import make_project, the_track
from tests.support import ROOT

# The first course's challenges all take keyword arguments; the second's classes, program and generator are run by
# a `call`, which no generator of keyword arguments makes.
EXERCISES = the_track().exercises


def generators():
    return [(ex, find_generator(ROOT, ex)) for ex in EXERCISES]


def parameters(ex) -> tuple[set[str], set[str]]:
    """The entry function's parameters in solution.py: (all of them, those without a default)."""
    (function,) = [
        node
        for node in ast.parse(ex.solution_source).body
        if isinstance(node, ast.FunctionDef) and node.name == ex.entry
    ]
    names = [a.arg for a in function.args.args]
    return set(names), set(names[: len(names) - len(function.args.defaults)])


@pytest.mark.parametrize("ex", EXERCISES, ids=lambda ex: ex.slug)
def test_every_challenge_has_a_generator_of_its_entrys_arguments(ex):
    generator = find_generator(ROOT, ex)
    assert generator is not None, f"{ex.slug} has no scenarios.py"
    names, required = parameters(ex)
    scenarios = generator.scenarios(0, 100)
    assert len(scenarios) == 100  # no repeats, and none missing
    for scenario in scenarios:
        assert required <= set(scenario.args) <= names, scenario.args
        assert json.loads(scenario.args_json) == scenario.args
    # Deterministic: the same seed makes the same scenarios, whatever the count asked for.
    assert [s.args_json for s in generator.scenarios(0, 40)] == [s.args_json for s in scenarios[:40]]
    assert [s.args_json for s in generator.scenarios(1, 40)] != [s.args_json for s in scenarios[:40]]


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_scenario_is_made_again_from_its_record_and_shrinks_only_to_smaller_ones(data):
    ex, generator = data.draw(st.sampled_from(generators()), label="challenge")
    seed = data.draw(st.integers(0, 10_000), label="seed")
    scenario = generator.make(Pick(random.Random(seed)))
    assert generator.replay(scenario.choices) == scenario
    # A record too short or with numbers out of range still makes a valid scenario: the missing choices are the
    # simplest, and the large ones are clamped.
    record = data.draw(st.lists(st.integers(0, 50), max_size=len(scenario.choices)), label="record")
    other = generator.replay(record)
    names, required = parameters(ex)
    assert required <= set(other.args) <= names
    for simpler in generator.simpler(scenario)[:10]:
        assert simpler.size < scenario.size
        assert generator.replay(simpler.choices) == simpler


def test_pick_records_every_choice_simplest_first():
    pick = Pick(record=[2, 9, 1, 0, 3])
    assert pick.int(1, 5) == 3
    assert pick.choice({"plain": "a", "odd": "b"}) == "b"  # 9 clamped to the last option
    assert pick.list(lambda p: p.choice(["x", "y", "z", "w"]), 0, 4) == ["x"]
    assert pick.bool() is True  # 3 clamped to 1
    assert pick.int(0, 9) == 0  # past the record: the simplest
    assert (pick.choices, pick.labels, pick.spans) == ([2, 1, 1, 0, 1, 0], ["odd"], [(2, 3, 4)])


def test_pick_sample_chooses_which_items_and_their_order_simplest_the_first_in_order():
    places = {"": "Paris", "Lyon": "Lyon", "a city in lower case": "paris"}
    assert Pick().sample(places, 1, 3) == ["Paris"]  # the simplest: the first lo, in order
    pick = Pick(record=[1, 2, 0])  # two items: the third option, then the first of those left
    line = inspect.currentframe().f_lineno + 1
    assert pick.sample(places, 1, 3) == ["paris", "Paris"]
    assert (pick.choices, pick.labels, pick.spans) == ([1, 2, 0], ["a city in lower case"], [(0, 1, 2), (0, 2, 3)])
    # Every decision is kept with the call that made it (strengthen says what a generator varied, call by call).
    sites = {(site(caller), n) for caller, n in pick.decisions}
    assert {(s.method, s.line, n) for s, n in sites} == {("sample", line, 3), ("sample", line, 2)}
    # Shrinking may leave an item out: the record without it is still a sample, one item shorter.
    assert Pick(record=[0, 0]).sample(places, 1, 3) == ["Paris"]
    with pytest.raises(ValueError, match="pick.sample of 3 options, 4 to 3 of them"):
        Pick().sample(places, 4)


def test_a_failing_generator_is_reported_at_its_line_before_pyodide_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
):
    from loopcraft.running import pyodide, runners
    from tests.helpers import FIXTURES, run_cli

    project = make_project(tmp_path, FIXTURES / "mutation/exercises")
    generator = project / "exercises/counting/count-below/scenarios.py"
    generator.write_text(generator.read_text().replace("pick.int(-2, 8)", "pick.int(8, -2)"))

    def no_pyodide(*args, **kwargs):
        raise AssertionError("Pyodide started for a generator that fails")

    for module in (pyodide, runners):  # every runner of Pyodide is made there (loopcraft/running/runners.py)
        monkeypatch.setattr(module, "PyodideRunner", no_pyodide)
    # Not the session's runners (`author_cli`): one of them may have started already, and would hide a start.
    code, _, err = run_cli(capsys, "strengthen", "--root", str(project), "count-below")
    assert (code, err.splitlines()) == (
        1,
        [
            "exercises/counting/count-below/scenarios.py:9: the scenario generator failed: ValueError: "
            "pick.int(8, -2): hi is below lo",
            "1 problem(s); nothing was written",
        ],
    )


def run_scenarios(runner, source: str, scenarios: list[dict], budget: int = 1000, twice: bool = False) -> list[list]:
    """[kind, text] per scenario; the jumps counted are left out (json.loads has loops of its own)."""
    args = {
        "sandbox": "BASE = 10\n",
        "source": source,
        "entry": "f",
        "scenarios": [json.dumps(s) for s in scenarios],
        "budget": budget,
        "twice": twice,
    }
    (test,) = run_only(runner, source="", sandbox=HARNESS, entry="run_scenarios", args=[args], time_limit=60)
    assert test.passed, test
    return [result[:2] for result in test.actual]


def test_many_scenarios_run_in_one_case_each_in_a_fresh_namespace(pyodide_runner):
    source = "seen = []\ndef f(n):\n    seen.append(n)\n    return {'n': n + BASE, 'seen': seen}\n"
    assert run_scenarios(pyodide_runner, source, [{"n": 1}, {"n": 2}]) == [
        ["value", '{"n":11,"seen":[1]}'],
        ["value", '{"n":12,"seen":[2]}'],
    ]
    assert run_scenarios(pyodide_runner, "def f(n):\n    return 1 / n\n", [{"n": 0}]) == [
        ["error", "ZeroDivisionError: division by zero"]
    ]
    assert run_scenarios(pyodide_runner, "def f(n:\n", [{"n": 0}])[0][0] == "load"


def test_a_generator_that_calls_twice_tells_apart_a_second_call_that_returns_something_else(pyodide_runner):
    counted = "count = [0]\ndef f(n):\n    count[0] += n\n    return count[0]\n"
    assert run_scenarios(pyodide_runner, counted, [{"n": 1}, {"n": 0}], twice=True) == [["again", "2"], ["value", "0"]]
    assert run_scenarios(pyodide_runner, counted, [{"n": 1}]) == [["value", "1"]]
    once = "done = []\ndef f(n):\n    assert not done, 'called before'\n    done.append(n)\n    return n\n"
    assert run_scenarios(pyodide_runner, once, [{"n": 3}], twice=True) == [["again", "AssertionError: called before"]]
    assert run_scenarios(pyodide_runner, "def f(n):\n    return n + BASE\n", [{"n": 3}], twice=True) == [
        ["value", "13"]
    ]


def test_a_loop_is_stopped_by_counting_its_jumps_not_by_a_clock(pyodide_runner):
    # Even a loop that swallows every exception: the next jump stops it again.
    source = (
        "def f(n):\n    i = 0\n    while i < n:\n        try:\n            i += 1\n        except BaseException:\n"
        "            pass\n    return i\n"
    )
    assert run_scenarios(pyodide_runner, source, [{"n": 500}, {"n": 10**9}], budget=1000) == [
        ["value", "500"],
        ["timeout", ""],
    ]
    forever = (
        "def f(n):\n    while True:\n        try:\n            pass\n        except BaseException:\n            pass\n"
    )
    assert run_scenarios(pyodide_runner, forever, [{"n": 1}], budget=1000)[0][0] == "timeout"


FIRST_NAMED = "wrong/first_named_city.py"
TWO_CITIES = "  - name: Two known cities, named in the other order than CITIES lists them\n"


def test_strengthen_reaches_a_city_named_before_another_and_says_why_when_it_cannot(tmp_path, author_runners):
    """scripted-fake-model's wrong solution that takes the known city the goal names first passes every case but the
    one `strengthen` proposed for it: the generator names places in any combination and order (`pick.sample`).
    Without that case, strengthen proposes it again; with a generator that names one place only, it cannot, and
    says which generator and what it varied."""
    from loopcraft.authoring.strengthen import strengthen, unreached_text
    from loopcraft.course.project import Project
    from loopcraft.running.grading import runner_for
    from tests.helpers import course_copy

    root = course_copy(tmp_path, ["scripted-fake-model"])
    folder = root / "exercises/build-an-agent/scripted-fake-model"
    yaml = folder / "exercise.yaml"
    text = yaml.read_text()
    start = text.index(TWO_CITIES)
    yaml.write_text(text[:start] + text[re.compile(r"^  (- name|#)", re.M).search(text, start + 1).start() :])

    project = Project(root)
    with runner_for(project, "trusted", author_runners) as runner:  # as the author's command runs it
        found = strengthen(project, "scripted-fake-model", count=100, runner=runner)
    (proposal,) = [p for p in found.proposals if FIRST_NAMED in [c.what for c in p.catches]]
    assert proposal.case.args == {"goal": "Weather in Lyon or in Paris?"}
    assert proposal.case.expected["answer"] == "Paris is 18C and cloudy."
    assert FIRST_NAMED not in [p.what for p in found.untold] and unreached_text(found) == ""

    generator = folder / "scenarios.py"
    generator.write_text(generator.read_text().replace("pick.sample(PLACES, 1, 3)", "[pick.choice(PLACES)]"))
    with runner_for(project, "trusted", author_runners) as runner:
        blind = strengthen(project, "scripted-fake-model", count=100, runner=runner)
    assert blind.proposals == [] and FIRST_NAMED in [p.what for p in blind.untold]
    why = unreached_text(blind).splitlines()
    assert why[0] == (
        f"Why no scenario tells {FIRST_NAMED} apart: exercises/build-an-agent/scripted-fake-model/scenarios.py "
        "(with agent_scenarios.py, weather_scenarios.py) made 100 scenarios, varying only these calls of `pick` (with "
        "how many of its options some scenario took):"
    )
    assert why[1].split() == ["scenarios.py:36", "pick.choice(PLACES)", "7", "of", "7"]
    assert why[-1].startswith("None of them makes an input these get wrong")


AGAIN = (
    "  # Found by `build.py strengthen`; catches wrong/errors_counted_from_messages.py, wrong/errors_in_a_global.py\n"
)
IN_A_GLOBAL = "wrong/errors_in_a_global.py"


def test_strengthen_proposes_a_case_that_calls_twice_for_a_count_kept_in_a_global(tmp_path, author_runners):
    """malformed-json-recovery's generator sets CALL_TWICE: without the case strengthen proposed, the wrong solution
    that keeps its error count in a module-level variable passes every case, and strengthen proposes a case that
    calls the entry twice again, which real grading confirms catches it."""
    from loopcraft.authoring.strengthen import proposal_text, strengthen
    from loopcraft.course.project import Project
    from loopcraft.running.grading import runner_for
    from tests.helpers import course_copy

    root = course_copy(tmp_path, ["malformed-json-recovery"])
    yaml = root / "exercises/build-an-agent/malformed-json-recovery/exercise.yaml"
    text = yaml.read_text()
    start = text.index(AGAIN)
    private = text.index("  # Private cases", start)
    end = text.index("  - name: A failed search counted on every run as its own", private)
    yaml.write_text(text[:start] + text[private:end])

    project = Project(root)
    with runner_for(project, "trusted", author_runners) as runner:
        found = strengthen(project, "malformed-json-recovery", count=200, runner=runner)
    (proposal,) = [p for p in found.proposals if IN_A_GLOBAL in [c.what for c in p.catches]]
    assert proposal.case.call_twice
    assert "    call_twice: true\n" in proposal_text(proposal)
