"""How much mutation testing and the scenario search cost `check`, and how the mutants' families fare.

    python bench/mutation.py                      the timings, on a copy of the real course
    python bench/mutation.py --families [DIR]     the families, on a copy of DIR (default: the course's exercises/)

Timings, in one run: `check --no-verify` (loading and validating, the baseline), `check` with an empty build cache
(verification, every challenge's mutants and its generated scenarios in Pyodide), `check` again (verdicts from
the cache), `check` of one challenge after its cases changed (only its mutants and scenarios run again), and the
same check warm. Each as wall seconds and CPU-seconds (this process's children: Node's included), with the wall
ratios to the baseline, as JSON.

Families: per family of mutants (the operators' changes, and each kind of learners' mistake), how many the
course's solutions make, how many the cases catch, and how many of the rest the challenge's generated
scenarios (1,000 of seed 0) tell apart from the reference.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: this repository's packages

from loopcraft.course.project import INSTALL as ROOT  # noqa: E402

EDITED = "exercises/build-an-agent/dispatch-registry/exercise.yaml"


def check(project: Path, *flags: str) -> dict:
    start, before = time.perf_counter(), _children_cpu()
    subprocess.run(
        [sys.executable, "build.py", "check", "--root", str(project), *flags],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return {"wall": round(time.perf_counter() - start, 2), "cpu": round(_children_cpu() - before, 2)}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timings() -> dict:
    with tempfile.TemporaryDirectory(prefix="loopcraft-bench-mutation-") as tmp:
        project = Path(tmp)
        shutil.copytree(ROOT / "exercises", project / "exercises")
        runs = {"no_verify": check(project, "--no-verify"), "cold": check(project), "warm": check(project)}
        # One challenge gains a case (a copy of its first, renamed): only its mutants and scenarios run again.
        edited = project / EDITED
        text = edited.read_text()
        first = text.index("\n  - name: ", text.index("\ncases:\n")) + 1
        end = text.index("\n  - name: ", first) + 1
        copy = text[first:end].replace("  - name: ", "  - name: (copy) ", 1)
        edited.write_text(text[:end] + copy + text[end:])
        runs["one_changed"] = check(project, "dispatch-registry")
        runs["one_warm"] = check(project, "dispatch-registry")
    baseline = runs["no_verify"]["wall"]
    return {"runs": runs, "wall_ratio_to_no_verify": {k: round(v["wall"] / baseline, 1) for k, v in runs.items()}}


def families(exercises: Path, scenarios: int = 1000) -> dict:
    from loopcraft.authoring import mutate
    from loopcraft.authoring.scenarios import find_generator
    from loopcraft.authoring.strengthen import Differ, Program, search
    from loopcraft.course.cache import BuildCache
    from loopcraft.course.load import load_course
    from loopcraft.course.project import Project
    from loopcraft.running.pyodide import PyodideRunner

    tally: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory(prefix="loopcraft-bench-families-") as tmp:
        project = Path(tmp)
        shutil.copytree(exercises, project / "exercises")
        tracks = load_course(project)
        scores, _ = mutate.score(
            project, [(ex, track.mutation_threshold) for track in tracks for ex in track.exercises], BuildCache(project)
        )
        with PyodideRunner(Project(), fresh=False) as runner:
            for score in scores:
                ex = score.exercise
                made = {(m.line, m.change): m for m in mutate.mutants(ex.solution_source)}
                missed = [o for o in score.outcomes if o.killed_by is None and (o.line, o.change) in made]
                for outcome in score.outcomes:
                    family = (
                        made[outcome.line, outcome.change].family if (outcome.line, outcome.change) in made else "?"
                    )
                    counts = tally.setdefault(family, {"made": 0, "caught_by_cases": 0, "missed": 0, "told_apart": 0})
                    counts["made"] += 1
                    counts["caught_by_cases"] += outcome.killed_by is not None
                    counts["missed"] += outcome.killed_by is None
                generator = find_generator(project, ex)
                if generator is None or not missed:
                    continue
                programs = [Program("mutant", made[o.line, o.change].source, o.line, o.change) for o in missed]
                found = search(Differ(runner, ex), programs, generator.scenarios(0, scenarios))
                for program, indexes in found.kills.items():
                    if indexes:
                        tally[made[program.line, program.what].family]["told_apart"] += 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--families", nargs="?", const=ROOT / "exercises", type=Path, metavar="DIR")
    args = parser.parse_args()
    print(json.dumps(families(args.families) if args.families else timings(), indent=2))


if __name__ == "__main__":
    main()
