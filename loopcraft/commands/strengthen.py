"""`loopcraft strengthen SLUG [--accept [--private]]`: generated scenarios run on the reference and on what the
cases miss (surviving mutants, wrong solutions); the cases that catch them are proposed, or written with --accept
(loopcraft/authoring/strengthen.py)."""

from __future__ import annotations

import argparse

from loopcraft.authoring.scenarios import GeneratorError
from loopcraft.authoring.strengthen import SEED, STRENGTHEN_SCENARIOS, proposal_text, strengthen, unreached_text
from loopcraft.authoring.strengthen import accept as accept_cases
from loopcraft.course.errors import ExerciseError
from loopcraft.course.project import Project
from loopcraft.running.grading import Runners, runner_for

HELP = (
    "run generated scenarios on the reference and on what the cases miss (surviving mutants, wrong solutions), and "
    "propose the cases that catch them"
)


def add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("exercise", metavar="SLUG", help="a challenge: SLUG, TRACK/SLUG or its folder")
    parser.add_argument("--seed", type=int, default=SEED, help=f"the scenarios' seed (default {SEED})")
    parser.add_argument(
        "--scenarios",
        dest="count",
        type=int,
        default=STRENGTHEN_SCENARIOS,
        help=f"how many scenarios to generate (default {STRENGTHEN_SCENARIOS})",
    )
    parser.add_argument("--accept", action="store_true", help="write the proposed cases into exercise.yaml")
    parser.add_argument("--private", action="store_true", help="with --accept: as private cases, not hidden ones")


def run(
    *,
    project: Project,
    exercise: str,
    seed: int = SEED,
    count: int = STRENGTHEN_SCENARIOS,
    accept: bool = False,
    private: bool = False,
    runners: Runners | None = None,
) -> int:
    try:
        with runner_for(project, "trusted", runners) as runner:
            result = strengthen(project, exercise, seed=seed, count=count, runner=runner)
    except GeneratorError as exc:
        raise ExerciseError([exc.problem]) from None
    ex = result.exercise
    name = f"{ex.track}/{ex.slug}"
    told = len(result.missed) - len(result.untold)
    print(
        f"{name}: {result.scenarios} generated scenarios (seed {result.seed}) against the {len(result.missed)} "
        f"program(s) the cases miss ({_missed(result.missed)})."
    )
    if result.invalid:
        print(f"The reference solution does not answer {result.invalid} of them: `check` shows one.")
    if result.proposals:
        print(
            f"{told} of them differ from the reference on some scenario; these {len(result.proposals)} case(s) catch them:\n"
        )
        for proposal in result.proposals:
            print(proposal_text(proposal, private=private))
    if result.untold:
        print("No scenario tells these apart from the reference (equivalent, or beyond what the generator makes):")
        for program in result.untold:
            print(f"  {program.describe()}")
        if unreached := unreached_text(result):
            print(unreached, end="")
    if not result.proposals:
        print("Nothing to propose.")
    elif accept:
        yaml = accept_cases(project.root, result, private=private)
        kind = "private" if private else "hidden"
        print(
            f"Wrote {len(result.proposals)} {kind} case(s) into {yaml.as_posix()}: review their names, then run "
            f"`python build.py check {name}`."
        )
    else:
        print(
            f"Write them into exercise.yaml with `python build.py strengthen {name} --accept` (as hidden cases; "
            "`--private` for private ones), then give them names that say the rule they check."
        )
    return 0


def _missed(programs) -> str:
    mutants = sum(program.kind == "mutant" for program in programs)
    return f"{mutants} mutant(s), {len(programs) - mutants} wrong solution(s)"
