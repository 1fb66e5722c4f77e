"""The class report and the feedback pages (loopcraft/classroom/report.py, feedback.py, similar.py), rendered from a
class graded once per module (tests/class_fixture.py): every number in the report recounted from the verdict
files, nothing in a feedback page that a learner may not see, similar code found and independent code not."""

from __future__ import annotations

import csv
import json
import math
import re
import statistics
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import escape

from grader.canonical import canonical_json, encode, from_tagged
from grader.results import (
    PRIVATE_NOTE,
    CaseResult,
    RunResult,
    Status,
    error_outcome,
    failed_submission,
    learner_view,
    value_outcome,
)
from loopcraft.authoring.mistakes import said
from loopcraft.authoring.verify import catalogues
from loopcraft.classroom import course_exercises, feedback, gradebook, report, similar
from loopcraft.classroom.intake import Learner, Source
from loopcraft.classroom.outputs import write_outputs
from loopcraft.classroom.pages import CaseDrawer
from loopcraft.classroom.store import VerdictStore
from loopcraft.course.project import Project
from loopcraft.running.grading import request_case
from loopcraft.running.judging import judge
from tests.class_fixture import CLASS, DISPATCH, HOSTILE, INDEPENDENT, LIMIT, build
from tests.helpers import feedback_page, inert_problems


@pytest.fixture(scope="module")
def klass(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("class")
    build(out)
    return out


class Elements(HTMLParser):
    """Every element's attributes, and the text of <script> elements by id."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[dict] = []
        self.scripts: dict[str, str] = {}
        self._script: str | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.elements.append({"tag": tag, **dict(attrs)})
        if tag == "script":
            self._script = dict(attrs).get("id", "")
            self.scripts[self._script] = ""

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            self.scripts[self._script] += data

    def testid(self, name: str) -> list[dict]:
        return [e for e in self.elements if e.get("data-testid") == name]


def read(path: Path) -> Elements:
    return Elements(path.read_text(encoding="utf-8"))


def records(out: Path) -> dict[tuple[str, str], dict]:
    """Every verdict of the class, straight from the files: {(learner, challenge): record}."""
    found = {}
    for path in sorted((out / "verdicts").glob("*/*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        found[record["learner"], record["challenge"]] = record
    return found


def book(out: Path) -> dict:
    return json.loads((out / "gradebook.json").read_text(encoding="utf-8"))


def ran(result: dict) -> bool:
    """As the report's text says: a submission ran unless its verdict is an error with every case an error."""
    return not (result["status"] == "error" and all(t["status"] == "error" for t in result["tests"]))


def test_the_class_at_a_glance_and_each_challenge_count_the_verdicts(klass):
    page = read(klass / "report" / "index.html")
    doc, verdicts = book(klass), records(klass)
    assert len(page.testid("learner-row")) == len(doc["learners"])
    distribution = Counter(
        sum(cell["status"] == "pass" for cell in row["challenges"].values()) for row in doc["learners"]
    )
    rows = [e for e in page.elements if "data-learners" in e]
    assert {int(e["data-passed"]): int(e["data-learners"]) for e in rows} == {
        k: distribution.get(k, 0) for k in range(len(doc["challenges"]) + 1)
    }
    for stat in page.testid("challenge-stat"):
        mine = [r["result"] for (_, slug), r in verdicts.items() if slug == stat["data-challenge"]]
        passed = [sum(t["status"] == "pass" for t in r["tests"]) for r in mine]
        assert int(stat["data-submitted"]) == len(mine) > 10
        assert int(stat["data-passed"]) == sum(r["status"] == "pass" for r in mine) > 0
        assert int(stat["data-errors"]) == sum(r["status"] == "error" for r in mine) > 0
        timeouts = sum(any(t["status"] == "timeout" for t in r["tests"]) for r in mine)
        assert int(stat["data-timeouts"]) == timeouts == (stat["data-challenge"] == LIMIT)
        assert float(stat["data-median"]) == statistics.median(passed)


def kelley(verdicts: dict, doc: dict, slug: str, case: str) -> float:
    """The upper-lower discrimination index, as the report's text defines it, recounted: over the learners whose
    submission ran."""
    total = {row["learner"]: sum(c["passed"] for c in row["challenges"].values()) for row in doc["learners"]}
    takers = sorted(
        (learner for (learner, s), r in verdicts.items() if s == slug and ran(r["result"])),
        key=lambda learner: (-total[learner], learner),
    )
    n = max(1, round(0.27 * len(takers)))

    def facility(group):
        return sum(
            any(t["name"] == case and t["status"] == "pass" for t in verdicts[learner, slug]["result"]["tests"])
            for learner in group
        ) / len(group)

    return facility(takers[:n]) - facility(takers[-n:])


def test_each_case_has_its_facility_and_discrimination_from_the_verdicts(klass):
    page = read(klass / "report" / "index.html")
    doc, verdicts = book(klass), records(klass)
    stats = page.testid("case-stat")
    exercises = {ex.slug: ex for ex in course_exercises(Project())}
    assert [(s["data-challenge"], s["data-case"]) for s in stats] == [
        (slug, c.name) for slug in doc["challenges"] for c in exercises[slug].cases
    ]
    spread = set()
    for stat in stats:
        slug, case = stat["data-challenge"], stat["data-case"]
        tests = [t for r in ran_verdicts(verdicts, slug) for t in r["result"]["tests"] if t["name"] == case]
        assert int(stat["data-attempted"]) == len(tests)
        assert int(stat["data-passed"]) == sum(t["status"] == "pass" for t in tests)
        expected = kelley(verdicts, doc, slug, case)
        # The page rounds to two decimals: 0.125 may show as 0.12, and 0.125 - 0.12 is a hair over 0.005 in floats.
        assert math.isclose(float(stat["data-discrimination"]), expected, abs_tol=0.0051), (slug, case)
        spread.add(stat["data-discrimination"])
    assert len(spread) > 3, "the class tells cases apart"


def ran_verdicts(verdicts: dict, slug: str) -> list[dict]:
    return [r for (_, s), r in verdicts.items() if s == slug and ran(r["result"])]


def test_submissions_that_never_ran_are_left_out_of_the_item_analysis_and_counted(klass):
    page = read(klass / "report" / "index.html")
    verdicts = records(klass)
    left_out = {e["data-challenge"]: int(e["data-count"]) for e in page.testid("left-out")}
    expected = {}
    for (_, slug), r in verdicts.items():
        if not ran(r["result"]):
            expected[slug] = expected.get(slug, 0) + 1
    assert left_out == expected and set(expected) == {LIMIT, DISPATCH}, "the class has code that does not load"
    html = (klass / "report" / "index.html").read_text(encoding="utf-8")
    assert f"{left_out[LIMIT]} submissions left out: the code could not be run" in html


def test_code_that_never_ran_does_not_make_every_case_discriminate(tmp_path):
    """A one-challenge class: six learners whose code ran, passing their first 19, 15, 11, 7, 3 and 1 cases, and
    four whose code never did (two files refused, two that do not load). Ranked with them, the four are the
    bottom 27% on every case, and a case every runner passes scored +1.00."""
    ex = next(ex for ex in course_exercises(Project()) if ex.slug == LIMIT)
    judged = [request_case(c, ex.entry) for c in ex.cases]
    store = VerdictStore(tmp_path, run=CLASS["run"])
    rows = []

    def hand_in(name: str, result: dict) -> None:
        learner = Learner(id=name, name=name, origin=f"{name}/")
        learner.sources[LIMIT] = Source(f"{name}/{LIMIT}.py", f"# {name}\n")
        store.put(learner, LIMIT, learner.sources[LIMIT], "0" * 64, result)
        rows.append(gradebook.row(learner, {LIMIT: len(ex.cases)}, store))

    strengths = [19, 15, 11, 7, 3, 1]
    for i, k in enumerate(strengths):
        answers = [c["expect"]["expected"] if j < k else '"wrong"' for j, c in enumerate(judged)]
        # A case that calls twice (`call_twice`) is judged on both calls' values: the same here.
        outcomes = [
            value_outcome(a, again=a if c["call_twice"] else None) for a, c in zip(answers, judged, strict=True)
        ]
        hand_in(f"ran-{i}", judge(judged, outcomes, time_limit=ex.time_limit_seconds).to_dict(hidden_actual=True))
    for i in range(2):
        hand_in(f"refused-{i}", failed_submission(ex.cases, "The file is not Python text.").to_dict())
        loads = [error_outcome("SyntaxError: '(' was never closed", "load") for _ in judged]
        hand_in(f"syntax-{i}", judge(judged, loads, time_limit=ex.time_limit_seconds).to_dict(hidden_actual=True))
    rows.append(gradebook.row(Learner(id="absent", name="absent", origin="absent/"), {LIMIT: len(ex.cases)}, store))
    doc = gradebook.book([LIMIT], rows, CLASS)
    write_outputs(tmp_path, doc, store, [ex])

    page = read(tmp_path / "report" / "index.html")
    html = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    [stat] = page.testid("challenge-stat")  # the per-challenge counts stay over every submission
    assert (stat["data-submitted"], stat["data-passed"], stat["data-errors"]) == ("10", "1", "4")
    [left_out] = page.testid("left-out")
    assert left_out["data-count"] == "4"
    assert "4 submissions left out: the code could not be run</strong>" in html and "of the 6 that ran" in html
    stats = {e["data-case"]: e for e in page.testid("case-stat")}
    assert {e["data-attempted"] for e in stats.values()} == {"6"}
    first, second = (c.name for c in ex.cases[:2])
    # Every learner whose code ran passes the first case: it tells no one apart.
    assert (stats[first]["data-passed"], stats[first]["data-discrimination"]) == ("6", "+0.00")
    assert stats[second]["data-discrimination"] == "+0.50"  # the bottom two (3 and 1 cases): one passes it
    verdicts = records(tmp_path)
    for name, stat in stats.items():
        assert math.isclose(float(stat["data-discrimination"]), kelley(verdicts, doc, LIMIT, name), abs_tol=0.0051)
    # A one-challenge course: its chart is of cases passed, 0 to all 19, every learner counted.
    assert f"Cases of {escape(ex.title)} passed per learner" in html
    bars = {int(e["data-passed"]): int(e["data-learners"]) for e in page.elements if "data-learners" in e}
    assert bars == {k: strengths.count(k) + 5 * (k == 0) for k in range(len(ex.cases) + 1)}
    assert json.loads(page.scripts["report-data"])["distribution"]["unit"] == "cases"


def test_common_wrong_answers_are_the_values_failing_learners_returned_grouped(klass):
    page = read(klass / "report" / "index.html")
    verdicts = records(klass)
    shown = page.testid("common-wrong")
    assert shown, "the generated class makes wrong answers"
    by_case: dict[tuple[str, str], list[dict]] = {}
    for item in shown:
        by_case.setdefault((item["data-challenge"], item["data-case"]), []).append(item)
    hidden_seen = False
    for (slug, case), items in by_case.items():
        tests = [t for r in ran_verdicts(verdicts, slug) for t in r["result"]["tests"] if t["name"] == case]
        values = Counter(canonical_json(t["actual"]) for t in tests if t["status"] == "fail" and "actual" in t)
        errors = Counter(
            t["message"].strip().splitlines()[-1] for t in tests if t["status"] == "error" and not t.get("private")
        )
        counts = sorted([*values.values(), *errors.values()], reverse=True)[: report.SHOWN_WRONG]
        assert [int(i["data-count"]) for i in items] == counts, (slug, case)
        assert all(not t.get("private") for t in tests if t["status"] == "fail" and "actual" in t)
        hidden_seen |= any(t.get("hidden") for t in tests) and "value" in {i["data-kind"] for i in items}
    assert hidden_seen, "hidden cases' wrong values are counted too (the store keeps them for the teacher)"
    # The most common one is shown as Python writes it.
    html = (klass / "report" / "index.html").read_text(encoding="utf-8")
    slug, case = next(iter(by_case))
    tests = [t for r in ran_verdicts(verdicts, slug) for t in r["result"]["tests"] if t["name"] == case]
    wrong = Counter(canonical_json(t["actual"]) for t in tests if t["status"] == "fail" and "actual" in t)
    if wrong:
        top = encode(from_tagged(json.loads(wrong.most_common(1)[0][0])))[1]
        assert str(escape(top[:60])) in html


def test_a_common_wrong_value_is_shown_as_python_writes_it_not_as_its_tags():
    # The report once wrote a returned set as its tagged JSON read back ("{'$dict': [['$set', [1, 2]]]}").
    tally = report.CaseTally("c", hidden=True, private=False, expected=None)
    for value in ({1, 2}, {1, 2}, {1: "one"}):
        tally.add(CaseResult("c", Status.FAIL, hidden=True, actual_json=canonical_json(value)))
    assert [(w["count"], w["text"]) for w in tally.common_wrong()] == [(2, "{1, 2}"), (1, "{1: 'one'}")]


def test_two_renamed_copies_are_flagged_and_independent_solutions_are_not(klass):
    page = read(klass / "report" / "index.html")
    pairs = {(p["data-challenge"], p["data-a"], p["data-b"]): int(p["data-score"]) for p in page.testid("similar-pair")}
    assert pairs[LIMIT, "twin-a", "twin-b"] == 100
    assert (LIMIT, "solo", "twin-a") not in pairs and (LIMIT, "solo", "twin-b") not in pairs
    # The pair is shown side by side, the shared code marked, the starter's left out.
    html = (klass / "report" / "index.html").read_text(encoding="utf-8")
    block = re.search(r'data-a="twin-a" data-b="twin-b".*?</details>', html, re.S).group()
    assert block.count("<mark>") >= 2 and "my_step" in block and "step += 1" in block


def test_similar_code_is_found_by_winnowing_with_the_starter_as_base_code():
    starter = "def f(items):\n    # TODO: count the even items\n    return 0\n"
    own = (
        "def f(items):\n    total = 0\n    for item in items:\n        if item % 2 == 0 and item > 0:\n"
        "            total += 1\n        elif item < -10:\n            total -= 2\n"
        "    seen = {}\n    while total > 100 and len(seen) < 3:\n        seen[total] = items[-1]\n"
        "        total //= 2\n    return total * 3 + len(items) - len(seen)\n"
    )
    copy = own.replace("total", "n").replace("item", "x").replace("    ", "  ") + "# written by me\n"
    other = (
        "def f(items):\n    return sum(1 for value in items if not value % 2)\n\n\nprint(f([1, 2, 3]))\n"
        "BIG = {'a': [1, 2, 3], 'b': (4, 5)}\nwhile False:\n    break\n"
    )
    pairs, total = similar.similar_pairs({"a": own, "b": copy, "c": other, "d": starter}, starter)
    assert [(p.a, p.b, p.score) for p in pairs] == [("a", "b", 1.0)] and total == 1
    # Learners who hand in the starter alone share nothing of their own.
    assert similar.similar_pairs({"d": starter, "e": starter}, starter) == ([], 0)


def test_many_identical_submissions_are_counted_without_making_every_pair():
    pairs, total = similar.similar_pairs({f"l{i:03d}": INDEPENDENT for i in range(400)}, "", limit=50)
    assert total == 400 * 399 // 2 and len(pairs) == 50
    assert [(p.a, p.b) for p in pairs[:2]] == [("l000", "l001"), ("l000", "l002")]


@given(quote=st.sampled_from(["'", '"', "'''", '"""']), body=st.text(st.sampled_from("ab\\'\" \n#")))
def test_a_string_runs_to_its_closing_quote_or_unclosed_to_its_lines_end(quote, body):
    # The tokenizer reads every quote as a string's start: it never fails to match one, so it reads each character
    # once. Were an unclosed string no match, every later quote would scan the rest of the line again.
    source = quote + body
    match = similar._TOKEN.match(source)
    assert match is not None and match.start() == 0
    if match.end() < len(source):
        closed = source[: match.end()].endswith(quote) and match.end() >= 2 * len(quote)
        assert closed or (len(quote) == 1 and source[match.end()] in "\n\\")


def test_submissions_made_to_stall_the_tokenizer_are_read_at_once():
    # 256 KB of unclosed strings, quote after quote on one line: quadratic, this was six minutes of a report's
    # similarity pass per submission; read once, it is milliseconds.
    for source in ("x = '" + "\\'" * 131_000, '"' + '\\"' * 131_000, "'\\" * 131_000, "'''" + "\\'" * 131_000):
        assert similar._numbers(source)
    pairs, _ = similar.similar_pairs({"a": "x = '" + "\\'" * 131_000, "b": "y = '" + "\\'" * 131_000}, "")
    assert pairs == []  # a few tokens each: nothing to fingerprint


class CaseRows(HTMLParser):
    """The case rows of a feedback page, drawn into it as HTML: each one's attributes, the data-testid of every
    element inside it, and the text of its message, output and expected value."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.rows: list[dict] = []
        self._depth = 0
        self._text: str | None = None  # the testid whose text is being read
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self._depth:
            self._depth += tag == "li"
            self.rows[-1]["inside"].add(attrs.get("data-testid"))
            if attrs.get("data-testid") in ("message", "output", "expected"):
                self._text = attrs["data-testid"]
        elif attrs.get("data-testid") == "feedback-case":
            self.rows.append({**attrs, "inside": set(), "message": "", "output": "", "expected": ""})
            self._depth = 1

    def handle_endtag(self, tag):
        if self._depth:
            self._depth -= tag == "li"
            if tag in ("p", "pre"):
                self._text = None

    def handle_data(self, data):
        if self._depth and self._text:
            self.rows[-1][self._text] += data


def case_rows(path: Path) -> list[dict]:
    return CaseRows(path.read_text(encoding="utf-8")).rows


def test_every_learner_has_a_feedback_page_with_each_case_as_learner_view_cuts_it(klass):
    doc, verdicts = book(klass), records(klass)
    pages = sorted(p.name for p in (klass / "feedback").glob("*.html"))
    assert pages == sorted(feedback_page(klass, row["learner"]).name for row in doc["learners"])
    for row in doc["learners"]:
        rows = case_rows(feedback_page(klass, row["learner"]))
        handed = [s for s in doc["challenges"] if (row["learner"], s) in verdicts]
        assert list(dict.fromkeys(r["data-challenge"] for r in rows)) == handed
        for slug in handed:
            tests = verdicts[row["learner"], slug]["result"]["tests"]
            drawn = [r for r in rows if r["data-challenge"] == slug]
            assert [(r["data-case"], r["data-status"]) for r in drawn] == [(t["name"], t["status"]) for t in tests]
            # Tracebacks name the file as the learner did (every origin here is LEARNER/SLUG.py), not solution.py.
            named = f'File "{slug}.py", line'
            for case, written in zip(drawn, tests, strict=True):
                seen = learner_view(written)
                assert case["message"] == (seen["message"] or "").replace('File "solution.py", line', named)
                if seen.get("private"):
                    assert case["message"] == PRIVATE_NOTE and case["inside"] == {None, "message"}
                elif seen.get("hidden"):
                    assert case["data-hidden"] == "true" and not case["inside"] & {"expected", "actual", "output"}
                else:
                    assert case["expected"].strip() and case["output"] == (seen["output"] or "")


def forms(value) -> set[str]:
    """The ways a page could write a value (as tests/integration/test_private_cases_graded_checked_and_built.py checks the
    built site)."""
    text = canonical_json(value)
    return {text, json.dumps(value), json.dumps(value, ensure_ascii=False), repr(value), encode(value)[1]}


def test_no_feedback_page_holds_a_hidden_expected_value_or_anything_of_a_private_case(klass):
    """Checked against the course's own values: a private case's arguments and expected value are in no page; a
    hidden case's expected value is in no page of a learner whose code did not return it (a learner who passes
    sees what their own code returned, in its trace, as the challenge page shows it). What the learner's own code
    returned in a published case is theirs to see, whichever case's value it equals."""
    exercises = {ex.slug: ex for ex in course_exercises(Project())}
    doc, verdicts = book(klass), records(klass)
    checked = 0
    for row in doc["learners"]:
        html = feedback_page(klass, row["learner"]).read_text(encoding="utf-8")
        text = html.replace("\\u003c", "<").replace("\\u003e", ">").replace("\\u0026", "&")
        for slug in doc["challenges"]:
            visible = set()
            for c in exercises[slug].cases:
                if not c.hidden:
                    visible |= forms(c.expected) | {json.dumps(v) for v in c.args.values()}
            written = verdicts.get((row["learner"], slug))
            for t in written["result"]["tests"] if written else []:
                if "actual" in t and not t.get("private"):
                    visible |= forms(t["actual"])
            for c in exercises[slug].cases:
                secrets = set()
                if c.private:
                    secrets = forms(c.expected) | {json.dumps(v) for v in c.args.values() if len(json.dumps(v)) > 8}
                elif c.hidden:
                    written = verdicts.get((row["learner"], slug))
                    mine = [t for t in written["result"]["tests"] if t["name"] == c.name] if written else []
                    if not (mine and mine[0]["status"] == "pass"):
                        secrets = forms(c.expected)
                for secret in secrets - visible:
                    if len(secret) > 6:  # `True`, `3`: any page holds those
                        assert secret not in text, f"{row['learner']}: {slug}/{c.name}: {secret[:80]}"
                        checked += 1
    assert checked > 100
    # The teacher's report shows hidden expected values, but of a private case its name and status only.
    html = (klass / "report" / "index.html").read_text(encoding="utf-8")
    text = html.replace("&#34;", '"').replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">")
    for slug in doc["challenges"]:
        shown = set()
        for c in exercises[slug].cases:
            if not c.private:
                shown |= forms(c.expected) | {json.dumps(v) for v in c.args.values()}
        for (_, challenge), written in verdicts.items():  # what learners' code returned in published cases
            if challenge == slug:
                shown |= {f for t in written["result"]["tests"] if "actual" in t for f in forms(t["actual"])}
        for c in exercises[slug].cases:
            if c.private:
                secrets = forms(c.expected) | {json.dumps(v) for v in c.args.values() if len(json.dumps(v)) > 8}
                for secret in secrets - shown:
                    assert len(secret) <= 6 or secret not in text.replace("&amp;", "&"), f"report: {c.name}: {secret}"


def test_names_reach_pages_as_text(klass):
    doc = book(klass)
    assert HOSTILE in {row["learner"] for row in doc["learners"]}
    for path in [feedback_page(klass, HOSTILE), klass / "report" / "index.html"]:
        html = path.read_text(encoding="utf-8")
        assert "<script><" not in html and 'alert("name")' not in html
        assert html.count("</script>") == len(re.findall(r"<script[ >]", html))
    title = re.search(r"<title>(.*?)</title>", feedback_page(klass, HOSTILE).read_text()).group(1)
    assert title.startswith("Feedback for &lt;/script&gt;&lt;script&gt;alert(&#34;name&#34;)")
    assert "\\u202e" in title


def test_no_feedback_page_can_run_or_load_anything(klass):
    pages = {path.name: path.read_text(encoding="utf-8") for path in (klass / "feedback").glob("*.html")}
    assert len(pages) == len(book(klass)["learners"])
    assert {name: inert_problems(html) for name, html in pages.items() if inert_problems(html)} == {}


def test_a_case_that_cannot_be_drawn_is_shown_by_its_name_and_status_and_the_others_are_drawn():
    # Its data damaged (here by hand): one case never hides the others.
    result = {"status": "fail", "message": "Returned a different value.", "output": "", "hidden": False, "trace": []}
    case = {"name": "broken", "hidden": False, "private": False, "input_text": "", "result": result}
    cases = [
        {**case, "expected_json": "{", "actual_json": "1"},
        {**case, "name": "fine", "expected_json": "2", "actual_json": "1"},
    ]
    with CaseDrawer() as draw:
        [drawn] = draw({"challenges": [{"slug": LIMIT, "cases": cases}]})
    rows = CaseRows(str(drawn)).rows
    assert [(r["data-case"], r["data-status"]) for r in rows] == [("broken", "fail"), ("fine", "fail")]
    assert "could not be shown here" in rows[0]["message"] and "expected" not in rows[0]["inside"]
    assert rows[1]["expected"] == "2\n"


def test_a_learner_whose_hand_in_was_refused_is_told_why(klass):
    html = feedback_page(klass, "refused").read_text(encoding="utf-8")
    assert 'data-testid="hand-in-error"' in html and "refused.json: not a progress file" in html
    assert case_rows(feedback_page(klass, "refused")) == []


def test_the_store_keeps_the_code_each_verdict_judged(klass):
    store = VerdictStore(klass)
    doc = book(klass)
    row = next(r for r in doc["learners"] if r["learner"] == "twin-a")
    assert store.read("twin-a", LIMIT)["source"] == INDEPENDENT
    assert row["challenges"][DISPATCH]["status"] == "missing"


def test_feedback_pages_are_named_as_people_read_them_and_never_share_a_file():
    from loopcraft.classroom.pages import page_names

    rows = [
        {"learner": "doejohn_11", "name": "Doe, John", "lms_id": "11"},
        {"learner": "bob", "name": "Bob"},
        {"learner": "bob #2", "name": "bob"},  # one file with "Bob" where case does not count
        {"learner": "x", "name": "田中 太郎"},
        {"learner": "y", "name": "../../etc/passwd"},
        {"learner": "z", "name": "CON"},
        {"learner": "w", "name": "\u202eevil\u202c.exe"},
    ]
    names = page_names(rows)
    assert names == {
        "doejohn_11": "Doe, John (11).html",
        "bob": "Bob.html",
        "bob #2": "bob (2).html",
        "x": "田中 太郎.html",
        "y": "etc_passwd.html",  # no climbing, no hidden file
        "z": "_CON.html",
        "w": "evil_.exe.html",
    }
    assert len({name.casefold() for name in names.values()}) == len(rows)


def known_mistakes(klass) -> tuple[dict, dict]:
    """The course's known mistakes as the class was graded with them (the build cache's: verify.catalogues), and
    those each learner's stored verdict of each challenge names (the judge's): {(learner, slug): [mistake, ...]}."""
    exercises = {ex.slug: ex for ex in course_exercises(Project()) if ex.slug in (LIMIT, DISPATCH)}
    known = catalogues(Project(), list(exercises.values()))
    looks = {}
    for (learner, slug), record in records(klass).items():
        by_hint = {m["hint"]: m for m in known[exercises[slug].track, slug].known}
        looks[learner, slug] = [by_hint[hint] for hint in RunResult.from_dict(record["result"]).mistakes]
    return known, looks


def test_the_report_counts_the_learners_whose_code_looks_like_each_known_mistake(klass):
    known, looks = known_mistakes(klass)
    counted = Counter((slug, m["file"]) for (_, slug), found in looks.items() for m in found)
    rows = read(klass / "report" / "index.html").testid("known-mistake")
    assert {(r["data-challenge"], r["data-file"]): int(r["data-count"]) for r in rows} == counted
    assert len(counted) > 5, "the generated class makes several of the course's mistakes"
    # The learner who handed in dispatch-registry's first wrong solution as it is counts toward its mistake.
    first = course_exercises(Project())
    ex = next(e for e in first if e.slug == DISPATCH)
    assert known[ex.track, DISPATCH].known[0]["file"] in {m["file"] for m in looks[HOSTILE, DISPATCH]}


def test_each_feedback_page_names_the_known_mistakes_its_learner_made_and_a_passing_one_none(klass):
    _, looks = known_mistakes(klass)
    said_any = False
    for row in book(klass)["learners"]:
        html = feedback_page(klass, row["learner"]).read_text(encoding="utf-8")
        shown = re.findall(r'<p class="known-mistake" data-testid="known-mistake">(.*?)</p>', html, re.S)
        want = [
            str(escape(said(m["hint"])))
            for slug in book(klass)["challenges"]
            for m in looks.get((row["learner"], slug), [])
        ]
        assert shown == want, row["learner"]
        said_any |= bool(shown)
    assert said_any
    assert 'data-testid="known-mistake"' not in feedback_page(klass, "solo").read_text(encoding="utf-8")  # passes both


def test_code_that_does_not_load_is_shown_under_its_own_file_name_and_its_line_is_in_the_gradebook(klass):
    html = feedback_page(klass, "broken").read_text(encoding="utf-8")
    # The grader ran it as solution.py; the learner handed in broken/consecutive-error-limit.py.
    assert f"File &#34;{LIMIT}.py&#34;, line 1" in html and f"File &#34;{DISPATCH}.py&#34;, line 1" in html
    assert "solution.py" not in html
    rows = {row[0]: row for row in csv.reader((klass / "gradebook.csv").open(encoding="utf-8"))}
    notes = rows["broken"][-1].split("; ")
    assert f"{LIMIT}: could not be run: SyntaxError: '(' was never closed (line 1)" in notes
    assert f"{DISPATCH}: could not be run: ModuleNotFoundError: No module named 'nothing_of_the_kind' (line 1)" in notes


@pytest.mark.parametrize(
    ("origin", "name"),
    [
        ("alice/limit.py", "limit.py"),
        ("class.zip: smithjane_12_34_limit.py", "smithjane_12_34_limit.py"),
        ("class.zip: alice/sub/limit.py", "limit.py"),
        ("alice.json", "solution.py"),  # code from a progress file: as the site's pages named it
    ],
)
def test_a_traceback_names_the_file_the_learner_handed_in(origin: str, name: str):
    assert feedback.hand_in_name(origin) == name


def test_the_report_and_the_feedback_pages_say_each_challenges_slug_beside_its_title(klass):
    # "Recover From Malformed and Failing Tool Calls" is what the site calls it; commands and notes say the slug.
    for path in [klass / "report" / "index.html", feedback_page(klass, "solo")]:
        html = path.read_text(encoding="utf-8")
        assert (
            f'>Recover From Malformed and Failing Tool Calls <code class="slug" data-testid="challenge-slug">{LIMIT}</code><'
            in html
        )
        assert all(f">{slug}</code>" in html for slug in (LIMIT, DISPATCH))


def test_a_needs_you_line_says_the_title_of_each_challenge_it_names():
    titles = {LIMIT: "Recover From Malformed and Failing Tool Calls", "limit": "A Limit"}
    line = f"class.zip: {LIMIT}.py: not in a learner's folder; it was not read"
    assert gradebook.titled(line, titles) == f"{line} [{LIMIT}: Recover From Malformed and Failing Tool Calls]"
    assert gradebook.titled("alice/: a link; it was not followed", titles) == "alice/: a link; it was not followed"
