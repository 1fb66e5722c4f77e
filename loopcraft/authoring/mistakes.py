"""Known mistakes: a learner whose failing run returns what a wrong solution of the challenge returns is told so,
"This looks like a known mistake: <hint>".

The catalogue of a challenge is made when the build verifies it (loopcraft/authoring/verify.py runs every wrong solution on
every case, and keeps each verdict in the build cache): per wrong solution that may be named (`named: false` never
is; one that does not load proves nothing), the text a learner is shown (its `hint`, else its `mistake`) and a
fingerprint of each case it fails, the others being of no use:

- `{"status": "fail", "value": <canonical JSON>}` for a visible case, whose values the page shows anyway;
- `{"status": "fail", "digest": <sha256 of salt + canonical JSON>}` for a hidden or private case, salted with the
  challenge's salt (loopcraft/course/cases.py `salt`, the hidden cases' own: see docs/threat-model.md for what a digest
  of a small value still gives away);
- `{"status": "error"}` or `{"status": "timeout"}` for a case it ended without a value.

A page gets the catalogue's published part (render.py `page_mistakes`); `loopcraft grade` and the class's grading
send all of it with the cases (verify.py `catalogues`, from the build cache, the wrong solutions run only where it has nothing;
loopcraft.running.grading.mistakes_for).

Matching is the judge's, outside the interpreter the learner's code ran in: frontend/src/mistakes.js, in the page
and in the Node runner, which names each matched mistake in the verdict's cases (`mistake`; RunResult.mistakes). A
case whose failure is not a value (a wrong exception, say) has no fingerprint of its own but its status.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from grader.canonical import digest
from grader.results import CaseResult, RunResult, Status, stored_json
from loopcraft.course.cases import Catalogue, salt
from loopcraft.course.course import Exercise, WrongSolution

KNOWN_MISTAKE = (
    "This looks like a known mistake: "  # frontend/src/mistakes.js says it the same way (its golden vectors)
)


def said(hint: str) -> str:
    """What a learner is told of a mistake their run matches."""
    return KNOWN_MISTAKE + hint


def did(test: CaseResult, printed: bool = False) -> str | None:
    """What a failed case did, as frontend/src/mistakes.js `did` says it: the value text of what it returned, or
    "raised " and the exception as Python shows it for a case that had to raise and raised another (a written verdict
    holds no value then, and shows the exception, never "None"); None if it is not known (a private case as the
    class's store keeps it, a value cut short when the verdict was written). `printed`: the case checks printed text,
    so what it printed, as the learner is shown it, is part of what it did (two programs that print different wrong
    text both return None)."""
    if "actual" in test.truncated or (printed and "output" in test.truncated):
        return None
    if test.actual_json is None and test.actual is None and test.actual_shown and test.actual_shown != "None":
        returned = f"raised {test.actual_shown}"
    elif test.actual_json is not None:
        returned = test.actual_json
    elif test.hidden:
        return None
    else:
        returned = stored_json(test.actual)
    return f"{returned}\nprinted {json.dumps(test.output)}" if printed else returned


def fingerprint(test: CaseResult, secret: bool, salt_: str, printed: bool = False) -> dict | None:
    """What a case is compared by (`{"status": "pass"}` for one that passed); `secret`: the case is hidden or private
    (a digest, not the value); `printed`: it checks printed text (`did`), said so in the fingerprint, for the page to
    read its own run's case the same way. None for a failed case whose value is not known."""
    if test.status is not Status.FAIL:
        return {"status": test.status.value}
    returned = did(test, printed)
    if returned is None:
        return None
    held = {"status": "fail", "digest": digest(salt_, returned)} if secret else {"status": "fail", "value": returned}
    return held | ({"printed": True} if printed else {})


def secrets(ex: Exercise) -> dict[str, bool]:
    """{case name: whether it is hidden or private}: the cases a fingerprint holds a digest of, not the value."""
    return {case.name: case.hidden for case in ex.cases}


def fingerprints(result: RunResult, ex: Exercise, salt_: str) -> dict[str, dict | None]:
    """{case name: fingerprint} of the cases `result` ran (cases `ex` does not have, those a course no longer has,
    are left out)."""
    secret = secrets(ex)
    printed = {case.name for case in ex.cases if case.stdout is not None}
    return {t.name: fingerprint(t, secret[t.name], salt_, t.name in printed) for t in result.tests if t.name in secret}


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
        cases = {name: case for name, case in fingerprints(result, ex, ex_salt).items() if _failed(case)}
        if cases:
            known.append({"file": wrong_file(ex, wrong), "hint": wrong.hint or wrong.mistake, "cases": cases})
    return Catalogue(ex_salt, known)
