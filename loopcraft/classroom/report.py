"""The teacher's class report, DIR/report/index.html (it shows expected values and every learner's code: not for
learners), made in the same pass over the store as the feedback pages (`write_class_pages`).

What it counts, from the gradebook's rows and the verdicts alone (tests/unit/test_class_report.py recounts each):
- the class: learners, hand-ins refused whole, submissions (verdicts), and how many learners passed 0, 1, ...
  challenges (of a one-challenge course, 0, 1, ... of its cases);
- per challenge, of its submissions: passed, errors (the code could not be run: a load error or a refused file),
  with a timeout (a case or more stopped at the time limit), and the median of cases passed;
- per case (item analysis), over the submissions that ran (`ran`: a submission whose code never got past loading
  says nothing of any case, and would put its learner among the weakest on every case; how many are left out is
  shown): facility = passed / attempted, attempted being the learners whose submission of the challenge ran;
  discrimination = the upper-lower index (Kelley's D): the facility among the top 27% of those learners minus that
  among the bottom 27%, ranked by cases passed over the whole course (ties broken by learner id; 27% rounded, at
  least one learner a group); none below two learners;
- per case, its expected value (from the course; a private case is its name and status here as everywhere), and the
  most common wrong answers of the submissions that ran: values returned by failing cases grouped by their
  canonical JSON (hidden cases too: the store keeps what they returned; never private ones: the store keeps nothing
  of them), and errors grouped by their last line;
- per challenge, the learners whose verdict names each known mistake (named by the judge as it graded: the
  course's wrong solutions, matched by what failing cases returned; a learner may count toward more than one);
- similar submissions per challenge (similar.py).
"""

from __future__ import annotations

import hashlib
import json
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import jinja2

from grader.canonical import NotJSONError, encode, from_tagged
from grader.results import CaseResult, RunResult, Status, stored_json
from loopcraft.course.cases import Catalogue, expected_text
from loopcraft.course.course import Exercise

from . import feedback, gradebook, similar
from .pages import CaseDrawer, environment, script
from .printable import lines, one_line
from .store import VerdictStore, names_in, remove, write_atomically

UPPER_LOWER = 0.27
SHOWN_WRONG = 5  # most common wrong answers shown per case
VALUE_CHARS = 400  # of a wrong answer's repr, shown
CODE_CHARS = 20_000  # of each side of a similar pair, shown


@dataclass
class CaseTally:
    name: str
    hidden: bool
    private: bool
    expected: str | None  # repr, from the course (the teacher's copy); None for a private case
    passed: int = 0
    attempted: int = 0
    # {group key: [count, kind ("value" or "error"), text shown]}
    wrong: dict[str, list] = field(default_factory=dict)
    discrimination: float | None = None

    def add(self, case: CaseResult) -> None:
        self.attempted += 1
        if case.status is Status.PASS:
            self.passed += 1
        elif case.status is Status.FAIL and (not case.hidden or case.actual_json is not None):
            # What it returned: a visible case keeps the value, a hidden one its JSON (the store keeps it for this).
            text = stored_json(case.actual) if not case.hidden else case.actual_json
            value = case.actual if not case.hidden else json.loads(text)
            self._count(hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), "value", value)
        elif case.status is Status.ERROR and not case.private and case.message:
            last = [line for line in case.message.splitlines() if line.strip()][-1:] or [""]
            self._count("error:" + last[0][:VALUE_CHARS], "error", last[0][:VALUE_CHARS])

    def _count(self, key: str, kind: str, shown) -> None:
        if key in self.wrong:
            self.wrong[key][0] += 1
        else:
            text = _value_repr(shown) if kind == "value" else lines(shown)
            self.wrong[key] = [1, kind, text if len(text) <= VALUE_CHARS else text[: VALUE_CHARS - 1] + "…"]

    @property
    def facility(self) -> float | None:
        return self.passed / self.attempted if self.attempted else None

    def common_wrong(self) -> list[dict]:
        groups = sorted(self.wrong.values(), key=lambda g: (-g[0], g[1], g[2]))
        return [{"count": n, "kind": kind, "text": text} for n, kind, text in groups[:SHOWN_WRONG]]


def _value_repr(value) -> str:
    """A returned value (its tagged JSON, as a verdict holds it) as Python writes it, by the value text's own writer
    (a set as `{1, 2}`, not its tags); one past what a result may be (deeper than 100 levels: only a verdict made by
    hand holds one) as its JSON, rather than no report at all."""
    try:
        return encode(from_tagged(value))[1]
    except NotJSONError:
        return stored_json(value)


@dataclass
class ChallengeTally:
    slug: str
    title: str
    starter: str
    cases: dict[str, CaseTally]
    submitted: int = 0
    passed: int = 0
    errors: int = 0
    timeouts: int = 0
    left_out: int = 0  # of the item analysis: submissions whose code never ran (RunResult.ran)
    cases_passed: list[int] = field(default_factory=list)
    passes: dict[str, set[str]] = field(default_factory=dict)  # learner -> names of the cases passed
    sources: dict[str, str] = field(default_factory=dict)
    pairs: list[similar.Pair] = field(default_factory=list)  # the most similar, as many as are shown
    pair_count: int = 0
    catalogue: Catalogue | None = None  # the challenge's known mistakes
    mistakes: dict[str, int] = field(default_factory=dict)  # learners whose verdict names it, by hint

    def add(self, learner: str, verdict: dict) -> None:
        result = RunResult.from_dict(verdict["result"])
        for hint in result.mistakes:
            self.mistakes[hint] = self.mistakes.get(hint, 0) + 1
        self.submitted += 1
        self.passed += result.passed
        self.errors += result.status is Status.ERROR
        self.timeouts += result.timed_out
        self.cases_passed.append(result.passed_count)
        if result.ran:
            self.passes[learner] = {t.name for t in result.tests if t.passed}
            for t in result.tests:
                if t.name not in self.cases:
                    self.cases[t.name] = CaseTally(t.name, t.hidden, t.private, None)
                self.cases[t.name].add(t)
        else:
            self.left_out += 1
        if verdict.get("source") is not None:
            self.sources[learner] = verdict["source"]

    @property
    def median_cases(self) -> float | None:
        return statistics.median(self.cases_passed) if self.cases_passed else None


class Tally:
    """Everything the report shows, counted as the learners' verdicts go by (each is read once)."""

    def __init__(self, doc: dict, course: dict[str, Exercise], known: dict[tuple[str, str], Catalogue] | None = None):
        self.slugs = doc["challenges"]
        self.learners: list[dict] = []
        self.challenges = {}
        # The course's expected values, made from the course itself; a private case is its name and status in
        # everything made from verdicts (docs/threat-model.md).
        expected = {(ex.slug, c.name): expected_text(c) for ex in course.values() for c in ex.cases if not c.private}
        for slug in self.slugs:
            ex = course.get(slug)
            cases = {}
            for c in ex.cases if ex else []:
                cases[c.name] = CaseTally(c.name, c.hidden, c.private, None if c.private else expected[slug, c.name])
            self.challenges[slug] = ChallengeTally(
                slug, ex.title if ex else slug, ex.starter_source if ex else "", cases
            )
            if ex and known and (ex.track, ex.slug) in known:
                self.challenges[slug].catalogue = known[ex.track, ex.slug]

    def add(self, row: dict, verdicts: dict[str, dict]) -> None:
        cells = row["challenges"]
        self.learners.append(
            {
                "learner": row["learner"],
                "id": one_line(row["learner"]),
                "shown": one_line(row.get("name") or row["learner"]),
                "lms_id": one_line(row.get("lms_id") or ""),
                "points": gradebook.amount(row.get("score")),
                "out_of": gradebook.amount(row.get("out_of")),
                "href": quote(row["page"]),
                "error": row["error"] is not None,
                "notes": one_line("; ".join(row["notes"]))[:500],
                "passed": sum(cells[s]["status"] == "pass" for s in self.slugs),
                "cases": sum(cells[s]["passed"] for s in self.slugs),
            }
        )
        for slug, verdict in verdicts.items():
            self.challenges[slug].add(row["learner"], verdict)

    def finish(self) -> None:
        """What needs every learner: discrimination (ranks over the course) and similar pairs."""
        total = {row["learner"]: row["cases"] for row in self.learners}
        for ch in self.challenges.values():
            ranked = sorted(ch.passes, key=lambda learner: (-total[learner], learner))
            n = max(1, round(UPPER_LOWER * len(ranked)))
            upper, lower = ranked[:n], ranked[-n:]
            for case in ch.cases.values():
                if len(ranked) >= 2 and case.attempted:
                    hits = [sum(case.name in ch.passes[learner] for learner in group) for group in (upper, lower)]
                    case.discrimination = (hits[0] - hits[1]) / n
            ch.pairs, ch.pair_count = similar.similar_pairs(ch.sources, ch.starter)

    def distribution(self) -> dict:
        """How many learners passed 0, 1, ... challenges; of a one-challenge course (where that would be two bars
        saying what its pass rate says), 0, 1, ... of its cases. Every learner is counted: one who did not hand it
        in, or whose hand-in was refused, passed none."""
        if len(self.slugs) == 1:
            unit, key = "cases", "cases"
            top = max([len(self.challenges[self.slugs[0]].cases), *(row["cases"] for row in self.learners)])
        else:
            unit, key, top = "challenges", "passed", len(self.slugs)
        counts = [0] * (top + 1)
        for row in self.learners:
            counts[row[key]] += 1
        return {"unit": unit, "bars": [{"passed": k, "learners": n} for k, n in enumerate(counts)]}


def _percent(x: float | None) -> str:
    return "–" if x is None else f"{round(100 * x)}%"


def _pair_view(ch: ChallengeTally, pair: similar.Pair, names: dict[str, str]) -> dict:
    def side(learner: str, other: str) -> list[tuple[str, bool]]:
        code = ch.sources[learner]
        parts = [
            (lines(text), shared) for text, shared in similar.marked(code[:CODE_CHARS], ch.sources[other], ch.starter)
        ]
        if len(code) > CODE_CHARS:
            parts.append((f"\n[... {len(code) - CODE_CHARS} more characters not shown]", False))
        return parts

    return {
        "a": pair.a,
        "b": pair.b,
        "a_shown": names.get(pair.a, one_line(pair.a)),
        "b_shown": names.get(pair.b, one_line(pair.b)),
        "score": round(100 * pair.score),
        "shared": pair.shared,
        "a_code": side(pair.a, pair.b),
        "b_code": side(pair.b, pair.a),
    }


def _mistakes(ch: ChallengeTally) -> list[dict]:
    """The known mistakes some learner's submission looks like: most learners first, then in exercise.yaml's order."""
    known = ch.catalogue.known if ch.catalogue else []
    counted = [{**m, "count": ch.mistakes[m["hint"]]} for m in known if ch.mistakes.get(m["hint"])]
    return [
        {"file": m["file"], "hint": lines(m["hint"]), "count": m["count"]}
        for m in sorted(counted, key=lambda m: -m["count"])
    ]


def page(env: jinja2.Environment, tally: Tally) -> str:
    tally.finish()
    challenges = []
    names = {row["learner"]: row["shown"] for row in tally.learners}
    for ch in tally.challenges.values():
        cases = [
            {
                "name": c.name,
                "tag": "private" if c.private else "hidden" if c.hidden else "",
                "passed": c.passed,
                "attempted": c.attempted,
                "facility": _percent(c.facility),
                "discrimination": "–" if c.discrimination is None else f"{c.discrimination:+.2f}",
                "expected": c.expected,
                "wrong": c.common_wrong(),
            }
            for c in ch.cases.values()
        ]
        challenges.append(
            {
                "slug": ch.slug,
                "title": ch.title,
                "submitted": ch.submitted,
                "passed": ch.passed,
                "pass_rate": _percent(ch.passed / ch.submitted if ch.submitted else None),
                "errors": ch.errors,
                "timeouts": ch.timeouts,
                "ran": ch.submitted - ch.left_out,
                "left_out": ch.left_out,
                "median": "–" if ch.median_cases is None else f"{ch.median_cases:g}",
                "cases": cases,
                "pairs": [_pair_view(ch, p, names) for p in ch.pairs],
                "more_pairs": ch.pair_count - len(ch.pairs),
                "compared": len(ch.sources),
                "mistakes": _mistakes(ch),
                "known": len(ch.catalogue.known) if ch.catalogue else 0,
            }
        )
    data = {
        "distribution": tally.distribution(),
        "facility": {
            ch["slug"]: [
                {"label": c["name"], "facility": round(100 * c["passed"] / c["attempted"], 1)}
                for c in ch["cases"]
                if c["attempted"]
            ]
            for ch in challenges
        },
    }
    learners = tally.learners
    return env.get_template("class/report.html").render(
        learners=learners,
        refused=sum(row["error"] for row in learners),
        submissions=sum(ch["submitted"] for ch in challenges),
        challenges=challenges,
        distribution=data["distribution"],
        data=data,
        thresholds={
            "score": round(100 * similar.THRESHOLD),
            "shared": similar.MIN_SHARED,
            "k": similar.K,
            "w": similar.W,
        },
        script=script("report.js"),
    )


def write_class_pages(
    out: Path,
    doc: dict,
    store: VerdictStore,
    exercises: list[Exercise],
    known: dict[tuple[str, str], Catalogue],
) -> None:
    """DIR/feedback/<page>.html for every learner of the gradebook and DIR/report/index.html, from the gradebook's
    rows as people read them (`gradebook.shown`'s: names, points, the page's name) and the store, each verdict read
    once; feedback pages of learners no longer in the gradebook are removed. `known`: the challenges' known mistakes
    (verify.catalogues', outputs.write_outputs')."""
    env = environment()
    course = {ex.slug: ex for ex in exercises}
    tally = Tally(doc, course, known)
    inputs = feedback.course_inputs(course)
    written = set()
    with CaseDrawer() as draw:
        for row in doc["learners"]:
            verdicts = {}
            if row["error"] is None:
                for slug, cell in row["challenges"].items():
                    if cell["status"] != gradebook.MISSING:
                        verdicts[slug] = store.read(row["learner"], slug)
            tally.add(row, verdicts)
            name = row["page"]
            page_ = feedback.page(env, row, verdicts, doc["challenges"], course, inputs, draw=draw)
            write_atomically(out, f"feedback/{name}", page_)
            written.add(name)
    for old in names_in(out, "feedback"):
        if old.endswith(".html") and old not in written:
            remove(out, f"feedback/{old}")
    write_atomically(out, "report/index.html", page(env, tally))
