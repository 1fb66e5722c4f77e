"""`python build.py record SLUG`: fill in what new cases expect (`expected`, `raises` or `stdout`) from what the
reference solution does.

The values come from Pyodide, like every verdict. They are inserted into exercise.yaml as new lines, the rest of
the file left as it was byte for byte (re-emitting the whole file with ruamel would restyle some flow
collections). The author reviews them: a recorded value is only as right as solution.py.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from grader.canonical import from_tagged
from grader.results import CaseResult, Status
from loopcraft.course import yamlfile
from loopcraft.course.course import Case, Raises
from loopcraft.course.errors import LoopcraftError, Problem, raise_errors
from loopcraft.course.load import builtin_exception, find_exercise
from loopcraft.course.paths import rel_path
from loopcraft.course.project import Project
from loopcraft.running.grading import grade
from loopcraft.running.runners import make_runner

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
    # Each case run to tell what it does: expecting a raise of any exception and no printed text, its verdict says
    # what it raised, or what it returned (as a failure), and what it printed.
    probes = [dataclasses.replace(case, raises=Raises("BaseException"), stdout="") for _, case in missing]
    with make_runner("fresh", project) as runner:
        result = grade(ex, ex.solution_source, runner, cases=probes, reveal_hidden=True)
    if result.status is Status.ERROR:
        raise_errors([reference_load_problem(root, ex, result.message)])
    problems = []
    recorded = []
    for (_, case), test in zip(missing, result.tests, strict=True):
        if test.status is Status.TIMEOUT:
            problems.append(
                Problem(
                    rel,
                    case.line,
                    f"reference solution ran out of time on case {case.name!r} "
                    f"(time_limit_seconds: {ex.time_limit_seconds:g})",
                )
            )
        elif test.status is Status.ERROR:
            problems.append(reference_case_problem(rel, case, test.message))
        else:
            recorded.append(_recorded(case, test, ex.solution_source))
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


def _recorded(case: Case, test: CaseResult, solution: str) -> dict:
    """What a case gets from the reference solution's probe (see record): `raises` (the built-in class of what it
    raised, and its message), `stdout` (a case with stdin, or a reference that printed and returned None), else
    `expected`."""
    if test.actual is None and test.actual_shown not in (None, "None"):
        name, _, message = test.actual_shown.partition(": ")
        return {"raises": {"type": _builtin_base(name, solution), **({"message": message} if message else {})}}
    if case.stdin is not None or (test.actual is None and test.stdout):
        return {"stdout": test.stdout}
    return {"expected": from_tagged(test.actual)}


def _builtin_base(name: str, solution: str) -> str:
    """The built-in exception a class of the reference solution's derives from (`class Off(ValueError)`: ValueError),
    through its bases in the solution's source; `name` itself if built-in, else Exception."""
    bases = {
        node.name: [base.id for base in node.bases if isinstance(base, ast.Name)]
        for node in ast.walk(ast.parse(solution))
        if isinstance(node, ast.ClassDef)
    }
    seen = set()
    while not builtin_exception(name) and name in bases and bases[name] and name not in seen:
        seen.add(name)
        name = bases[name][0]
    return name if builtin_exception(name) else "Exception"


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
