"""Loopcraft's grader: standard library only, so the same code runs in CPython and in Pyodide.

`execute.run_case` runs learner code (inside the learner's interpreter); `judge` turns its outcomes
into verdicts (outside it). `grade` chains both in one process, for tests and tools.
"""
from __future__ import annotations

import json

from .canonical import canonical_json, digest
from .execute import run_case
from .judge import judge_run
from .results import CaseResult, RunResult, Status

__all__ = ["grade", "canonical_json", "digest", "run_case", "judge_run", "CaseResult", "RunResult", "Status"]


def grade(source: str, sandbox: str, entry: str, cases: list[dict], time_limit: float) -> dict:
    """Grade `source` on `cases` ({name, args, expected, hidden}) in this interpreter; plain data out.

    No time limit is enforced in-process: the drivers that run Pyodide (page, Node runner) do that.
    """
    outcomes = [json.loads(run_case(source, sandbox, entry, json.dumps(c["args"]))) for c in cases]
    judged = [{"name": c["name"], "hidden": c.get("hidden", False), "expected_json": canonical_json(c["expected"])} for c in cases]
    return judge_run(judged, outcomes, time_limit).to_dict()
