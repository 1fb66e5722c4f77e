"""`python build.py record SLUG`: fill in what new cases expect (`expected`, `raises` or `stdout`) from what the
reference solution does.

The values come from Pyodide, like every verdict. They are inserted into exercise.yaml as new lines, the rest of
the file left as it was byte for byte (re-emitting the whole file with ruamel would restyle some flow
collections). The author reviews them: a recorded value is only as right as solution.py.
"""

from __future__ import annotations

import json
from pathlib import Path

from grader.canonical import from_tagged

from . import yamlfile
from .course import Case
from .errors import LoopcraftError, Problem, raise_errors
from .grading import request_case
from .load import find_exercise
from .paths import rel_path
from .project import Project
from .runners import make_runner
from .verify import reference_case_problem, reference_load_problem


def record(project: Project, name: str) -> tuple[Path, list[Case]]:
    """Record every case of exercise `name` that expects nothing yet: its `expected`, or `raises` when the reference
    raises, or `stdout` when the case has `stdin` or the reference prints and returns None.

    Returns exercise.yaml (relative to the root) and the recorded cases as reloaded from it.
    """
    root = project.root
    ex = find_exercise(root, name, recording=True)
    yaml_path = ex.dir / "exercise.yaml"
    rel = rel_path(yaml_path, root)
    missing = [(i, case) for i, case in enumerate(ex.cases) if case.unrecorded]
    if not missing:
        return rel, []
    with make_runner("fresh", project) as runner:
        outcomes = runner.run(
            source=ex.solution_source,
            sandbox=ex.sandbox_source,
            # Every stdout kept: `record` decides from it whether the case compares stdout.
            cases=[_keeping_stdout(request_case(case, ex.entry)) for _, case in missing],
            time_limit=ex.time_limit_seconds,
        )
    problems = []
    recorded = []
    for (_, case), outcome in zip(missing, outcomes, strict=True):
        if outcome["kind"] == "timeout":
            problems.append(
                Problem(
                    rel,
                    case.line,
                    f"reference solution ran out of time on case {case.name!r} "
                    f"(time_limit_seconds: {ex.time_limit_seconds:g})",
                )
            )
        elif outcome["kind"] == "error" and outcome["phase"] == "load":
            raise_errors([reference_load_problem(root, ex, outcome["error"])])
        elif outcome["kind"] == "error" and "exception" not in outcome:
            problems.append(reference_case_problem(rel, case, outcome["error"]))
        recorded.append(_recorded(case, outcome))
    raise_errors(problems)

    lines = yaml_path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[-1] = lines[-1].rstrip("\n") + "\n"  # a case at the very end may get lines after it
    cases = yamlfile.load(yaml_path)["cases"]
    # From the bottom up, so that the line numbers of the cases above stay right.
    for (i, case), fields in reversed(list(zip(missing, recorded, strict=True))):
        if cases[i].fa.flow_style():
            raise LoopcraftError(
                f"{rel.as_posix()}:{case.line}: write case {case.name!r} as a block mapping "
                "(one key a line) so that `record` can add what it expects"
            )
        at, indent = _after_run(cases, i, lines)
        try:
            text = yamlfile.to_text({key: yamlfile.flowing(value) for key, value in fields.items()})
        except ValueError as exc:
            raise LoopcraftError(f"{rel.as_posix()}:{case.line}: case {case.name!r}: {exc}") from None
        lines[at:at] = [" " * indent + line for line in text.splitlines(keepends=True)]
    yaml_path.write_text("".join(lines), encoding="utf-8")
    reloaded = find_exercise(root, name)  # validates what was written, and gives the cases' new lines
    return rel, [reloaded.cases[i] for i, _ in missing]


def _keeping_stdout(request: dict) -> dict:
    return {**request, "run": {**request["run"], "keep_stdout": True}}


def _recorded(case: Case, outcome: dict) -> dict:
    """What a case gets from the reference solution's outcome: `raises` (the first built-in class of what it
    raised, and its message), `stdout` (a case with stdin, or a reference that printed and returned None), else
    `expected`."""
    if outcome["kind"] != "value":
        exception = outcome.get("exception") or {"mro": ["Exception"], "message": None}
        raised = {"type": exception["mro"][0]}
        if exception["message"] is not None:
            raised["message"] = exception["message"]
        return {"raises": raised}
    if case.stdin is not None or (outcome["value"] == "null" and outcome["stdout"]):
        return {"stdout": outcome["stdout"]}
    return {"expected": from_tagged(json.loads(outcome["value"]))}


# The keys that say what a case runs; what it expects goes after the last of them.
_RUN_KEYS = ("args", "setup", "call", "stdin")


def _after_run(cases, i: int, lines: list[str]) -> tuple[int, int]:
    """Where what a case expects goes in case `i`: (0-based line, indentation) right after the last of its keys
    that say what it runs, where a reader looks for it; before the comments that lead into what follows."""
    item = cases[i]
    keys = list(item)
    last = max((keys.index(key) for key in _RUN_KEYS if key in item), default=0)
    line, indent = item.lc.key(keys[last])
    following = keys[last + 1 :]
    if following:
        at = item.lc.key(following[0])[0]
    else:
        at = cases.lc.item(i + 1)[0] if i + 1 < len(cases) else len(lines)
    while at - 1 > line and _leads_in(lines[at - 1], indent):
        at -= 1
    return at, indent


def _leads_in(line: str, indent: int) -> bool:
    """A blank line, or a comment no deeper than the case's keys (a deeper one is inside a block scalar)."""
    text = line.lstrip()
    return not text or (text.startswith("#") and len(line) - len(text) <= indent)
