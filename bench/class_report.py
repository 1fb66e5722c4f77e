#!/usr/bin/env python3
"""The class's report and feedback pages for a generated course-sized class: how long `write_outputs` takes (the
gradebook, a feedback page per learner and the report, similarity included) for 1,000 learners x 13 challenges.

    .venv/bin/python bench/class_report.py                  1,000 learners, every challenge of the course
    .venv/bin/python bench/class_report.py --learners 100   a smoke run

Verdicts are generated, not graded in Pyodide: each challenge's reference solution, its wrong solutions, its starter
and a syntax error are graded once by the real judge (loopcraft.grading.grade), run in this CPython (they are the
course's own, trusted code: `HostRunner`), and each learner gets one of them as their verdict, with a source of
their own (the variant's code, edited: lines added, names changed), a few learners copying another's code renamed.
The same generator makes the tests' classes (tests/test_class_report.py).

Reported: CPU seconds of the whole output and of its parts (reading and feedback pages; the report with
similarity), against a baseline measured in the same run: reading every verdict file (JSON only, no validation),
the least any renderer of the store must do. Writes bench/results/class_report.json.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: this repository's packages

from grader.execute import run_case, settle  # noqa: E402
from loopcraft.classroom import course_exercises, gradebook, write_outputs  # noqa: E402
from loopcraft.classroom.intake import Learner, Source  # noqa: E402
from loopcraft.classroom.store import VerdictStore  # noqa: E402
from loopcraft.exercises import Exercise  # noqa: E402
from loopcraft.grading import grade  # noqa: E402
from loopcraft.project import INSTALL as ROOT  # noqa: E402
from loopcraft.project import Project  # noqa: E402

GOAL_S = 30.0


class HostRunner:
    """Runs the course's own solutions in this CPython with the grader's executor (trusted code only: nothing here
    guards against what learner code might do, and there is no time limit). Like the grader's interpreter, it first
    moves every object alive out of the collector's reach (grader.execute.settle: a case's collection then walks
    only what the case made); `close` gives them back and the collector on, so a test process goes on as before."""

    def __init__(self):
        self._collecting = gc.isenabled()  # run_case turns the collector off after each case, as between cases
        settle()

    def close(self) -> None:
        gc.unfreeze()
        if self._collecting:
            gc.enable()

    def run(self, source, sandbox, entry, cases, time_limit, budget=None):
        return [json.loads(run_case(source, sandbox, entry, json.dumps(c["args"]))) for c in cases]


def variants(ex: Exercise, runner: HostRunner) -> list[tuple[str, dict]]:
    """(source, result as the store keeps it) for what learners hand in: the reference, each wrong solution, the
    starter unchanged, a syntax error."""
    sources = [ex.solution_source, *(w.source for w in ex.wrong_solutions), ex.starter_source, f"def {ex.entry}(:\n"]
    return [(s, grade(ex, s, runner).to_dict(hidden_actual=True)) for s in sources]


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
    seed: int = 1,
    runner: HostRunner | None = None,
    handed_in: float = 0.9,
    copiers: float = 0.02,
) -> dict:
    """A class of `learners` in OUT's store (verdicts/), every challenge of `exercises`; returns its gradebook doc.
    Stronger learners get right variants more often; a share (`copiers`) hand in another learner's code renamed."""
    rng = random.Random(seed)
    store = VerdictStore(out)
    own = runner is None
    runner = runner or HostRunner()
    try:
        pool = {ex.slug: variants(ex, runner) for ex in exercises}
    finally:
        if own:
            runner.close()
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
    return gradebook.book(list(totals), rows)


def cpu() -> float:
    """CPU seconds of this process and its children (esbuild, when a bundle is not in the build cache yet)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=1000)
    args = parser.parse_args()
    project = Project()
    exercises = course_exercises(project)
    folder = Path(tempfile.mkdtemp(prefix="class-report-"))
    try:
        started = cpu()
        doc = generate(folder, exercises, args.learners)
        generated = cpu() - started
        files = sorted(folder.glob("verdicts/*/*.json"))
        started = cpu()
        for path in files:
            json.loads(path.read_text(encoding="utf-8"))
        baseline = cpu() - started
        started, wall = cpu(), time.perf_counter()
        write_outputs(folder, doc, VerdictStore(folder), exercises)
        whole, wall = cpu() - started, time.perf_counter() - wall
        pages = len(list(folder.glob("feedback/*.html")))
        size = (
            sum(p.stat().st_size for p in folder.glob("feedback/*.html"))
            + (folder / "report/index.html").stat().st_size
        )
        figures = {
            "learners": args.learners,
            "challenges": len(exercises),
            "verdicts": len(files),
            "generate_cpu_s": round(generated, 2),
            "baseline_read_cpu_s": round(baseline, 2),
            "write_outputs_cpu_s": round(whole, 2),
            "write_outputs_wall_s": round(wall, 2),
            "ratio_to_baseline": round(whole / baseline, 1) if baseline else None,
            "feedback_pages": pages,
            "output_mb": round(size / 1e6, 1),
            "goal_s": GOAL_S,
            "within_goal": max(whole, wall) < GOAL_S,
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(
        f"{figures['learners']} learners x {figures['challenges']} challenges ({figures['verdicts']} verdicts): "
        f"write_outputs {figures['write_outputs_cpu_s']} CPU-s, {figures['write_outputs_wall_s']} s (goal < {GOAL_S:g} s), "
        f"{figures['ratio_to_baseline']}x reading the verdict files alone ({figures['baseline_read_cpu_s']} CPU-s); "
        f"{figures['feedback_pages']} feedback pages and the report, {figures['output_mb']} MB"
    )
    results = ROOT / "bench" / "results"
    results.mkdir(exist_ok=True)
    (results / "class_report.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
