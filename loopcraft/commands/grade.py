"""`loopcraft grade SLUG SOLUTION.py|FOLDER [--json] [--private-details]` (`python -m grader SLUG ...`, whose
default command it is): one challenge's solutions graded in Pyodide under Node.js, the interpreter learners run.

What a report shows of each case is grader/results.py's rule: a private case's name and status only (unless
--private-details, the instructor's own copy), every part bounded. Exit status 0 when every case passes, 1 when
any case fails, errs or times out, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from grader.results import VERSION, RunResult, failed_submission
from loopcraft.authoring.mistakes import said
from loopcraft.authoring.verify import catalogues
from loopcraft.classroom.intake import Source, read_solutions
from loopcraft.classroom.printable import lines, one_line
from loopcraft.course.cases import Catalogue
from loopcraft.course.course import Exercise
from loopcraft.course.load import find_exercise
from loopcraft.course.project import Project
from loopcraft.running.grading import Grader, Runners

HELP = "grade one challenge's solutions in Pyodide: a file, or a folder of them"
MARKS = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "timeout": "TIMEOUT"}


def add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("exercise", help="a challenge slug (e.g. consecutive-error-limit) or the path of its folder")
    parser.add_argument("solution", type=Path, help="a solution .py file, or a folder of them")
    parser.add_argument(
        "--json", dest="as_json", action="store_true", help="print an Exercism-style results.json document"
    )
    parser.add_argument(
        "--private-details",
        action="store_true",
        help="show private cases in full (messages, output, values): for the instructor only, never to be "
        "handed to learners, whose private cases it would make public",
    )


def run(
    *,
    project: Project,
    exercise: str,
    solution: Path,
    as_json: bool = False,
    private_details: bool = False,
    runners: Runners | None = None,
) -> int:
    """Grade `solution` (a file, or each `*.py` of a folder) in fresh runners (lent by `runners`, else started)."""
    challenge = find_exercise(project.root, exercise)
    sources = read_solutions(solution)
    # Sent with the cases, so that the judge names the mistakes a failing submission looks like: from the build cache,
    # where `check` or `build` left the wrong solutions' verdicts (else they run once, and are kept there).
    known = catalogues(project, [challenge])[challenge.track, challenge.slug]
    with Grader(project, runners) as grader:
        results = [(source, _verdict(grader, challenge, source, known)) for source in sources]
    for failure in grader.failures:
        print(f"warning: a submission stopped the runner twice; it said: {one_line(failure)[:2000]}", file=sys.stderr)
    if as_json:
        files = [{"file": s.origin, **r.to_dict(private_details=private_details)} for s, r in results]
        one = len(files) == 1 and not solution.is_dir()
        print(json.dumps(files[0] if one else {"version": VERSION, "submissions": files}, separators=(",", ":")))
    else:
        texts = [format_text(s.origin, r, private_details=private_details) for s, r in results]
        print("\n\n".join(texts))
        if len(results) > 1:
            print(f"\n{sum(r.passed for _, r in results)} of {len(results)} submissions pass every case")
    return 0 if all(result.passed for _, result in results) else 1


def format_text(origin: str, result: RunResult, *, private_details: bool = False) -> str:
    """A submission's report for a terminal, from its result as written (bounded, private cases name and status
    only unless `private_details`): the file name on one line whatever it holds, every message indented under its
    case, then each known mistake the verdict names (RunResult.mistakes)."""
    doc = result.to_dict(private_details=private_details)
    out = [f"{one_line(origin)}:"]
    for test in doc["tests"]:
        label = (
            f"{one_line(test['name'])} ({'private' if test.get('private') else 'hidden'})"
            if test.get("hidden")
            else one_line(test["name"])
        )
        out.append(f"  {MARKS[test['status']]:<7} {label}")
        out.extend(f"          {line}" for line in lines(test.get("message", "")).splitlines())
    out.extend(f"  {one_line(said(hint))}" for hint in result.mistakes)
    out.append(f"  {result.passed_count} of {result.total} cases passed: {result.status.value}")
    return "\n".join(out)


def _verdict(grader: Grader, exercise: Exercise, source: Source, known: Catalogue) -> RunResult:
    if source.error is not None:
        return failed_submission(exercise.cases, source.error)
    return grader.grade(exercise, source.text, catalogue=known)
