"""Generated classes, graded by the one judge (frontend/src/judge.js) from the in-process runner's outcomes
(loopcraft/running/runners.py: the course's own solutions, run in this CPython), for the report's and feedback pages' tests (tests/unit/test_class_report.py,
tests/browser/) and the report's benchmark (bench/class_report.py).

`generate` makes a course-sized class: each challenge's reference solution, its wrong solutions, its starter and a
syntax error are graded once, and each learner gets one of them as their verdict, with a source of their own (the
variant's code, edited: lines added, names changed), a few learners copying another's code renamed. `build` makes
the tests' class of two challenges: a generated one, and learners made on purpose: two renamed copies of one
solution, an independent solution, a name that tries to end the page's script, code that does not load, a case out
of time, a hand-in refused whole."""

from __future__ import annotations

import json
import random
import re
from contextlib import closing
from pathlib import Path

from grader.results import timeout_outcome
from loopcraft.authoring.verify import catalogues
from loopcraft.classroom import course_exercises, gradebook
from loopcraft.classroom.intake import Learner, Source
from loopcraft.classroom.outputs import write_outputs
from loopcraft.classroom.printable import one_line
from loopcraft.classroom.store import VerdictStore
from loopcraft.course.cases import Catalogue
from loopcraft.course.course import Exercise
from loopcraft.course.project import Project
from loopcraft.running.grading import grade, mistakes_for, request_case
from loopcraft.running.judging import judge
from loopcraft.running.runners import Runner, make_runner
from tests.helpers import FIXTURES

LIMIT, DISPATCH = "consecutive-error-limit", "dispatch-registry"
INDEPENDENT = (FIXTURES / "class" / "independent_limit.py").read_text(encoding="utf-8")
# The class run these classes' verdicts and gradebooks are of (loopcraft.classroom.identity.of_class's shape).
CLASS = {"run": "c1a55" + "0" * 59, "roster": None, "assignment": None}
HOSTILE = one_line('</script><script>alert("name")</script><!-- "&amp; \u202egnp.exe')


def known(ex: Exercise) -> Catalogue:
    """The challenge's known mistakes, as the class's grading sends them (the build cache's: verify.catalogues)."""
    return catalogues(Project(), [ex])[ex.track, ex.slug]


def variants(ex: Exercise, runner: Runner) -> list[tuple[str, dict]]:
    """(source, result as the store keeps it) for what learners hand in: the reference, each wrong solution, the
    starter unchanged, a syntax error."""
    sources = [ex.solution_source, *(w.source for w in ex.wrong_solutions), ex.starter_source, f"def {ex.entry}(:\n"]
    mistakes = known(ex)
    return [(s, grade(ex, s, runner, catalogue=mistakes).to_dict(hidden_actual=True)) for s in sources]


# Lines a learner adds of their own (in the function: every variant's code starts with its def line).
OWN_LINES = [
    "    note_{k} = [{n}] * 3",
    "    if len(str({n})) > {n}:\n        pass",
    "    total_{k} = sum(range({n}))",
    '    assert {n} >= 0, "never"',
    '    labels_{k} = {{"k": {n}, "j": [{n}, {n}]}}',
    "    for i_{k} in range({n}):\n        i_{k} += 1",
]


def edited(source: str, rng: random.Random) -> str:
    """The learner's own version of `source`: a line or more of their own in the function, names changed."""
    lines = source.splitlines()
    defs = [i for i, line in enumerate(lines) if line.startswith("def ")]
    for _ in range(rng.randint(1, 4)):
        at = rng.choice(defs) + 1 if defs else 0
        lines[at:at] = rng.choice(OWN_LINES).format(n=rng.randrange(100), k=rng.randrange(10**6)).split("\n")
    text = "\n".join(lines) + "\n"
    for name in sorted(set(re.findall(r"\b[a-z]+_[a-z]+\b", text)))[: rng.randint(0, 3)]:
        text = re.sub(rf"\b{name}\b", f"{name}_{rng.randrange(100)}", text)
    return text


def renamed(source: str) -> str:
    """A copy made to look different: comments rewritten, local names changed, layout spread out."""
    text = re.sub(r"#[^\n]*", "# my own work", source)
    for name in sorted(set(re.findall(r"\b(?:messages|reply|call|result|step|errors|tools_called)\b", text))):
        text = re.sub(rf"\b{name}\b", f"my_{name}", text)
    return text.replace(", ", " , ")


def generate(
    out: Path,
    exercises: list[Exercise],
    learners: int,
    *,
    runner: Runner,
    seed: int = 1,
    handed_in: float = 0.9,
    copiers: float = 0.02,
) -> dict:
    """A class of `learners` in OUT's store (verdicts/), every challenge of `exercises`, its variants graded in
    `runner`; returns its gradebook doc. Stronger learners get right variants more often; a share (`copiers`) hand in
    another learner's code renamed."""
    rng = random.Random(seed)
    store = VerdictStore(out, run=CLASS["run"])
    pool = {ex.slug: variants(ex, runner) for ex in exercises}
    totals = {ex.slug: len(ex.cases) for ex in exercises}
    rows = []
    for i in range(learners):
        learner = Learner(id=f"learner-{i:04d}", name=f"Learner {i}", origin=f"learner-{i:04d}/")
        if i % 97 == 96:
            learner.error = f"learner-{i:04d}.json: not a progress file (no 'format')"
            rows.append(gradebook.row(learner, totals, store))
            continue
        skill = rng.random()
        for ex in exercises:
            if rng.random() > handed_in:
                continue
            options = pool[ex.slug]
            right = rng.random() < skill
            pick = 0 if right else rng.randrange(1, len(options))
            source, result = options[pick]
            text = edited(source, rng)
            if i and rng.random() < copiers:
                other = rng.randrange(i)
                copied = store.path(f"learner-{other:04d}", ex.slug)
                if copied.is_file():
                    record = json.loads(copied.read_text(encoding="utf-8"))
                    text, result = renamed(record["source"] or text), record["result"]
            learner.sources[ex.slug] = Source(f"learner-{i:04d}/{ex.slug}.py", text)
            store.put(learner, ex.slug, learner.sources[ex.slug], f"{i:064x}", result)
        rows.append(gradebook.row(learner, totals, store))
    return gradebook.book(list(totals), rows, CLASS)


def build(out: Path, learners: int = 30) -> dict:
    """Grades and writes the class into `out` (verdicts/, gradebook, feedback/, report/); returns the gradebook."""
    project = Project()
    exercises = [ex for ex in course_exercises(project) if ex.slug in (LIMIT, DISPATCH)]
    with closing(make_runner("in-process", project)) as runner:
        return _build(out, exercises, learners, runner)


def _build(out: Path, exercises: list, learners: int, runner: Runner) -> dict:
    by_slug = {ex.slug: ex for ex in exercises}
    doc = generate(out, exercises, learners, runner=runner, seed=7, copiers=0)
    store = VerdictStore(out, run=CLASS["run"])
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
            result = grade(by_slug[slug], text, runner, catalogue=known(by_slug[slug])).to_dict(hidden_actual=True)
            if name == "looper":  # its first case ran out of time (the in-process runner has no time limit)
                ex = by_slug[slug]
                cases = [request_case(c, ex.entry) for c in ex.cases]
                outcomes = runner.outcomes(source=text, sandbox=ex.sandbox_source, cases=cases)
                outcomes[0] = timeout_outcome()
                result = judge(cases, outcomes, time_limit=ex.time_limit_seconds, mistakes=mistakes_for(known(ex)))
                result = result.to_dict(hidden_actual=True)
            store.put(learner, slug, learner.sources[slug], "0" * 64, result)
        rows.append(gradebook.row(learner, totals, store))
    refused = Learner(id="refused", name="refused", origin="refused.json", error="refused.json: not a progress file")
    rows.append(gradebook.row(refused, totals, store))
    doc = gradebook.book(doc["challenges"], rows, CLASS)
    write_outputs(out, doc, store, exercises)
    return doc
