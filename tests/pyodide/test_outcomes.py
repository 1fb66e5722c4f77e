"""Outcomes have one shape wherever they are made: grader/results.py in Python, frontend/src/outcomes.js in the
worker, the driver and the Node runner. Both answer the same calls alike, held to tests/golden/outcomes.json
(LOOPCRAFT_REGEN_GOLDEN=1 rewrites it from Python's answers)."""

from __future__ import annotations

import json
import subprocess

from grader import results
from tests.helpers import ROOT, check_golden

GOLDEN = ROOT / "tests" / "golden" / "outcomes.json"
TRACE = [{"kind": "raise", "error": "ValueError: boom"}]
CALLS = [
    ["value_outcome", ['{"a":[1,2.5,null]}']],
    ["value_outcome", ['"x"', "printed\n", [{"kind": "return", "value": "x"}]]],
    *(["error_outcome", ["ValueError: boom", phase, "out", TRACE]] for phase in results.PHASES),
    ["error_outcome", ["SyntaxError: invalid syntax", "load"]],
    ["error_outcome", ["anything", "elsewhere"]],  # not a phase: refused
    ["timeout_outcome", []],
    ["timeout_outcome", ["printed before the loop\n"]],
    ["timeout_outcome", ["printed\nwarned\n", "printed\n"]],
    # Limits as an author may write them, and as floating point gets them.
    *(["timeout_message", [limit]] for limit in (3, 1, 0.5, 1.25, 0.1 + 0.2, 1 / 3, 2.0005, 0.0004, 120, 2.5e-3)),
    *(["block_timeout_message", [limit]] for limit in (5, 0.5, 1 / 3)),
]


def python_answers() -> list:
    answers = []
    for name, args in CALLS:
        try:
            answers.append(getattr(results, name)(*args))
        except AssertionError:
            answers.append({"refused": True})
    return answers


def test_python_and_javascript_make_the_same_outcomes_and_timeout_texts():
    expected = python_answers()
    check_golden(
        GOLDEN, json.dumps([[call, answer] for call, answer in zip(CALLS, expected, strict=True)], indent=1) + "\n"
    )
    proc = subprocess.run(
        ["node", "tests/js/outcome-calls.mjs"],
        input=json.dumps(CALLS),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == expected
