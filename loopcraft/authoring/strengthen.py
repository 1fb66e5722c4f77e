"""Differential search: generated scenarios on which a surviving mutant or wrong solution returns something else
than the reference solution, shrunk, and proposed as cases.

`python build.py strengthen SLUG` runs the challenge's generated scenarios (loopcraft/authoring/scenarios.py) on the
reference and on every program the cases do not catch: the mutants that survive every case, the ones marked
equivalent, and the wrong solutions that pass every case. It keeps the scenarios on which some program differs,
picks a small set that tells every such program apart (greedily: the scenario that catches the most programs
not yet caught, then the next), shrinks each scenario to a small one that still catches the programs it was
picked for, and proposes each as a case: its arguments, the reference's value as `expected`, a suggested name,
and what it catches. `--accept` writes them into exercise.yaml.

`check` runs the same search on the surviving and equivalent-marked mutants (fewer scenarios), and reports
each that a scenario tells apart with that scenario, shrunk: a mutant that survives every case but not the
generated scenarios shows a case missing, not a mutant no case could catch.

Every output comes from Pyodide (loopcraft/authoring/scenario_runner.py, many scenarios a request); what is proposed or
reported is confirmed by real grading (loopcraft.running.grading.grade) before it is shown.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml.comments import CommentedMap

from grader.canonical import from_tagged
from grader.results import Status
from loopcraft.course import yamlfile
from loopcraft.course.cache import BuildCache
from loopcraft.course.course import MISSING, Case, Exercise
from loopcraft.course.errors import LoopcraftError, Problem, raise_errors
from loopcraft.course.load import find_exercise
from loopcraft.course.paths import rel_path
from loopcraft.course.project import Project
from loopcraft.running.grading import grade, run_only

from .mutate import Score, mutants, runtime_files, source_of
from .progress import progress
from .scenarios import GENERATOR, Generator, GeneratorError, Scenario, Site, find_generator

HARNESS = (Path(__file__).parent / "scenario_runner.py").read_text(encoding="utf-8")
SEED = 0
CHECK_SCENARIOS = 200  # per challenge, in every check (the verdicts are cached)
STRENGTHEN_SCENARIOS = 1000
REFERENCE_JUMPS = 1_000_000  # backward jumps (loop iterations) the reference may take on one scenario
MIN_JUMPS = 20_000  # ...and any other program, at least; or SLOWDOWN times the reference's most
SLOWDOWN = 50
REQUEST_LIMIT_S = 120  # one program's scenarios in one runner case: reached only by a loop in C code
SHRINK_CHUNK = 16  # simpler candidates tried a request, smallest first
SHRINK_ROUNDS = 100
CONFIRM_LIMIT_S = 1.0  # a program graded on the proposed cases: it loops, or it is fast
SHOWN = 160  # characters of a scenario or a value shown in a problem


@dataclass(frozen=True)
class Program:
    """A program the cases do not catch."""

    kind: str  # "mutant" or "wrong"
    source: str
    line: int  # of solution.py (a mutant), of exercise.yaml (a wrong solution's entry, an equivalent mark)
    what: str  # the mutant's change, or the wrong solution's file as exercise.yaml names it
    mistake: str = ""  # the wrong solution's mistake
    equivalent: bool = False  # a mutant marked equivalent

    def describe(self) -> str:
        return f"{self.what} ({self.mistake})" if self.kind == "wrong" else f"solution.py:{self.line}: {self.what}"

    def short(self) -> str:
        return self.what if self.kind == "wrong" else f"the mutant {self.what} (solution.py line {self.line})"


Output = tuple[str, str]  # (kind, text) as scenario_runner.py returns them, the jumps left out


class Differ:
    """Runs programs on scenarios in a runner's Pyodide, many scenarios a request."""

    def __init__(self, runner, ex: Exercise):
        self.runner, self.ex = runner, ex
        self.budget = MIN_JUMPS
        self._reference: dict[str, tuple[str, str, int]] = {}

    def run(self, source: str, scenarios: list[Scenario], budget: int) -> list[tuple[str, str, int]]:
        if not scenarios:
            return []
        args = {
            "sandbox": self.ex.sandbox_source,
            "source": source,
            "entry": self.ex.entry,
            "scenarios": [s.args_json for s in scenarios],
            "budget": budget,
            "twice": any(s.call_twice for s in scenarios),  # one generator's scenarios: all of them or none
        }
        (test,) = run_only(
            self.runner, source="", sandbox=HARNESS, entry="run_scenarios", args=[args], time_limit=REQUEST_LIMIT_S
        )
        if test.passed:
            return [tuple(item) for item in test.actual]
        if test.status is Status.TIMEOUT:  # a loop no jump counter sees: halve until it is one scenario
            if len(scenarios) == 1:
                return [("timeout", "", 0)]
            half = len(scenarios) // 2
            return self.run(source, scenarios[:half], budget) + self.run(source, scenarios[half:], budget)
        raise LoopcraftError(f"running scenarios of {self.ex.track}/{self.ex.slug} failed: {test.message}")

    def reference(self, scenarios: list[Scenario]) -> list[tuple[str, str, int]]:
        """The reference's outputs, each scenario run once per search."""
        todo = list({s.args_json: s for s in scenarios if s.args_json not in self._reference}.values())
        for scenario, result in zip(todo, self.run(self.ex.solution_source, todo, REFERENCE_JUMPS), strict=True):
            self._reference[scenario.args_json] = result
        return [self._reference[s.args_json] for s in scenarios]

    def outputs(self, program: Program, scenarios: list[Scenario]) -> list[Output]:
        return [(kind, text) for kind, text, _ in self.run(program.source, scenarios, self.budget)]


def _differs(reference: tuple[str, str, int], output: Output) -> bool:
    return output != ("value", reference[1])


@dataclass
class Search:
    """What a search found: the scenarios the reference answers (valid), the ones it does not, and for each
    program the valid scenarios it differs on (by index)."""

    valid: list[Scenario]
    invalid: list[tuple[Scenario, tuple[str, str, int]]]
    kills: dict[Program, list[int]] = field(default_factory=dict)


def search(differ: Differ, programs: list[Program], scenarios: list[Scenario]) -> Search:
    results = differ.reference(scenarios)
    valid = [s for s, r in zip(scenarios, results, strict=True) if r[0] == "value"]
    invalid = [(s, r) for s, r in zip(scenarios, results, strict=True) if r[0] != "value"]
    if valid:
        differ.budget = max(MIN_JUMPS, SLOWDOWN * max(r[2] for r in results if r[0] == "value"))
    found = Search(valid, invalid)
    reference = differ.reference(valid)
    for program in programs:
        outputs = differ.outputs(program, valid)
        found.kills[program] = [i for i, (r, o) in enumerate(zip(reference, outputs, strict=True)) if _differs(r, o)]
    return found


def cover(found: Search) -> list[tuple[Scenario, list[Program]]]:
    """A small set of scenarios that together catch every program some scenario catches: greedily, the one
    that catches the most programs not yet caught (the smaller on a tie), each with the programs it is for."""
    left = {program: set(indexes) for program, indexes in found.kills.items() if indexes}
    chosen = []
    while left:
        counts: dict[int, list[Program]] = {}
        for program, indexes in left.items():
            for index in indexes:
                counts.setdefault(index, []).append(program)
        best = min(counts, key=lambda i: (-len(counts[i]), found.valid[i].size))
        chosen.append((found.valid[best], counts[best]))
        for program in counts[best]:
            del left[program]
    return chosen


def shrink(differ: Differ, generator: Generator, scenario: Scenario, programs: list[Program]) -> Scenario:
    """The smallest scenario found, one simplification at a time, that the reference still answers and on
    which every one of `programs` still differs from it."""
    current = scenario
    for _ in range(SHRINK_ROUNDS):
        candidates = generator.simpler(current)
        better = None
        for start in range(0, len(candidates), SHRINK_CHUNK):
            chunk = candidates[start : start + SHRINK_CHUNK]
            alive = [(s, r) for s, r in zip(chunk, differ.reference(chunk), strict=True) if r[0] == "value"]
            for program in programs:
                if not alive:
                    break
                outputs = differ.outputs(program, [s for s, _ in alive])
                alive = [(s, r) for (s, r), o in zip(alive, outputs, strict=True) if _differs(r, o)]
            if alive:
                better = alive[0][0]  # the chunk is smallest first
                break
        if better is None:
            return current
        current = better
    return current


# ---- what check reports ------------------------------------------------------------------------------------


@dataclass
class ScenarioCheck:
    """What check's search found in a course: problems (equivalent marks that a scenario refutes, generators
    that fail or make scenarios the reference does not answer, challenges without one), and per exercise the
    survivors a scenario tells apart, {(line, change): "it differs on ..."} (see mutate.survivor_problems)."""

    problems: list[Problem] = field(default_factory=list)
    differs: dict[str, dict[tuple[int, str], str]] = field(default_factory=dict)  # by "track/slug"
    scenarios: dict[str, int] = field(default_factory=dict)  # how many were run, by "track/slug"


def check_scenarios(root: Path, scores: list[Score], cache: BuildCache, runner) -> ScenarioCheck:
    """Run each challenge's generated scenarios on its reference and on the mutants no case catches (cached by
    everything the verdicts depend on), in `runner` (of the "trusted" kind: it starts only if something must run)."""
    found = ScenarioCheck()
    with progress(len(scores), "generated scenarios", "challenge") as bar:
        for score in scores:
            _check_challenge(root, score, cache, runner, found)
            bar.update()
    return found


def _check_challenge(root: Path, score: Score, cache: BuildCache, runner, found: ScenarioCheck) -> None:
    """One challenge's part of `check_scenarios`, added to `found`."""
    ex = score.exercise
    name = f"{ex.track}/{ex.slug}"
    try:
        generator = find_generator(root, ex)
        if generator is None:
            found.problems.append(_no_generator(root, ex))
            return
        programs = _unmatched_mutants(ex, score, sources=False)
        key = _check_key(cache, ex, generator, programs)
        cached = cache.get_json("scenarios", key)
        if cached is None:
            cached = _check_one(runner, ex, generator, _unmatched_mutants(ex, score))
            cache.put_json("scenarios", key, cached)
        found.scenarios[name] = cached["scenarios"]
        found.differs[name] = _read_findings(root, ex, generator, programs, cached, found.problems)
    except GeneratorError as exc:
        found.problems.append(exc.problem)


def _no_generator(root: Path, ex: Exercise) -> Problem:
    return Problem(
        rel_path(ex.dir / "exercise.yaml", root),
        1,
        f"no scenario generator ({GENERATOR}), so no generated scenario looks for the mistakes the cases miss; "
        "see docs/authoring.md",
        note=True,
    )


def _unmatched_mutants(ex: Exercise, score: Score, *, sources: bool = True) -> list[Program]:
    """The mutants no case catches: the survivors and the ones marked equivalent; without their sources unless
    asked (making every mutant again costs more than a warm check of the rest)."""
    unmatched = [o for o in score.outcomes if o.killed_by is None or (o.line, o.change) in score.equivalent]
    made = source_of(mutants(ex.solution_source)) if sources and unmatched else {}
    return [
        Program(
            "mutant",
            made.get((o.line, o.change), ""),
            o.line,
            o.change,
            equivalent=(o.line, o.change) in score.equivalent,
        )
        for o in unmatched
    ]


def _check_key(cache: BuildCache, ex: Exercise, generator: Generator, programs: list[Program]) -> str:
    return cache.key(
        "scenarios",
        ex.solution_source,
        ex.sandbox_source,
        json.dumps(ex.entry),  # a name, or a list of names
        json.dumps(generator.sources),
        json.dumps([[p.line, p.what] for p in programs]),
        str(SEED),
        str(CHECK_SCENARIOS),
        *runtime_files(),
    )


def _check_one(runner, ex: Exercise, generator: Generator, programs: list[Program]) -> dict:
    """The search of one challenge, as kept in the cache: each program told apart, with its shrunk scenario."""
    scenarios = generator.scenarios(SEED, CHECK_SCENARIOS)
    differ = Differ(runner, ex)
    found = search(differ, programs, scenarios)
    findings = []
    for scenario, caught in find_cases(differ, generator, found):
        (reference,) = differ.reference([scenario])
        for program in caught:
            if _confirmed(runner, ex, program, scenario):
                (got,) = differ.outputs(program, [scenario])
                findings.append([program.line, program.what, list(scenario.choices), reference[1], list(got)])
    invalid = [[s.args_json, list(r[:2])] for s, r in found.invalid[:1]]
    return {"scenarios": len(scenarios), "findings": findings, "invalid": invalid, "invalid_count": len(found.invalid)}


def _read_findings(
    root: Path, ex: Exercise, generator: Generator, programs: list[Program], cached: dict, problems: list[Problem]
) -> dict[tuple[int, str], str]:
    """The survivors told apart, {(line, change): "it differs on ..."}; a refuted equivalent mark, a hint at
    `strengthen` and scenarios the reference does not answer go into `problems`."""
    yaml = rel_path(ex.dir / "exercise.yaml", root)
    by_name = {(p.line, p.what): p for p in programs}
    marks = {(m.line, m.change): m.yaml_line for m in ex.equivalent_mutants}
    differs = {}
    for line, change, choices, reference, got in cached["findings"]:
        program = by_name.get((line, change))
        if program is None:
            continue
        text = (
            f"it differs on {_args_text(generator.replay(choices).args)}: "
            f"reference {_short(reference)}, mutant {_shown(tuple(got))}"
        )
        if program.equivalent:
            message = f"mutant {change} at solution.py line {line} is marked equivalent, but {text}"
            problems.append(Problem(yaml, marks[line, change], message))
        differs[line, change] = text
    if differs:
        problems.append(
            Problem(
                yaml,
                ex.cases_line,
                f"{len(differs)} mutant(s) pass every case but not the generated scenarios: "
                f"`python build.py strengthen {ex.track}/{ex.slug}` proposes cases that catch them",
            )
        )
    if cached["invalid_count"]:
        text, (kind, what) = cached["invalid"][0]
        problems.append(
            Problem(
                rel_path(ex.dir / GENERATOR, root),
                1,
                f"the reference solution does not answer {cached['invalid_count']} generated scenario(s), "
                f"e.g. {_args_text(json.loads(text))} ({kind}: {_short(what)}): the generator makes inputs the task "
                "does not allow, or the reference has a bug",
            )
        )
    return differs


def find_cases(differ: Differ, generator: Generator, found: Search) -> list[tuple[Scenario, list[Program]]]:
    """The covering scenarios of a search, each shrunk for the programs it was picked for."""
    return [(shrink(differ, generator, scenario, caught), caught) for scenario, caught in cover(found)]


def _args_text(args: dict) -> str:
    """A scenario's arguments as Python writes them: JSON inside a string stays readable."""
    return _short(repr(args))


def _confirmed(runner, ex: Exercise, program: Program, scenario: Scenario) -> bool:
    """Real grading agrees: the program does not pass the scenario made a case with the reference's value."""
    (case,) = _graded_cases(runner, ex, [scenario])
    (test,) = grade(ex, program.source, _Capped(runner, CONFIRM_LIMIT_S), cases=[case], reveal_hidden=True).tests
    return test.status is not Status.PASS


def _graded_cases(runner, ex: Exercise, scenarios: list[Scenario]) -> list[Case]:
    """The scenarios as cases, with the reference's values from real grading."""
    cases = [Case(s.name(), s.args, MISSING, True, 0, call_twice=s.call_twice) for s in scenarios]
    result = grade(ex, ex.solution_source, runner, cases=cases, reveal_hidden=True)
    return [
        dataclasses.replace(c, expected=from_tagged(test.actual) if test.status is Status.PASS else MISSING)
        for c, test in zip(cases, result.tests, strict=True)
    ]


class _Capped:
    def __init__(self, runner, limit: float):
        self._runner, self._limit = runner, limit

    def run(self, **request) -> dict:
        return self._runner.run(**{**request, "time_limit": min(self._limit, request["time_limit"])})


def _short(text: str) -> str:
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def _shown(output: Output) -> str:
    kind, text = output
    if kind == "value":
        return _short(text)
    if kind == "again":
        return f"called again, {_short(text)}"
    return "runs out of time" if kind == "timeout" else f"raises {_short(text)}"


# ---- strengthen: proposing cases ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Proposal:
    case: Case  # hidden, its expected value the reference's (from real grading)
    catches: list[Program]  # confirmed by real grading


@dataclass(frozen=True)
class Decision:
    """One call of `pick` in a generator, over the scenarios of a search: what it chose among and what it made."""

    site: Site
    text: str  # the call as the generator writes it, `pick.choice(PATTERNS)`
    options: int  # the most it chose among
    made: int  # how many of them some scenario chose


@dataclass(frozen=True)
class Strengthening:
    exercise: Exercise
    seed: int
    scenarios: int  # generated
    invalid: int  # generated scenarios the reference does not answer
    missed: list[Program]  # what the cases miss: survivors, equivalent-marked mutants, wrong solutions
    proposals: list[Proposal]
    untold: list[Program]  # missed, and told apart by no scenario
    generator: list[str]  # its file, then the track modules it imports
    varied: list[Decision]  # what the scenarios varied, call by call of `pick`


def strengthen(
    project: Project, name: str, *, seed: int = SEED, count: int = STRENGTHEN_SCENARIOS, runner=None
) -> Strengthening:
    """Search `count` scenarios of `seed` for cases that catch what the cases of challenge `name` miss, in `runner`
    (a Pyodide one: the scenarios' runner needs Python 3.12's sys.monitoring), or a trusted one of its own."""
    from loopcraft.running.runners import make_runner

    from .mutate import score
    from .verify import verify_exercise

    root = project.root
    ex = find_exercise(root, name)
    generator = find_generator(root, ex)  # raises GeneratorError
    if generator is None:
        raise LoopcraftError(
            f"{rel_path(ex.dir, root).as_posix()} has no {GENERATOR}: write one first (see docs/authoring.md)"
        )
    scenarios = generator.scenarios(seed, count)  # before anything runs: a generator that fails costs no Pyodide
    # The mutants, the solutions and the scenarios: one runner.
    with contextlib.nullcontext(runner) if runner else make_runner("trusted", project) as runner:
        scores, problems = score(project, [(ex, 0.0)], BuildCache(root), runner)
        strength = verify_exercise(root, runner, ex)
        raise_errors([p for p in strength.problems + problems if not p.note and "wrong solution" not in p.message])
        missed = [
            Program("wrong", wrong.source, wrong.line, _wrong_name(ex, wrong), wrong.mistake)
            for wrong, caught in strength.caught
            if caught is not None and not caught
        ]
        missed += _unmatched_mutants(ex, scores[0]) if scores else []
        differ = Differ(runner, ex)
        found = search(differ, missed, scenarios)
        chosen = find_cases(differ, generator, found)
        proposals = _proposals(runner, ex, chosen)
    told = {program for proposal in proposals for program in proposal.catches}
    return Strengthening(
        ex,
        seed,
        len(scenarios),
        len(found.invalid),
        missed,
        proposals,
        [p for p in missed if p not in told],
        [file for file, _ in generator.sources],
        varied(generator, scenarios),
    )


def varied(generator: Generator, scenarios: list[Scenario]) -> list[Decision]:
    """Every call of `pick` the scenarios went through, in the order first made, with the options it had and how
    many of them some scenario took: what the generator varies, and so what it can reach."""
    options: dict[Site, int] = {}
    made: dict[Site, set[int]] = {}
    for scenario in scenarios:
        for (site, n), choice in zip(scenario.decisions, scenario.choices, strict=True):
            options[site] = max(options.get(site, 0), n)
            made.setdefault(site, set()).add(choice)
    lines = {file: text.splitlines() for file, text in generator.sources}
    return [Decision(site, _call_text(lines, site), options[site], len(made[site])) for site in options]


def _call_text(lines: dict[str, list[str]], site: Site) -> str:
    """The call at `site`, as written (its columns count UTF-8 bytes, as Python's code positions do)."""
    source = lines.get(site.file, [])
    if not 0 < site.line <= len(source):
        return f"pick.{site.method}(...)"
    line = source[site.line - 1].encode()
    text = line[site.column : site.end].decode(errors="replace").strip()
    return text if site.end is not None else text + " ..."


def unreached_text(result: Strengthening) -> str:
    """Why no scenario tells apart the untold programs not marked equivalent: the generator that made the scenarios,
    and every decision it varied with how many of its options some scenario took. A mistake beyond them needs a
    decision the generator does not make, or an option it does not have. Empty when every untold one is marked."""
    unmarked = [program.short() for program in result.untold if not program.equivalent]
    if not unmarked:
        return ""
    first, *modules = result.generator
    used = f" (with {', '.join(Path(m).name for m in modules)})" if modules else ""
    rows = [(f"{Path(d.site.file).name}:{d.site.line}", d.text, f"{d.made} of {d.options}") for d in result.varied]
    widths = [max((len(row[i]) for row in rows), default=0) for i in range(2)]
    table = "".join(f"  {a:<{widths[0]}}  {b:<{widths[1]}}  {c}\n" for a, b, c in rows)
    return (
        f"Why no scenario tells {', '.join(unmarked)} apart: {first}{used} made {result.scenarios} scenarios, "
        "varying only these calls of `pick` (with how many of its options some scenario took):\n"
        + table
        + "None of them makes an input these get wrong: teach the generator another option, or a decision it does "
        "not make (which items, and in which order: `pick.sample`).\n"
    )


def _wrong_name(ex: Exercise, wrong) -> str:
    return wrong.path.relative_to(ex.dir).as_posix()


def _proposals(runner, ex: Exercise, chosen: list[tuple[Scenario, list[Program]]]) -> list[Proposal]:
    """The chosen scenarios as cases named apart from the existing ones, and what each catches in real grading."""
    taken = {case.name for case in ex.cases}
    cases = []
    for case in _graded_cases(runner, ex, [scenario for scenario, _ in chosen]):
        name, n = case.name, 2
        while name in taken:
            name, n = f"{case.name} ({n})", n + 1
        taken.add(name)
        cases.append(dataclasses.replace(case, name=name))
    capped = _Capped(runner, CONFIRM_LIMIT_S)
    proposals = []
    for case, (_, programs) in zip(cases, chosen, strict=True):
        if case.expected is MISSING:
            continue  # the reference fails it in real grading: not a case
        catches = [
            program
            for program in programs
            if grade(ex, program.source, capped, cases=[case], reveal_hidden=True).tests[0].status is not Status.PASS
        ]
        if catches:
            proposals.append(Proposal(case, catches))
    return proposals


def proposal_text(proposal: Proposal, *, private: bool = False, indent: str = "  ") -> str:
    """A proposal as exercise.yaml writes a case (its `- ` at `indent`), after a comment saying what it catches."""
    case = proposal.case
    item = {"name": case.name, ("private" if private else "hidden"): True}
    item |= {"call_twice": True} if case.call_twice else {}
    item |= {"args": case.args, "expected": case.expected}
    node = CommentedMap((key, yamlfile.flowing(value)) for key, value in item.items())
    lines = yamlfile.to_text([node]).splitlines(keepends=True)  # each indented by two, `  - name: ...`
    caught = ", ".join(program.short() for program in proposal.catches)
    return f"{indent}# Found by `build.py strengthen`; catches {caught}\n" + "".join(
        indent + line[2:] for line in lines
    )


def accept(root: Path, result: Strengthening, *, private: bool = False) -> Path:
    """Write the proposals into exercise.yaml: hidden ones before the private cases (if any), private ones at
    the end. The rest of the file is left as it was; returns the file, relative to the root."""
    ex = result.exercise
    path = ex.dir / "exercise.yaml"
    before = path.read_text(encoding="utf-8")
    lines = before.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    first_private = next((case.line for case in ex.cases if case.private), None)
    at = len(lines)
    if not private and first_private is not None:
        at = first_private - 1
        while at > 0 and lines[at - 1].lstrip().startswith("#"):
            at -= 1  # the comment that leads into the private cases stays with them
    first = lines[ex.cases[0].line - 1]
    indent = first[: len(first) - len(first.lstrip())]
    text = "".join(proposal_text(p, private=private, indent=indent) for p in result.proposals)
    path.write_text("".join(lines[:at]) + text + "".join(lines[at:]), encoding="utf-8")
    try:
        find_exercise(root, str(ex.dir))
    except LoopcraftError:
        path.write_text(before, encoding="utf-8")
        raise
    return rel_path(path, root)
