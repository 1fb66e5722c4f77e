"""A learner's feedback page, DIR/feedback/<learner>.html: safe to hand back as it is.

One section per challenge of the gradebook: the status and cases passed, then every case as the challenge page
shows it (the page's own results rendering, drawn once as HTML: frontend/src/feedback.js, pages.CaseDrawer; the
page carries no script, and a Content-Security-Policy that lets it run none): a visible case with its input, expected and
actual values, differences marked, and its trace; a hidden case with no value (name, status, message, what it
printed and its trace, whose last step is what the learner's own code returned); a private case with its name and
status. What a case may show is grader/results.py's rule (`learner_view`), asked here for every case: nothing else
of a verdict reaches the page. Inputs come from the course, for visible cases only (the site publishes them). Below a
failed challenge's status, each known mistake its verdict names (the judge's, when it was graded), by its hint alone.
"""

from __future__ import annotations

import jinja2

from grader.execute import SOLUTION_FILE
from grader.results import SHOWN, RunResult, learner_view, stored_json
from loopcraft.authoring.mistakes import said
from loopcraft.course.cases import call_shown
from loopcraft.course.course import Exercise

from . import gradebook
from .pages import CaseDrawer
from .printable import lines, one_line

RETURNED = ("pass", "fail")  # a case with one of these statuses returned a value (None is a value too)


def course_inputs(course: dict[str, Exercise]) -> dict[str, dict[str, str]]:
    """{slug: {case: its input as the page shows it}} of the visible cases (made once for every page)."""
    return {slug: {c.name: call_shown(c, ex.entry) for c in ex.cases if not c.hidden} for slug, ex in course.items()}


def hand_in_name(origin: str) -> str:
    """What a learner's tracebacks call their file: the grader runs every hand-in as solution.py
    (grader/execute.py), but the learner handed in a file of their own ("alice/limit.py", "class.zip:
    smithjane_12_34_limit.py" give limit.py and smithjane_12_34_limit.py); code from a progress file keeps the
    name the site's pages show too."""
    name = origin.rpartition("/")[2].rpartition(": ")[2]
    return name if name.endswith(".py") else SOLUTION_FILE


def _named(message: str, name: str) -> str:
    """`message` with its traceback's lines in the learner's file named as they named it."""
    return message.replace(f'File "{SOLUTION_FILE}", line', f'File "{name}", line')


def case_data(case: dict, inputs: dict[str, str], name: str = SOLUTION_FILE) -> dict:
    """What the page's rows are drawn from, of one written case: learner_view's cut, the values as canonical JSON,
    the traceback naming the learner's file `name`."""
    seen = learner_view(case)
    data = {"name": seen["name"], "hidden": bool(seen.get("hidden")), "private": bool(seen.get("private"))}
    kept = ("status", "message", "output", "hidden", "trace", "call_shown", *SHOWN[2:])
    data["result"] = {k: seen[k] for k in kept if k in seen}
    if data["result"].get("message"):
        data["result"]["message"] = _named(data["result"]["message"], name)
    if "trace" in data["result"]:  # a step that raised carries the traceback too
        data["result"]["trace"] = [
            {**step, "error": _named(step["error"], name)} if isinstance(step.get("error"), str) else step
            for step in data["result"]["trace"]
        ]
    if not data["hidden"]:
        data["input_text"] = inputs.get(seen["name"], "")
        data["expected_json"] = stored_json(seen.get("expected"))
        data["actual_json"] = stored_json(seen.get("actual")) if seen["status"] in RETURNED else None
    return data


def challenge_data(
    slug: str,
    row: dict,
    verdict: dict | None,
    ex: Exercise | None,
    inputs: dict[str, str],
) -> dict:
    """What the page shows of one challenge of a gradebook row (`gradebook.shown`'s: with its points), the known
    mistakes its verdict names among them."""
    result = RunResult.from_dict(verdict["result"]) if verdict else None
    cell = row["challenges"][slug]
    name = hand_in_name(verdict["origin"]) if verdict else SOLUTION_FILE
    return {
        "slug": slug,
        "title": ex.title if ex else slug,
        "status": cell["status"],
        "passed": cell["passed"],
        "total": cell["total"],
        "points": gradebook.amount(row["points"][slug]),
        "worth": gradebook.amount(row["worth"][slug]),
        "message": lines(_named(result.message, name)) if result and result.message else None,
        "cases": [case_data(t, inputs, name) for t in result.to_dict()["tests"]] if result else [],
        "code": lines(verdict["source"]) if verdict and verdict.get("source") is not None else None,
        "mistakes": [lines(said(hint)) for hint in result.mistakes] if result else [],
    }


def page(
    env: jinja2.Environment,
    row: dict,
    verdicts: dict[str, dict],
    slugs: list[str],
    course: dict[str, Exercise],
    inputs: dict[str, dict[str, str]],
    *,
    draw: CaseDrawer,
) -> str:
    """The feedback page of the learner of gradebook row `row` (`gradebook.shown`'s: named as the LMS names them, with
    points on its scale); `inputs` is course_inputs(course); `draw` draws the cases."""

    def data(slug: str) -> dict:
        return challenge_data(slug, row, verdicts.get(slug), course.get(slug), inputs.get(slug, {}))

    challenges = [data(slug) for slug in slugs]
    data = {"challenges": [{"slug": c["slug"], "cases": c["cases"]} for c in challenges if c["cases"]]}
    handed = [slug for slug in slugs if row["challenges"][slug]["status"] != gradebook.MISSING]
    return env.get_template("class/feedback.html").render(
        learner=one_line(row["name"] or row["learner"]),
        score=gradebook.amount(row["score"] or 0.0),
        out_of=gradebook.amount(sum(row["worth"][slug] for slug in handed)),
        cases_passed=sum(row["challenges"][slug]["passed"] for slug in handed),
        cases=sum(row["challenges"][slug]["total"] for slug in handed),
        error=lines(row["error"]) if row["error"] else None,
        challenges=challenges,
        passed=sum(c["status"] == "pass" for c in challenges),
        submitted=sum(c["status"] != gradebook.MISSING for c in challenges),
        rows=dict(zip([c["slug"] for c in data["challenges"]], draw(data), strict=True)),
    )
