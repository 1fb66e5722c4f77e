"""A graded class for the report's and feedback pages' tests (tests/test_class_report.py, tests/browser/): the
bench's generator (bench/class_report.py: the course's own solutions graded once by the real judge, in this
CPython) for two challenges, and learners made on purpose: two renamed copies of one solution, an independent
solution, a name that tries to end the page's script, code that does not load, a case out of time, a hand-in
refused whole."""

from __future__ import annotations

from pathlib import Path

from bench.class_report import HostRunner, generate, renamed
from grader.judge import judge_run
from grader.results import timeout_outcome
from loopcraft.classroom import course_exercises, gradebook, write_outputs
from loopcraft.classroom.intake import Learner, Source
from loopcraft.classroom.store import VerdictStore
from loopcraft.grading import grade, judged_case
from loopcraft.printable import one_line
from loopcraft.project import Project
from tests.helpers import FIXTURES

LIMIT, DISPATCH = "consecutive-error-limit", "dispatch-registry"
INDEPENDENT = (FIXTURES / "class" / "independent_limit.py").read_text(encoding="utf-8")
HOSTILE = one_line('</script><script>alert("name")</script><!-- "&amp; \u202egnp.exe')


def build(out: Path, learners: int = 30) -> dict:
    """Grades and writes the class into `out` (verdicts/, gradebook, feedback/, report/); returns the gradebook."""
    exercises = [ex for ex in course_exercises(Project()) if ex.slug in (LIMIT, DISPATCH)]
    runner = HostRunner()
    try:
        return _build(out, exercises, learners, runner)
    finally:
        runner.close()


def _build(out: Path, exercises: list, learners: int, runner: HostRunner) -> dict:
    by_slug = {ex.slug: ex for ex in exercises}
    doc = generate(out, exercises, learners, seed=7, runner=runner, copiers=0)
    store = VerdictStore(out)
    totals = {ex.slug: len(ex.cases) for ex in exercises}
    original = by_slug[LIMIT].solution_source
    handed = {
        "twin-a": {LIMIT: INDEPENDENT},
        "twin-b": {LIMIT: renamed(INDEPENDENT)},
        "solo": {LIMIT: original, DISPATCH: by_slug[DISPATCH].solution_source},
        HOSTILE: {DISPATCH: by_slug[DISPATCH].wrong_solutions[0].source},
        "broken": {LIMIT: "def run_agent(task, script:\n", DISPATCH: "import nothing_of_the_kind\n"},
        "looper": {LIMIT: original},
    }
    rows = list(doc["learners"])
    for name, sources in handed.items():
        learner = Learner(id=name, name=name, origin=f"{name}/")
        for slug, text in sources.items():
            learner.sources[slug] = Source(f"{name}/{slug}.py", text)
            result = grade(by_slug[slug], text, runner).to_dict(hidden_actual=True)
            if name == "looper":  # its first case ran out of time (the host runner has no time limit)
                ex = by_slug[slug]
                outcomes = runner.run(text, ex.sandbox_source, ex.entry, [{"args": c.args} for c in ex.cases], 0)
                outcomes[0] = timeout_outcome()
                judged = [judged_case(c) for c in ex.cases]
                result = judge_run(judged, outcomes, ex.time_limit_seconds).to_dict(hidden_actual=True)
            store.put(learner, slug, learner.sources[slug], "0" * 64, result)
        rows.append(gradebook.row(learner, totals, store))
    refused = Learner(id="refused", name="refused", origin="refused.json", error="refused.json: not a progress file")
    rows.append(gradebook.row(refused, totals, store))
    doc = gradebook.book(doc["challenges"], rows)
    write_outputs(out, doc, store, exercises)
    return doc
