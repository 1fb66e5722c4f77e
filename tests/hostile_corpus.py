"""The corpus of hostile and broken solutions in tests/hostile/, for the CLI and the browser tests.

Each file is a solution of `consecutive-error-limit` whose header says what must come of it:
  # include: reference          the reference solution is put in front of the file's own code
  # expect-status: a, b         exactly these statuses appear among the cases; `timeout` among them marks a file
                                that loops (`Hostile.loops`)
  # expect-message: text        a case that does not pass has this in its message ({limit}: the time limit's seconds)
  # expect-output-starts: text  some case's printed output starts with this
  # expect-output-ends: text    some case's printed output ends with this
  # expect-output-has: text     some case's printed output has this in it
  # expect-trace-under: n       every case's trace is under n characters as JSON
  # also-alone: yes             graded alone too: its verdict in a folder must be the same as alone (what
                                one submission does cannot reach another). Each costs a runner of its own,
                                so it marks the files that look for what an earlier submission left, and
                                those whose attack aims at later ones; the folder run checks every file
                                after them against its own expectations.
  # also-plain: yes             in the browser, run on a page served without headers too (no CSP, no isolation):
                                for the defences that must not depend on them
  # runs-in: cli                graded on the command line only (what it attacks, the page does not have)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from tests.helpers import ROOT, course_copy

CORPUS = ROOT / "tests" / "hostile"

# A solution that defines walk_for_javascript(): it walks everything the garbage collector and sys.modules
# reach from a learner's namespace and returns {"walked": objects seen, "javascript": JavaScript objects}.
JAVASCRIPT_WALK = "js_found_through_gc"
SLUG = "consecutive-error-limit"
REFERENCE = ROOT / "exercises" / "build-an-agent" / SLUG / "solution.py"


@dataclass(frozen=True)
class Hostile:
    name: str
    source: str
    statuses: frozenset[str]
    message: str | None
    output_starts: str | None
    output_ends: str | None
    output_has: str | None
    trace_under: int | None
    alone: bool
    plain: bool
    browser: bool

    @property
    def loops(self) -> bool:
        """Some case of it must run to the time limit: a test may grade it at a short limit, and the others at a long
        one, far from any limit."""
        return "timeout" in self.statuses


def load() -> list[Hostile]:
    found = []
    for path in sorted(CORPUS.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        header = dict(re.findall(r"^# ([a-z-]+): (.*)$", text, flags=re.MULTILINE))
        source = (
            (REFERENCE.read_text(encoding="utf-8") + "\n\n" + text) if header.get("include") == "reference" else text
        )
        found.append(
            Hostile(
                name=path.stem,
                source=source,
                statuses=frozenset(s.strip() for s in header["expect-status"].split(",")),
                message=header.get("expect-message"),
                output_starts=header.get("expect-output-starts"),
                output_ends=header.get("expect-output-ends"),
                output_has=header.get("expect-output-has"),
                trace_under=int(header["expect-trace-under"]) if "expect-trace-under" in header else None,
                alone=header.get("also-alone") == "yes",
                plain=header.get("also-plain") == "yes",
                browser=header.get("runs-in", "cli, browser") != "cli",
            )
        )
    return found


def named(name: str) -> Hostile:
    return next(item for item in load() if item.name == name)


def write(folder: Path, corpus: list[Hostile] | None = None) -> list[Hostile]:
    """Write the corpus (or these items of it), includes expanded, as plain solution files into `folder`."""
    corpus = load() if corpus is None else corpus
    for item in corpus:
        (folder / f"{item.name}.py").write_text(item.source, encoding="utf-8")
    return corpus


def challenge_copy(folder: Path, time_limit: int) -> Path:
    """The corpus's challenge, copied into `folder` with the track's sandbox beside it, with another time limit (in
    seconds); `python -m grader` takes the returned folder in place of the slug. For tests of what a loop costs the
    grader, where the limit's value is not under test: each loop in the corpus runs to the limit."""
    return course_copy(folder, [SLUG], time_limit) / "exercises" / "build-an-agent" / SLUG


def check(item: Hostile, tests: list[dict], time_limit: float) -> None:
    """Assert that a results document's tests, graded with `time_limit`, match what the corpus file expects."""
    statuses = {t["status"] for t in tests}
    assert statuses == item.statuses, f"{item.name}: statuses {sorted(statuses)}"
    if item.message:
        expected = item.message.replace("{limit}", f"{time_limit:g}")
        messages = [t["message"] for t in tests if t["status"] != "pass"]
        assert any(expected in m for m in messages), f"{item.name}: messages {messages[:2]!r}"
    if item.output_starts:
        assert any(t["output"].startswith(item.output_starts) for t in tests), f"{item.name}: output"
    if item.output_ends:
        assert any(t["output"].endswith(item.output_ends) for t in tests), f"{item.name}: output"
    if item.output_has:
        assert any(item.output_has in t["output"] for t in tests), f"{item.name}: output"
    if item.trace_under:
        sizes = [len(json.dumps(t["trace"])) for t in tests]
        assert max(sizes) < item.trace_under, f"{item.name}: trace sizes {sizes}"
