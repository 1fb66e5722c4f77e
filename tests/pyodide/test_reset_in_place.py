"""A fresh runner resets its interpreter in place between submissions (frontend/src/reset.js): nothing one submission
leaves reaches the next, and a class is graded exactly as with interpreters restored from the snapshot.

The corpus in tests/leave_traces/ is pairs of submissions: one leaves something behind (a file, an environment
variable, a module, a finalizer, memory grown...), the next looks for it. Every pair is graded in one runner, one
submission after another, as a class is. Memory grown is followed by a full restore instead of a reset (a reset
cannot shrink it): that pair proves the restore, the others the reset (those the guard takes for tampering
included), and the test says how many of each there were, so that a reset that quietly fell back every time could
not pass for one that works."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import pytest

from grader.results import Status
from loopcraft.course.load import find_exercise
from loopcraft.course.project import Project
from loopcraft.running.grading import grade
from tests.helpers import LEAVE_TRACES_SLUG, ROOT, leave_trace_pairs

SLUG = LEAVE_TRACES_SLUG
REFERENCE = ROOT / "exercises" / "build-an-agent" / SLUG / "solution.py"
PAIRS = leave_trace_pairs()
# The pairs whose leaver grows memory: a full restore follows them.
RESTORED = {"memory_grown"}
# The pairs whose leaver the guard takes for tampering: its verdict is an error, and a reset follows it all the same.
TAMPERING = {
    "builtins",
    "collector",
    "finalizers",
    "globals_and_attributes",
    "interpreter_settings",
    "signal_handlers",
    "tracing",
}


@pytest.fixture(scope="module")
def exercise():
    """The challenge with its first three cases: each probe looks once a case, and more cases would only cost time."""
    whole = find_exercise(ROOT, SLUG)
    return dataclasses.replace(whole, cases=whole.cases[:3])


@pytest.fixture(scope="module")
def graded(runners, exercise):
    """Every pair graded in one fresh runner, in the corpus's order: {name: (leaver's result, probe's result, how the
    probe's interpreter was made)}; a probe graded first warms the runner, so no pair gets its first interpreter."""
    with runners.lent(Project()) as runner:
        grade(exercise, REFERENCE.read_text(encoding="utf-8"), runner)
        results = {}
        for name, (leaver, probe) in PAIRS.items():
            left = grade(exercise, leaver, runner)
            before = Counter(runner.made)
            seen = grade(exercise, probe, runner)
            made = Counter(runner.made)
            made.subtract(before)
            results[name] = (left, seen, next(k for k, n in made.items() if n))
    return results


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_nothing_a_submission_leaves_reaches_the_next(graded, name):
    left, seen, _ = graded[name]
    assert left.status is not Status.ERROR or name in TAMPERING, (name, left.message)
    assert seen.status is Status.PASS, (name, seen.message or [t.message for t in seen.tests if t.message][:1])


def test_submissions_get_an_interpreter_reset_in_place_unless_memory_grew(graded):
    made = {name: how for name, (_, _, how) in graded.items()}
    assert {name for name, how in made.items() if how == "started"} == RESTORED, made
    assert {name for name, how in made.items() if how == "reset"} == set(PAIRS) - RESTORED


def test_every_submission_draws_random_numbers_of_its_own(graded, runners, exercise):
    _, probe = PAIRS["random_state"]
    draws = set()
    with runners.lent(Project()) as runner:
        for _ in range(3):
            result = grade(exercise, probe, runner)
            draws |= {re.search(r"first draw (\S+)", t.output).group(1) for t in result.tests if t.output}
    assert len(draws) > 3  # each case loads the probe again; no two submissions start from one state
