"""Hostile hand-ins (tests/hostile_class/, one file per class of attack) graded in one class beside honest learners:
each ends in its own row (an error saying why, or a verdict shown harmlessly), the honest learners get the verdicts
they get alone, and no output holds a private case's input, a host file's text, a control character, a formula, or
more than its bound. No attack here loops, so the challenge keeps its own time limit, far above what any case
takes. The commands run in this process, grading in the session's runners (tests.helpers.run_grader): the class's
intake is read_folder, which tests/unit/test_zip_intake.py already runs here on this corpus (its FIFO, its links, its
92 MB file); a merge of what a failed defence would hang on or read without end (a FIFO, a link to /dev/zero) runs
as a real process."""

from __future__ import annotations

import csv
import functools
import importlib.util
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from grader.results import PRIVATE_NOTE, SUBMISSION_CHARS, failed_submission
from loopcraft.classroom import gradebook
from loopcraft.classroom.intake import Learner, Source
from loopcraft.classroom.printable import file_name
from loopcraft.classroom.signing import verdict_key
from loopcraft.classroom.store import VERDICT_BYTES, Signer, VerdictStore, compact, fingerprint, key
from loopcraft.course.load import find_exercise
from loopcraft.course.project import Project
from tests.class_fixture import CLASS
from tests.helpers import ROOT, course_copy, grader_process, run_grader

SLUG = "consecutive-error-limit"
HONEST = {"ada": "solution.py", "ben": "wrong/no_reset.py"}
ATTACKS = sorted((ROOT / "tests" / "hostile_class").glob("*.py"))
# What no output may hold: C0 controls but newline and tab, DEL, C1 controls, and the bidirectional overrides.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def attack(path: Path):
    spec = importlib.util.spec_from_file_location(f"hostile_class_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def honest_class(folder: Path, course: Path) -> Path:
    folder.mkdir()
    challenge = course / "exercises" / "build-an-agent" / SLUG
    for learner, file in HONEST.items():
        (folder / learner).mkdir()
        shutil.copy(challenge / file, folder / learner / f"{SLUG}.py")
    return folder


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    return course_copy(tmp_path_factory.mktemp("course"), [SLUG])


@pytest.fixture(scope="module")
def graded(course, tmp_path_factory, runners):
    base = tmp_path_factory.mktemp("hostile-class")
    folder = honest_class(base / "class", course)
    for path in ATTACKS:
        attack(path).build(folder, course, SLUG)
    out = base / "out"
    proc = run_grader(runners, "class", folder, "--out", out, "--root", course, "--jobs", "2")
    return out, proc


def rows(out: Path) -> dict:
    return {row["learner"]: row for row in json.loads((out / "gradebook.json").read_text())["learners"]}


def verdict(out: Path, learner: str) -> dict:
    return json.loads((out / "verdicts" / file_name(learner) / f"{SLUG}.json").read_text())["result"]


def test_every_attack_ends_in_a_row_of_its_own_and_the_class_is_graded(graded):
    out, proc = graded
    assert proc.returncode == 3, proc.stderr  # written; the hand-ins refused whole are listed for the teacher
    assert "Traceback" not in proc.stderr
    got = rows(out)
    expected = {learner: want for path in ATTACKS for learner, want in attack(path).EXPECT.items()}
    assert set(got) == set(HONEST) | set(expected)
    for learner, want in expected.items():
        row = got[learner]
        if "error" in want:
            assert row["error"] is not None and want["error"] in row["error"], (learner, row["error"])
            assert row["challenges"][SLUG]["status"] == "unread"
            continue
        assert row["error"] is None and row["challenges"][SLUG]["status"] == want["status"], (learner, row)
        if "message" in want:
            result = verdict(out, learner)
            said = [result["message"] or ""] + [t["message"] for t in result["tests"]]
            assert any(want["message"] in text for text in said), (learner, said[:3])


def test_honest_learners_get_the_verdicts_they_get_alone(graded, course, tmp_path, runners):
    out, _ = graded
    alone = tmp_path / "out"
    proc = run_grader(runners, "class", honest_class(tmp_path / "class", course), "--out", alone, "--root", course)
    assert proc.returncode == 0, proc.stderr
    for learner in HONEST:
        assert verdict(out, learner) == verdict(alone, learner)
    assert rows(out)["ada"]["challenges"][SLUG]["status"] == "pass"
    assert rows(out)["ben"]["challenges"][SLUG]["status"] == "fail"


def private_markers(course: Path) -> set[str]:
    """Texts of the private cases' arguments that no other case's arguments hold."""

    def texts(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from texts(item)
        elif isinstance(value, list):
            for item in value:
                yield from texts(item)

    cases = find_exercise(course, SLUG).cases
    private = {t for c in cases if c.private for t in texts(c.args) if len(t) >= 8}
    return private - {t for c in cases if not c.private for t in texts(c.args)}


def test_no_output_holds_a_private_input_a_host_file_a_control_character_or_more_than_its_bound(graded, course):
    out, proc = graded
    markers = private_markers(course)
    assert markers, "the challenge has private cases with inputs of their own"
    outputs = {str(path): path.read_text(encoding="utf-8") for path in out.rglob("*") if path.is_file()}
    outputs["stderr"], outputs["stdout"] = proc.stderr, proc.stdout
    assert any("LEAK" in text for text in outputs.values()), "the leaking submission printed its visible inputs"
    for where, text in outputs.items():
        for marker in markers:
            assert marker not in text and json.dumps(marker)[1:-1] not in text, (where, marker)
        assert "root:x:0:0" not in text, where
        assert not CONTROL.search(text), (where, CONTROL.search(text))
    for path in (out / "verdicts").rglob("*.json"):
        assert path.stat().st_size < SUBMISSION_CHARS * 1.2, path


def test_gradebook_cells_are_safe_to_open_in_a_spreadsheet(graded):
    out, _ = graded
    with (out / "gradebook.csv").open(encoding="utf-8", newline="") as file:
        cells = [cell for row in csv.reader(file) for cell in row]
    assert '\'=HYPERLINK("evil.invalid","click")' in cells
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]


def test_the_text_report_shows_each_file_name_on_one_line(tmp_path, course, runners):
    folder = tmp_path / "submissions"
    folder.mkdir()
    challenge = course / "exercises" / "build-an-agent" / SLUG
    (folder / "x\n  PASS    forged.py").write_bytes((challenge / "wrong/no_reset.py").read_bytes())
    (folder / "\x1b[2J.py").write_bytes((challenge / "solution.py").read_bytes())
    proc = run_grader(runners, challenge, folder)
    assert proc.returncode == 1, proc.stderr
    forged = "x\\x0a \\x20PASS \\x20\\x20\\x20forged.py:"  # a name's runs of spaces shown as such, as everywhere
    assert forged in proc.stdout and "\\x1b[2J.py:" in proc.stdout
    assert not CONTROL.search(proc.stdout)
    assert [line for line in proc.stdout.splitlines() if "forged" in line] == [f"{folder}/{forged}"]


@pytest.mark.parametrize(
    ("book", "said"),
    [
        ([], "not a Loopcraft gradebook"),
        ({"class": CLASS, "challenges": ["a"], "learners": [{"challenges": {}}]}, "'learner' is a required property"),
        (
            {
                "class": CLASS,
                "challenges": ["a"],
                "learners": [
                    {
                        "learner": "x",
                        "name": "x",
                        "origin": "x/",
                        "error": None,
                        "notes": [],
                        "lms": {},
                        "challenges": {},
                    }
                ],
            },
            "has cells for other challenges",
        ),
        ("[" * 100_000, "no readable gradebook.json"),
    ],
    ids=["a-list", "a-row-without-learner", "a-row-without-a-challenge", "nested-too-deep"],
)
def test_merge_refuses_what_is_not_a_gradebook_with_its_path_and_why(tmp_path, runners, book, said):
    shard = tmp_path / "shard"
    shard.mkdir()
    (shard / "gradebook.json").write_text(book if isinstance(book, str) else json.dumps(book))
    proc = run_grader(runners, "merge", shard, "--out", tmp_path / "merged")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"{shard / 'gradebook.json'}:" in proc.stderr and said in proc.stderr, proc.stderr


def signer(course: Path) -> Signer:
    """What signs a class of `course` in this session: the default verdict key (tests/conftest.py's), the course's
    challenge."""
    secret, _ = verdict_key(None, folders=[])
    return Signer(secret, {SLUG: fingerprint(find_exercise(course, SLUG), Project(course))})


def write_shard(folder: Path, course: Path) -> Path:
    """A shard as `class --shard` leaves it, of one learner whose hand-in was refused (nothing to grade): the verdict
    file that says so, and the gradebook, both signed."""
    ex = find_exercise(course, SLUG)
    store = VerdictStore(folder, signer(course), CLASS["run"])
    learner = Learner(id="sam", name="sam", origin="sam/")
    learner.sources[SLUG] = Source(f"sam/{SLUG}.py", text="def run_agent(**kw):\n    return {}\n")
    result = failed_submission(ex.cases, "refused")
    made = key(fingerprint(ex, Project(course)), learner.sources[SLUG])  # as merge makes it again from the source
    store.put(learner, SLUG, learner.sources[SLUG], made, result.to_dict())
    book = gradebook.book([SLUG], [gradebook.row(learner, {SLUG: len(ex.cases)}, store)], CLASS)
    gradebook.write_book(folder, store.signer.sign_book(book))
    return store.path("sam", SLUG)


def edit_json(path: Path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def sign_again(verdict: Path, book: Path, course: Path) -> None:
    """The shard's files signed again after an edit, as only the key's holder can: for the defences behind the
    signatures (tests/integration/test_merge_trust.py tests the signatures)."""
    with_key = signer(course)
    record = json.loads(verdict.read_text())
    verdict.write_text(compact(with_key.sign_record(record)) + "\n")
    edit_json(book, lambda doc: doc.update(signature=with_key.sign_book(doc)["signature"]))


def deep_value(record: dict) -> None:
    case = next(t for t in record["result"]["tests"] if not t["hidden"])
    case["actual"] = json.loads("[" * 150 + "]" * 150)
    case["status"] = "fail"


def lying_cell(book: dict) -> None:
    book["learners"][0]["challenges"][SLUG].update(
        status="pass", passed=book["learners"][0]["challenges"][SLUG]["total"]
    )


# A folder posing as a shard (or one damaged): what it holds instead of what `class --shard` writes, and what merge
# must say of it. Each stops the merge with the file's path and why, before anything is written. Those that make
# a readable verdict of another (SIGNED_AGAIN) are signed again, as by the key's holder with another grader: the
# signature alone would refuse them (tests/integration/test_merge_trust.py), and the defences behind it are under test here.
POSING = {
    "a-verdict-linked-to-dev-zero": (
        lambda verdict, book: (verdict.unlink(), verdict.symlink_to("/dev/zero")),
        "a link",
    ),
    "a-verdict-that-is-a-fifo": (lambda verdict, book: (verdict.unlink(), os.mkfifo(verdict)), "not a regular file"),
    "a-gradebook-linked-to-dev-zero": (lambda verdict, book: (book.unlink(), book.symlink_to("/dev/zero")), "a link"),
    "a-verdict-too-big-to-be-one": (
        lambda verdict, book: verdict.write_text(" " * VERDICT_BYTES + verdict.read_text()),
        "over the 16,777,216 bytes",
    ),
    "a-source-longer-than-a-hand-in": (
        lambda verdict, book: edit_json(verdict, lambda r: r.update(source="#" * 300_000)),
        "not a verdict of this class: at source:",
    ),
    "nan-in-a-trace": (
        lambda verdict, book: verdict.write_text(verdict.read_text().replace('"trace":[]', '"trace":[NaN]', 1)),
        "NaN is not JSON",
    ),
    "a-private-case-with-its-details": (
        lambda verdict, book: edit_json(verdict, lambda r: r["result"]["tests"][-1].update(output="the inputs")),
        "at result/tests/",
    ),
    "a-hidden-case-with-its-expected-value": (
        lambda verdict, book: edit_json(
            verdict, lambda r: next(t for t in r["result"]["tests"] if t["hidden"]).update(expected="x")
        ),
        "at result/tests/",
    ),
    "a-cell-that-is-not-its-verdict": (lambda verdict, book: edit_json(book, lying_cell), "the gradebook says pass"),
    "cases-not-the-courses": (
        lambda verdict, book: edit_json(verdict, lambda r: r["result"]["tests"][0].update(name="another")),
        "not the course's",
    ),
    # Issue 38: a shard's record whose source was swapped for the learner's, its key and verdict kept.
    "a-source-swapped-under-its-key": (
        lambda verdict, book: edit_json(verdict, lambda r: r.update(source="def run_agent(**kw):\n    return 1\n")),
        "its key is not the one its source and the course's challenge make",
    ),
}


IN_A_PROCESS = {"a-verdict-linked-to-dev-zero", "a-verdict-that-is-a-fifo", "a-gradebook-linked-to-dev-zero"}
SIGNED_AGAIN = {"cases-not-the-courses"}


@pytest.mark.parametrize("posing", list(POSING))
def test_merge_refuses_a_folder_posing_as_a_shard_with_its_path_and_why(course, tmp_path, runners, posing):
    shard = tmp_path / "shard"
    verdict = write_shard(shard, course)
    make, said = POSING[posing]
    make(verdict, shard / "gradebook.json")
    if posing in SIGNED_AGAIN:
        sign_again(verdict, shard / "gradebook.json", course)
    # What a failed defence would hang on or read without end runs as a process of its own; the rest here.
    merge = grader_process if posing in IN_A_PROCESS else functools.partial(run_grader, runners)
    proc = merge("merge", shard, "--out", tmp_path / "merged", "--root", course)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert said in proc.stderr and f"{shard}/" in proc.stderr, proc.stderr
    # Nothing of a refused merge is written to --out, not even the records checked before the one refused.
    assert not (tmp_path / "merged").exists() or not any((tmp_path / "merged").iterdir())
    assert not list(tmp_path.glob(".merged.merging-*"))


def test_merge_writes_the_report_of_a_value_deeper_than_any_result(course, tmp_path, runners):
    # Deeper than a result may be (only a verdict made by hand holds one), the value stopped the report with a
    # traceback; it is shown as its JSON.
    shard = tmp_path / "shard"
    verdict = write_shard(shard, course)
    edit_json(verdict, lambda r: (deep_value(r), r["result"].update(status="fail")))
    edit_json(
        shard / "gradebook.json",
        lambda b: b["learners"][0]["challenges"][SLUG].update(status="fail"),
    )
    sign_again(verdict, shard / "gradebook.json", course)
    proc = run_grader(runners, "merge", shard, "--out", tmp_path / "merged", "--root", course)
    assert proc.returncode == 0, proc.stderr
    assert "[" * 150 + "]" * 150 in (tmp_path / "merged" / "report" / "index.html").read_text()


STASH = """
import sys

_frame = sys._getframe()
while "run_json" not in _frame.f_locals:
    _frame = _frame.f_back
with open("/tmp/cases-seen", "a") as _file:
    _file.write(_frame.f_locals["run_json"] + "\\n")
with open("/tmp/cases-seen") as _file:
    print("SEEN", _file.read())
"""


def test_a_private_case_cannot_hand_its_inputs_to_a_later_case_whatever_the_courses_order(tmp_path, runners):
    # The cases of a run share an interpreter: code that keeps every case's arguments in a file and prints them
    # would show a private case's inputs in the output of any published case run after it. Private cases run last,
    # wherever the course lists them: here, first.
    course = course_copy(tmp_path, [SLUG])
    spec = course / "exercises" / "build-an-agent" / SLUG / "exercise.yaml"
    head, cases = spec.read_text().split("\ncases:\n")
    start = cases.index("  # Private cases")
    spec.write_text(f"{head}\ncases:\n{cases[start:].rstrip()}\n{cases[:start]}")
    ex = find_exercise(course, SLUG)
    assert ex.cases[0].private and not ex.cases[-1].private
    (tmp_path / "stash.py").write_text(STASH + ex.solution_source)
    proc = run_grader(runners, SLUG, tmp_path / "stash.py", "--json", "--root", course)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert [t["name"] for t in result["tests"]] == [c.name for c in ex.cases]
    assert result["tests"][-1]["output"].count("SEEN") == 1 and "task" in result["tests"][-1]["output"]
    for marker in private_markers(course):
        assert marker not in proc.stdout and json.dumps(marker)[1:-1] not in proc.stdout, marker


def test_the_verdict_schema_keeps_of_a_private_case_what_results_writes():
    schema = json.loads((ROOT / "schemas" / "verdict.schema.json").read_text())
    private = schema["$defs"]["case"]["allOf"][0]["then"]["properties"]
    assert private["message"]["const"] == PRIVATE_NOTE
