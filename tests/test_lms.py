"""The LMS round trip: a Canvas and a Moodle download (hostile entries among them) graded by `python -m grader class`,
the gradebook checked, and the scores written back in each LMS's import layout, learners matched by the LMS's ids
with the LMS's own export. The commands run in this process, grading in the session's runners
(tests.helpers.run_grader); tests/test_class_grading.py checks what only the real process shows."""

from __future__ import annotations

import csv
import json
import stat
import unicodedata
from pathlib import Path

import pytest

from loopcraft import classroom
from loopcraft.classroom import lms
from loopcraft.errors import ExerciseError
from loopcraft.exercises import load_course
from loopcraft.printable import file_name
from loopcraft.project import Project
from tests.helpers import course_copy, run_grader
from tests.zips import LIMIT, RIGHT, WRONG, Member, build, canvas_name, csv_text, deflated, moodle_folder

TRACK = classroom.course(Project())[0]  # through the build cache, as the class command loads it
TITLES = {ex.slug: ex.title for ex in TRACK.exercises}


def table(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def learners(out: Path) -> dict[str, dict]:
    return {r["learner"]: r for r in json.loads((out / "gradebook.json").read_text())["learners"]}


def score(cell: dict, points: float = 1.0) -> str:
    """What an import holds for a gradebook cell: the points times the share of cases passed, blank if missing."""
    if cell["status"] == "missing":
        return ""
    return f"{points * cell['passed'] / cell['total']:.2f}".rstrip("0").rstrip(".")


def progress_file(code: str) -> str:
    entries = {f"loopcraft:code:build-an-agent/{LIMIT}": code}
    doc = {"format": "loopcraft-progress", "version": 1, "exported": "2026-11-30T12:00:00.000Z", "entries": entries}
    return json.dumps(doc)


# A Canvas assignment of one challenge, files named as the learners named them (so `--challenge`), the hostile ones
# among them: each must be its own learner's error.
CANVAS = [
    Member(canvas_name("doejohn", 11, 100, "limit.py"), WRONG),
    Member(canvas_name("doejohn", 11, 101, "limit-1.py"), RIGHT),  # handed in again: Canvas adds -1
    Member(canvas_name("roeann", 12, 102, "solution.py", late=True), WRONG),
    Member(canvas_name("kimlee", 13, 103, "loopcraft-progress.json"), progress_file(RIGHT)),  # the site's export
    Member(canvas_name("evil", 14, 104, "x.py"), "/etc/passwd", mode=stat.S_IFLNK | 0o777),
    # 50 MB of zeros under a record that claims 100 bytes of them.
    Member(canvas_name("bomb", 15, 105, "b.py"), b"\0" * 100, compressed=deflated(b"\0" * 50_000_000)),
    Member(canvas_name("climber", 16, 106, "../../../home/x.py"), RIGHT),
    Member(canvas_name("nonutf", 17, 107, "").encode() + b"\xff\xfe.py", RIGHT, utf8_flag=True),
    Member(canvas_name("twice", 18, 108, "limit.py"), RIGHT),
    Member(canvas_name("twice", 18, 108, "limit.py"), WRONG),
    Member("readme.txt", "not a learner's"),
]
CANVAS_ROSTER = [
    ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", f"{TITLES[LIMIT]} (901)", "Current Score"],
    ["    Points Possible", "", "", "", "", "1", "(read only)"],
    ["Doe, John", "11", "s11", "jdoe", "A", "", ""],
    ["Roe, Ann", "12", "s12", "aroe", "A", "", ""],
    ["Lee, Kim", "13", "s13", "klee", "A", "", ""],
    ['=HYPERLINK("http://x")', "14", "s14", "evil", "B", "", ""],
    ["Bomb, Bo", "15", "s15", "bbomb", "B", "", ""],
    ["Climber, C", "16", "s16", "ccl", "B", "", ""],
    ["Absent, Al", "99", "s99", "aabs", "B", "", ""],
]


@pytest.fixture(scope="module")
def canvas(tmp_path_factory, runners) -> Path:
    root = tmp_path_factory.mktemp("canvas")
    (root / "submissions.zip").write_bytes(build(CANVAS))
    (root / "roster.csv").write_text(csv_text(CANVAS_ROSTER), encoding="utf-8-sig")  # as Canvas writes it
    proc = run_grader(
        runners, "class", root / "submissions.zip", "--out", root / "out", "--challenge", LIMIT,
        "--lms", "canvas", "--roster", root / "roster.csv",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (root / "stderr.txt").write_text(proc.stderr)
    return root


def test_a_canvas_download_is_a_learner_per_canvas_user_each_hazard_its_own_learners_error(canvas):
    stderr = (canvas / "stderr.txt").read_text()
    assert "Traceback" not in stderr
    assert "grading 3 with" in stderr  # doejohn's latest, roeann's and kimlee's progress file: nothing hostile ran
    got = learners(canvas / "out")
    expected_ids = {f"{n}_{u}" for n, u in [("doejohn", 11), ("roeann", 12), ("kimlee", 13), ("evil", 14)]}
    expected_ids |= {f"{n}_{u}" for n, u in [("bomb", 15), ("climber", 16), ("nonutf", 17), ("twice", 18)]}
    assert set(got) == expected_ids | {"readme.txt"}
    assert all(r["lms"] == {"canvas": r["learner"].rsplit("_", 1)[1]} for i, r in got.items() if i != "readme.txt")
    cell = {learner: r["challenges"][LIMIT] for learner, r in got.items()}
    assert cell["doejohn_11"]["status"] == "pass"  # limit-1.py, the later one, is the one graded
    assert any("kept limit-1.py, the latest of 2" in note for note in got["doejohn_11"]["notes"])
    assert cell["roeann_12"]["status"] == "fail" and 0 < cell["roeann_12"]["passed"] < cell["roeann_12"]["total"]
    assert "handed in late (Canvas)" in got["roeann_12"]["notes"]
    assert cell["kimlee_13"]["status"] == "pass"
    for learner, why in [
        ("evil_14", "a link; only regular files are read"),
        ("bomb_15", "over the 262,144 bytes a submission may have"),
        ("climber_16", "climbs out of the zip's folder"),
        ("nonutf_17", "its name is marked as UTF-8 and is not"),
        ("twice_18", "the zip holds 2 entries of this name"),
    ]:
        assert cell[learner] == {"status": "error", "passed": 0, "total": cell["doejohn_11"]["total"]}, learner
        verdict = json.loads((canvas / "out" / "verdicts" / learner / f"{LIMIT}.json").read_text())
        assert why in verdict["result"]["message"], (learner, verdict["result"]["message"])
        assert why in stderr
    assert "not named as Canvas names a learner's file" in got["readme.txt"]["error"]


def test_the_canvas_import_has_the_exports_columns_and_the_points_of_the_cases_passed(canvas):
    got = learners(canvas / "out")
    rows = table(canvas / "out" / "canvas-import.csv")
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", f"{TITLES[LIMIT]} (901)"]
    assert rows[1] == ["Points Possible", "", "", "", "", "1"]
    by_id = {r[1]: r for r in rows[2:]}
    assert list(by_id) == ["11", "12", "13", "14", "15", "16"]  # the roster's order; 99 handed nothing in
    for user, learner in [("11", "doejohn_11"), ("12", "roeann_12"), ("13", "kimlee_13"), ("14", "evil_14")]:
        assert by_id[user][5] == score(got[learner]["challenges"][LIMIT]), user
    assert by_id["11"][:5] == ["Doe, John", "11", "s11", "jdoe", "A"]
    assert by_id["11"][5] == "1" and by_id["13"][5] == "1" and by_id["14"][5] == by_id["15"][5] == "0"
    assert 0 < float(by_id["12"][5]) < 1
    assert by_id["14"][0] == """'=HYPERLINK("http://x")"""  # a learner's name is never a formula
    unmatched = table(canvas / "out" / "canvas-unmatched.csv")
    assert unmatched[0] == ["learner", "name", "origin", "Canvas user id", "why"]
    why = {r[0]: (r[3], r[4]) for r in unmatched[1:]}
    assert why == {
        "nonutf_17": ("17", "Canvas user 17 is not in the roster"),
        "twice_18": ("18", "Canvas user 18 is not in the roster"),
        "readme.txt": ("", "no Canvas id: not handed in through Canvas's download"),
    }
    assert "left out of canvas-import.csv: 3" in (canvas / "stderr.txt").read_text()


def test_grading_the_canvas_download_again_grades_nothing_and_writes_the_same_files(canvas, tmp_path, runners):
    again = run_grader(
        runners, "class", canvas / "submissions.zip", "--out", canvas / "out", "--challenge", LIMIT,
        "--lms", "canvas", "--roster", canvas / "roster.csv",
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "8 submissions, 8 already graded, grading 0" in again.stderr
    merged = run_grader(
        runners, "merge", canvas / "out", "--out", tmp_path, "--lms", "canvas", "--roster", canvas / "roster.csv"
    )
    assert merged.returncode == 0, merged.stderr
    for name in ("gradebook.json", "gradebook.csv", "canvas-import.csv", "canvas-unmatched.csv"):
        assert (tmp_path / name).read_bytes() == (canvas / "out" / name).read_bytes(), name
    # Merged again without --lms: the import with the earlier run's scores is gone, not left to be uploaded.
    plain = run_grader(runners, "merge", canvas / "out", "--out", tmp_path)
    assert plain.returncode == 0, plain.stderr
    assert not (tmp_path / "canvas-import.csv").exists() and not (tmp_path / "canvas-unmatched.csv").exists()
    assert "removed canvas-import.csv, left by an earlier run" in plain.stderr


ZOE = "Zoé Ünï"
MOODLE = [
    Member(moodle_folder("John Doe", 501) + f"/{LIMIT}.py", RIGHT),
    Member(moodle_folder("John Doe", 501) + "/notes.txt", "my notes"),
    Member(moodle_folder("Ann Roe", 502) + f"/src/{LIMIT}.py", WRONG),  # in a folder of her own making
    Member(moodle_folder(ZOE, 503) + f"/{LIMIT}.py", "/etc/passwd", mode=stat.S_IFLNK | 0o777),
    Member("Bob Ray_504_assignsubmission_onlinetext_/onlinetext.html", "<p>I pasted it here</p>"),
    # Bob's entry that would land in Ann's folder if it were unpacked: his own error.
    Member(moodle_folder("Bob Ray", 504) + f"/../../{moodle_folder('Ann Roe', 502)}/{LIMIT}.py", RIGHT),
    Member(moodle_folder("Eve Bomb", 505) + f"/{LIMIT}.py", b"#" * 200_000),  # under the cap, 1000 to 1
    Member(moodle_folder("Fay Lock", 506) + f"/{LIMIT}.py", RIGHT, encrypted=True),
]
WORKSHEET = [
    ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum grade", "Grade can be changed"],
    *[
        [f"Participant {number}", name, f"{name.split()[0].lower()}@example.org", "Submitted", "", "100.00", "Yes"]
        for number, name in [(501, "John Doe"), (502, "Ann Roe"), (503, ZOE), (504, "Bob Ray"), (505, "Eve Bomb")]
    ],
    ["Participant 506", "Fay Lock", "fay@example.org", "Submitted", "", "100.00", "Yes"],
    ["Participant 507", "Gil Gone", "gil@example.org", "No submission", "", "100.00", "Yes"],
]


@pytest.fixture(scope="module")
def moodle(tmp_path_factory, runners) -> Path:
    root = tmp_path_factory.mktemp("moodle")
    (root / "submissions.zip").write_bytes(build(MOODLE))
    (root / "worksheet.csv").write_text(csv_text(WORKSHEET), encoding="utf-8-sig")
    proc = run_grader(
        runners, "class", root / "submissions.zip", "--out", root / "out",
        "--lms", "moodle", "--roster", root / "worksheet.csv",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (root / "stderr.txt").write_text(proc.stderr)
    return root


def test_a_moodle_download_is_a_learner_per_participant_each_hazard_its_own_learners_error(moodle):
    stderr = (moodle / "stderr.txt").read_text()
    assert "Traceback" not in stderr and "grading 2 with" in stderr
    got = learners(moodle / "out")
    assert sorted(got) == sorted(
        ["John Doe_501", "Ann Roe_502", f"{ZOE}_503", "Bob Ray_504", "Eve Bomb_505", "Fay Lock_506"]
    )
    assert got["John Doe_501"]["lms"] == {"moodle": "501"}
    cell = {learner: r["challenges"][LIMIT] for learner, r in got.items()}
    assert cell["John Doe_501"]["status"] == "pass" and cell["Ann Roe_502"]["status"] == "fail"
    assert any("notes.txt" in note for note in got["John Doe_501"]["notes"])
    assert any("onlinetext.html" in note for note in got["Bob Ray_504"]["notes"])
    for learner, why in [
        (f"{ZOE}_503", "a link; only regular files are read"),
        ("Bob Ray_504", "climbs out of the zip's folder"),
        ("Eve Bomb_505", "more than the 100 to 1 a zip bomb's guard allows"),
        ("Fay Lock_506", "encrypted"),
    ]:
        assert cell[learner]["status"] == "error", learner
        verdict = json.loads((moodle / "out" / "verdicts" / file_name(learner) / f"{LIMIT}.json").read_text())
        assert why in verdict["result"]["message"], (learner, verdict["result"]["message"])
    assert {c["status"] for learner in got for slug, c in got[learner]["challenges"].items() if slug != LIMIT} == {
        "missing"
    }


def test_the_moodle_import_has_the_worksheets_identity_and_a_column_per_challenge(moodle):
    got = learners(moodle / "out")
    rows = table(moodle / "out" / "moodle-import.csv")
    slugs = [ex.slug for ex in TRACK.exercises]
    assert rows[0] == ["Full name", "Email address", *[TITLES[slug] for slug in slugs]]
    by_name = {r[0]: dict(zip(slugs, r[2:], strict=True)) for r in rows[1:]}
    assert list(by_name) == ["John Doe", "Ann Roe", ZOE, "Bob Ray", "Eve Bomb", "Fay Lock"]  # not Gil: nothing in
    assert rows[1][1] == "john@example.org"
    for learner, r in got.items():
        assert by_name[r["name"]] == {slug: score(c) for slug, c in r["challenges"].items()}, learner
    assert by_name["John Doe"][LIMIT] == "1" and by_name["Fay Lock"][LIMIT] == "0"
    assert by_name["John Doe"]["dispatch-registry"] == ""  # nothing handed in: the LMS keeps what it has
    assert table(moodle / "out" / "moodle-unmatched.csv") == [
        ["learner", "name", "origin", "Moodle participant id", "why"]
    ]


def test_a_moodle_gradebook_export_matches_learners_by_their_one_full_name(moodle, tmp_path, runners):
    export = [
        ["First name", "Last name", "ID number", "Institution", "Department", "Email address", "Course total (Real)"],
        ["John", "Doe", "1001", "", "", "john@example.org", "-"],
        ["Ann", "Roe", "1002", "", "", "ann@example.org", "-"],
        ["Ann", "Roe", "1003", "", "", "ann.roe@example.org", "-"],  # two of one name: neither is matched
        [unicodedata.normalize("NFD", "Zoé"), "Ünï", "1004", "", "", "zoe@example.org", "-"],  # decomposed accents
    ]
    (tmp_path / "export.csv").write_text(csv_text(export))
    proc = run_grader(
        runners, "merge", moodle / "out", "--out", tmp_path / "out",
        "--lms", "moodle", "--roster", tmp_path / "export.csv",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    rows = table(tmp_path / "out" / "moodle-import.csv")
    assert rows[0][:3] == ["First name", "Last name", "ID number"] and rows[0][3] == "Email address"
    assert [r[2] for r in rows[1:]] == ["1001", "1004"]
    why = {r[0]: r[4] for r in table(tmp_path / "out" / "moodle-unmatched.csv")[1:]}
    assert why["Ann Roe_502"].startswith("2 roster rows have this name")
    assert why["Bob Ray_504"].startswith("no roster row has this name")
    assert set(why) == {"Ann Roe_502", "Bob Ray_504", "Eve Bomb_505", "Fay Lock_506"}


def test_a_roster_that_is_not_the_lms_s_export_stops_the_run_before_anything_is_graded(tmp_path, runners):
    (tmp_path / "class.zip").write_bytes(build([Member(canvas_name("doejohn", 11, 100, "limit.py"), RIGHT)]))
    roster = tmp_path / "worksheet.csv"
    roster.write_text(csv_text(WORKSHEET))
    out = tmp_path / "out"
    wrong = run_grader(runners, "class", tmp_path / "class.zip", "--out", out, "--lms", "canvas", "--roster", roster)
    assert (
        wrong.returncode == 2
        and "worksheet.csv:1: not a Canvas gradebook export (no Student or ID column)" in wrong.stderr
    )
    assert not out.exists()
    alone = run_grader(runners, "class", tmp_path / "class.zip", "--out", out, "--lms", "canvas")
    assert alone.returncode == 2 and "--lms and --roster go together" in alone.stderr
    (tmp_path / "dup.csv").write_text(csv_text([CANVAS_ROSTER[0], CANVAS_ROSTER[2], CANVAS_ROSTER[2]]))
    twice = run_grader(
        runners, "class", tmp_path / "class.zip", "--out", out, "--lms", "canvas", "--roster", tmp_path / "dup.csv"
    )
    assert twice.returncode == 2 and "dup.csv:3: ID 11 again (first on line 2)" in twice.stderr
    assert not out.exists()


def test_points_name_challenges_of_their_track(tmp_path):
    course = course_copy(tmp_path, [LIMIT])
    track = course / "exercises" / "build-an-agent" / "track.yaml"
    track.write_text(track.read_text() + f"points:\n  {LIMIT}: 3\n  no-such-challenge: 2\n")
    with pytest.raises(ExerciseError) as caught:
        load_course(course)
    assert [str(p) for p in caught.value.errors] == [
        "exercises/build-an-agent/track.yaml:7: points: 'no-such-challenge' is not a challenge of this track"
    ]
    track.write_text(track.read_text().replace("  no-such-challenge: 2\n", ""))
    assert load_course(course)[0].points_of(LIMIT) == 3 and load_course(course)[0].points_of("other") == 1


def test_a_learner_whose_lms_key_a_spreadsheet_would_run_is_listed_never_altered(tmp_path):
    # Moodle matches an import's rows by a key (email, ID number, username) that a learner may choose: one starting
    # with "-", "+" or "@" was written neutralised ("'-eve@..."), which Moodle matches with no one, while the run said
    # every learner was in the import. Such a learner is listed instead; a name is only shown, so neutralised.
    roster = tmp_path / "worksheet.csv"
    roster.write_text(
        csv_text(
            [
                ["Identifier", "Full name", "Email address", "Status", "Grade"],
                ["Participant 11", "Eve Minus", "-eve@example.org", "", ""],
                ["Participant 12", "Ann Plus", "+ann@example.org", "", ""],
                ["Participant 13", '=HYPERLINK("http://x.invalid")', "hal@example.org", "", ""],
            ]
        ),
        encoding="utf-8",
    )
    cell = {"status": "pass", "passed": 3, "total": 3}
    rows = [
        {"learner": f"{name}_{user}", "name": name, "origin": "", "error": None, "notes": [], "lms": {"moodle": user},
         "challenges": {LIMIT: cell}}
        for name, user in (("Eve Minus", "11"), ("Ann Plus", "12"), ('=HYPERLINK("http://x.invalid")', "13"))
    ]  # fmt: skip
    told = lms.write(
        tmp_path, {"challenges": [LIMIT], "learners": rows}, lms.prepare("moodle", roster, [TRACK], [LIMIT])
    )
    assert told[0] == "moodle-import.csv: 1 of the roster's 3 learners"
    imported = table(tmp_path / "moodle-import.csv")
    assert imported[1:] == [['\'=HYPERLINK("http://x.invalid")', "hal@example.org", "1"]]
    listed = {r[3]: r[4] for r in table(tmp_path / "moodle-unmatched.csv")[1:]}
    assert set(listed) == {"11", "12"} and all("enter this learner's grade by hand" in why for why in listed.values())
    cells = [c for path in tmp_path.glob("moodle-*.csv") for r in table(path) for c in r]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@")]
