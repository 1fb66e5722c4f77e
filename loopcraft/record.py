"""`python build.py record SLUG`: fill in the `expected` of new cases with what the reference solution returns.

The values come from Pyodide, like every verdict. They are inserted into exercise.yaml as new lines, the rest of
the file left as it was byte for byte (re-emitting the whole file with ruamel would restyle some flow
collections). The author reviews them: a recorded value is only as right as solution.py.
"""

from __future__ import annotations

from pathlib import Path

from grader.results import Status

from . import yamlfile
from .course import MISSING, Case
from .errors import LoopcraftError, Problem, raise_errors
from .grading import grade
from .load import find_exercise
from .paths import rel_path
from .project import Project
from .runners import make_runner
from .verify import reference_case_problem, reference_load_problem


def record(project: Project, name: str) -> tuple[Path, list[Case]]:
    """Record every case of exercise `name` that has no `expected`.

    Returns exercise.yaml (relative to the root) and the recorded cases as reloaded from it.
    """
    root = project.root
    ex = find_exercise(root, name, recording=True)
    yaml_path = ex.dir / "exercise.yaml"
    rel = rel_path(yaml_path, root)
    missing = [(i, case) for i, case in enumerate(ex.cases) if case.expected is MISSING]
    if not missing:
        return rel, []
    with make_runner("fresh", project) as runner:
        # Cases without an expected value pass on whatever the reference solution returns, which they report.
        result = grade(ex, ex.solution_source, runner, cases=[c for _, c in missing], reveal_hidden=True)
    if result.status is Status.ERROR:
        raise_errors([reference_load_problem(root, ex, result.message)])
    problems = []
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
        elif test.status is not Status.PASS:
            problems.append(reference_case_problem(rel, case, test.message))
    raise_errors(problems)

    lines = yaml_path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[-1] = lines[-1].rstrip("\n") + "\n"  # a case at the very end may get lines after it
    cases = yamlfile.load(yaml_path)["cases"]
    # From the bottom up, so that the line numbers of the cases above stay right.
    for (i, case), test in reversed(list(zip(missing, result.tests, strict=True))):
        if cases[i].fa.flow_style():
            raise LoopcraftError(
                f"{rel.as_posix()}:{case.line}: write case {case.name!r} as a block mapping "
                "(one key a line) so that `record` can add its expected value"
            )
        at, indent = _after_args(cases, i, lines)
        text = yamlfile.to_text({"expected": yamlfile.flowing(test.actual)})
        lines[at:at] = [" " * indent + line for line in text.splitlines(keepends=True)]
    yaml_path.write_text("".join(lines), encoding="utf-8")
    recorded = find_exercise(root, name)  # validates what was written, and gives the cases' new lines
    return rel, [recorded.cases[i] for i, _ in missing]


def _after_args(cases, i: int, lines: list[str]) -> tuple[int, int]:
    """Where `expected` goes in case `i`: (0-based line, indentation) right after its `args`, where a reader
    looks for it; before the comments that lead into what follows."""
    item = cases[i]
    keys = list(item)
    line, indent = item.lc.key("args")
    following = keys[keys.index("args") + 1 :]
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
