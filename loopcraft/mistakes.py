"""Known mistakes: a learner whose failing run returns what a wrong solution of the challenge returns is told so,
"This looks like a known mistake: <hint>".

The catalogue of a challenge is made when the build verifies it (loopcraft/verify.py runs every wrong solution on
every case, and keeps each verdict in the build cache): per wrong solution that may be named (`named: false` never
is; one that does not load proves nothing), the text a learner is shown (its `hint`, else its `mistake`) and a
fingerprint of each case it fails, the others being of no use:

- `{"status": "fail", "value": <canonical JSON>}` for a visible case, whose values the page shows anyway;
- `{"status": "fail", "digest": <sha256 of salt + canonical JSON>}` for a hidden or private case, salted with the
  challenge's salt (loopcraft/render.py `salt`, the hidden cases' own: see docs/threat-model.md for what a digest
  of a small value still gives away);
- `{"status": "error"}` or `{"status": "timeout"}` for a case it ended without a value.

A page gets the catalogue's published part (render.py `page_mistakes`); `loopcraft grade`, the feedback pages and the
class report get all of it (`catalogues`, from the build cache, the wrong solutions run only where it has nothing).

Matching happens outside the interpreter the learner's code ran in, here and in frontend/src/mistakes.js, rule for
rule (tests/golden/mistake_vectors.json holds both to the same answers): a mistake matches a failing run when, on
every case the mistake fails and the run ran, the run's fingerprint equals the mistake's (a case the run passed rules
the mistake out; a case the run did not run, or whose value it did not keep, a private case read from the class's
store, is not compared), and at least one case was compared. Mistakes are
named only when together they reproduce every failed case whose value is known: a run that also fails elsewhere (an
untouched starter, which fails everything) is not told a mistake it shares one case with. A mistake whose compared
cases are a strict subset of another matching mistake's is left out (it explains less of the same run); the rest come
in order of cases compared, most first, then in exercise.yaml's order.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from grader.canonical import digest
from grader.results import CaseResult, RunResult, Status, stored_json

from .cache import BuildCache
from .course import Exercise, WrongSolution
from .project import Project
from .render import salt
from .runners import Runner, make_runner

KNOWN_MISTAKE = "This looks like a known mistake: "  # frontend/src/mistakes.js says it the same way


def said(hint: str) -> str:
    """What a learner is told of a mistake their run matches."""
    return KNOWN_MISTAKE + hint


@dataclass(frozen=True)
class Catalogue:
    """A challenge's known mistakes: `known` is [{"file": "wrong/x.py", "hint": ..., "cases": {case name:
    fingerprint}}], in exercise.yaml's order; `salt` makes the digests."""

    salt: str
    known: list[dict]


def returned_json(test: CaseResult) -> str | None:
    """The canonical JSON of what a failed case returned, or None if it is not known (a private case as the class's
    store keeps it, a value cut short when the verdict was written)."""
    if "actual" in test.truncated:
        return None
    if test.actual_json is not None:
        return test.actual_json
    return None if test.hidden else stored_json(test.actual)


def fingerprint(test: CaseResult, secret: bool, salt_: str) -> dict | None:
    """What a case is compared by (`{"status": "pass"}` for one that passed); `secret`: the case is hidden or private
    (a digest, not the value). None for a failed case whose value is not known."""
    if test.status is not Status.FAIL:
        return {"status": test.status.value}
    returned = returned_json(test)
    if returned is None:
        return None
    return {"status": "fail", "digest": digest(salt_, returned)} if secret else {"status": "fail", "value": returned}


def secrets(ex: Exercise) -> dict[str, bool]:
    """{case name: whether it is hidden or private}: the cases a fingerprint holds a digest of, not the value."""
    return {case.name: case.hidden for case in ex.cases}


def fingerprints(result: RunResult, secret: dict[str, bool], salt_: str) -> dict[str, dict | None]:
    """{case name: fingerprint} of the cases `result` ran; `secret` is `secrets`' (cases it does not name, those a
    course no longer has, are left out)."""
    return {t.name: fingerprint(t, secret[t.name], salt_) for t in result.tests if t.name in secret}


def _failed(fingerprint_: dict | None) -> bool:
    """A fingerprint of a case that did not pass, its value known."""
    return fingerprint_ is not None and fingerprint_["status"] != Status.PASS.value


def wrong_file(ex: Exercise, wrong: WrongSolution) -> str:
    """A wrong solution as exercise.yaml names it, e.g. wrong/no_reset.py."""
    return Path(os.path.relpath(wrong.path, ex.dir)).as_posix()


def catalogue(ex: Exercise, runs: list[tuple[WrongSolution, RunResult]]) -> Catalogue:
    """The catalogue of `ex` from its wrong solutions' verdicts (verify.verdict's: hidden cases judged as visible,
    private ones with what they returned)."""
    ex_salt = salt(ex)
    known = []
    for wrong, result in runs:
        # A wrong solution that does not load fails every case alike, as any code that does not load would.
        if not wrong.named or result.status is Status.ERROR:
            continue
        cases = {name: case for name, case in fingerprints(result, secrets(ex), ex_salt).items() if _failed(case)}
        if cases:
            known.append({"file": wrong_file(ex, wrong), "hint": wrong.hint or wrong.mistake, "cases": cases})
    return Catalogue(ex_salt, known)


def match(known: list[dict], ran: dict[str, dict | None]) -> list[dict]:
    """The mistakes of `known` that a run looks like, best first, by `ran` ({case: fingerprint, or None where it
    failed with a value not known}, the cases it ran: see the module's docstring); frontend/src/mistakes.js
    `matchMistakes`, rule for rule."""
    found = []
    for mistake in known:
        compared = set()
        for name, theirs in mistake["cases"].items():
            mine = ran.get(name)
            if mine is None:  # not run, or failed with a value not known
                continue
            if mine != theirs:  # another value, or passed: the mistake would have failed it so
                break
            compared.add(name)
        else:
            if compared:
                found.append((mistake, compared))
    explained = set().union(*(cases for _, cases in found))
    if any(_failed(fingerprint_) and name not in explained for name, fingerprint_ in ran.items()):
        return []  # a failure no known mistake reproduces: an untouched starter "matched" whatever also failed there
    kept = [(m, cases) for m, cases in found if not any(cases < other for _, other in found)]
    kept.sort(key=lambda pair: -len(pair[1]))  # stable: ties stay in exercise.yaml's order
    return [mistake for mistake, _ in kept]


def matched(catalogue_: Catalogue, result: RunResult, secret: dict[str, bool]) -> list[dict]:
    """The known mistakes a run looks like, best first (`secret`: `secrets`' of its challenge): none when it passed,
    or when its code did not load. frontend/src/mistakes.js `knownMistakes` (which gives their hints)."""
    if result.status is not Status.FAIL:
        return []
    return match(catalogue_.known, fingerprints(result, secret, catalogue_.salt))


def catalogues(
    project: Project, exercises: list[Exercise], runner: Runner | None = None
) -> dict[tuple[str, str], Catalogue]:
    """{(track, slug): catalogue} of `exercises`, from the verdicts the build keeps in the project's build cache; a
    wrong solution whose verdict it does not hold runs in `runner` (or a trusted runner of its own, started only
    then), and its verdict is kept for the next build."""
    from .verify import verdict  # verify makes the build's catalogues with this module

    if runner is None:
        with make_runner("trusted", project) as own:
            return catalogues(project, exercises, own)
    cache = BuildCache(project.root)
    return {
        (ex.track, ex.slug): catalogue(
            ex, [(wrong, verdict(runner, ex, wrong.source, cache)) for wrong in ex.wrong_solutions if wrong.named]
        )
        for ex in exercises
    }


def named_for(project: Project, ex: Exercise, results: list[RunResult]) -> list[list[str]]:
    """What `loopcraft grade` tells of each result: "This looks like a known mistake: <hint>" for each it looks
    like. The catalogue is looked up (or made) only when some result failed."""
    if not any(result.status is Status.FAIL for result in results):
        return [[] for _ in results]
    known = catalogues(project, [ex])[ex.track, ex.slug]
    return [[said(m["hint"]) for m in matched(known, result, secrets(ex))] for result in results]
