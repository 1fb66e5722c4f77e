"""The LMSs' naming rules, generated: downloads named by Canvas's and Moodle's own rules (tests/lms_rules.py, from their
source) for classes of any names, late or not, in every form the LMSs write; read by the class's intake, matched
with a roster made by the same rules, and handed back under names the LMSs' own readers give to the right learner.
No grading runs here: what is proved is who each file belongs to."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from loopcraft import classroom
from loopcraft.classroom import handback, lms, read_class, zipped
from loopcraft.course.project import Project
from tests.lms_rules import (
    canvas_entry,
    canvas_export,
    canvas_reupload_owner,
    moodle_entry,
    moodle_import_owner,
    moodle_worksheet,
)
from tests.zips import LIMIT, Member, build

TRACK = classroom.course(Project())[0]
EXERCISES = classroom.course_exercises(Project(), [TRACK])
TITLE = next(ex.title for ex in EXERCISES if ex.slug == LIMIT)

# Names as people have them: letters of any script, marks, digits, and the punctuation names hold.
NAME = st.text(st.characters(categories=["L", "M", "Nd"]) | st.sampled_from(" ,'-._"), min_size=1, max_size=24).filter(
    lambda name: name.strip(" ,'-._")
)
FILE = st.text(st.characters(categories=["L", "Nd"]) | st.sampled_from("_-. "), max_size=16).map(lambda s: f"{s}.py")
IDS = st.integers(1, 10**9)


def learner_rows(read: list) -> dict:
    rows = [
        {"learner": r.id, "name": r.name, "origin": r.origin, "error": r.error, "notes": r.notes, "lms": r.lms,
         "unattributed": r.unattributed, "challenges": {LIMIT: {"status": "fail", "passed": 0, "total": 1}}}
        for r in read
    ]  # fmt: skip
    return {"challenges": [LIMIT], "learners": rows}


def plain(sortable_name: str) -> bool:
    """A name Canvas's download cannot make look like ids: no run of digits between underscores once reduced (Canvas
    joins only "_<digits>_" runs, not those that its removal of other characters makes), no "_late" at its end."""
    if "Points Possible" in sortable_name:  # Canvas's import reads such a row as its points: listed, not imported
        return False
    reduced = canvas_entry(sortable_name, 1, "", attachment=1)[: -len("_1_1_")]
    return not re.search(r"(^|_)\d+(_|$)", reduced) and not re.search(r"(^|_)late$", reduced)


CLASS = st.lists(
    st.tuples(NAME, IDS, st.booleans(), FILE, st.integers(1, 10**9)), min_size=1, max_size=6, unique_by=lambda t: t[1]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(people=CLASS)
def test_a_canvas_download_gives_each_file_to_its_own_learner_and_never_to_another(people):
    members = [
        Member(canvas_entry(name, user, file, attachment=attachment, late=late), f"# learner {user}")
        for name, user, late, file, attachment in people
    ]
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "s.zip").write_bytes(build(members))
        read = read_class(Path(tmp) / "s.zip", EXERCISES, LIMIT)
        roster = [{"name": name, "id": user} for name, user, *_ in people]
        (Path(tmp) / "roster.csv").write_bytes(canvas_export(roster, [(TITLE, 77, 10)], semicolons=len(people) % 2))
        export = lms.prepare("canvas", Path(tmp) / "roster.csv", [TRACK], [LIMIT])
    matched = lms.match(learner_rows(read), export)
    by_user = {learner.lms.get("canvas"): learner for learner in read}
    for row, got in matched.rows.items():  # whoever is matched holds their own work, whatever the names
        owner = export.roster.rows[row]["ID"]
        assert got["lms"]["canvas"] == owner
        assert by_user[owner].sources[LIMIT].text == f"# learner {owner}"
    for name, user, late, _, attachment in people:
        if not plain(name):
            continue  # such a name may read as ids: its learner is listed for the teacher, never given another's
        learner = by_user[str(user)]
        assert learner.sources[LIMIT].text == f"# learner {user}" and learner.error is None
        assert ("handed in late (Canvas)" in learner.notes) == late
        assert any(got["lms"]["canvas"] == str(user) for got in matched.rows.values()), (name, user)
        page = handback.entry_name("canvas", learner.lms)
        assert canvas_reupload_owner(page) == (str(user), str(attachment))


@settings(max_examples=40, deadline=None)
@given(people=CLASS, anonymous=st.text("abcdefghijkXYZ0123456789", min_size=5, max_size=5))
@example(people=[("x", 5, False, "0_.py", 1)], anonymous="00000")
def test_an_anonymous_canvas_download_is_graded_but_never_matched(people, anonymous):
    name, user, late, file, attachment = people[0]
    member = Member(canvas_entry(name, user, file, attachment=attachment, late=late, anonymous_id=anonymous), "# a")
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "s.zip").write_bytes(build([member]))
        (learner,) = read_class(Path(tmp) / "s.zip", EXERCISES, LIMIT)
        (Path(tmp) / "roster.csv").write_bytes(canvas_export([{"name": name, "id": user}], [(TITLE, 77, 10)]))
        export = lms.prepare("canvas", Path(tmp) / "roster.csv", [TRACK], [LIMIT])
    assert learner.sources[LIMIT].text == "# a"
    readers = {(r.kind, r.user) for r in zipped.canvas_readings(member.name)}
    if len(readers) > 1:
        # `anon_00000_1_0_.py` is also user 1's, named "anon_00000" (a name keeps its underscores): given to neither,
        # and both named for the teacher.
        assert learner.id == member.name
        assert set(learner.lms["canvas_candidates"].split()) == {user for _, user in readers}
    else:
        assert learner.id == f"anon_{anonymous}"
    matched = lms.match(learner_rows([learner]), export)
    assert not matched.rows
    why = matched.unmatched[0][1]
    assert (f"reads as {len(readers)} learners'" if len(readers) > 1 else "anonymity off") in why


@settings(max_examples=60, deadline=None)
@given(
    people=st.lists(st.tuples(NAME, IDS), min_size=1, max_size=6, unique_by=lambda t: t[1]),
    form=st.sampled_from(["folders", "legacy", "flat", "blind"]),
)
@example(people=[(".0", 1), ("0", 2)], form="folders")  # a name that starts with a dot: its folder is no hidden one
def test_a_moodle_download_gives_each_file_to_its_participant_in_every_form_moodle_writes(people, form):
    members = [
        Member(
            moodle_entry(name, number, f"{LIMIT}.py", legacy=form == "legacy", folders=form != "flat",
                         blind=form == "blind"),
            f"# participant {number}",
        )
        for name, number in people
    ]  # fmt: skip
    sheet = [{"participant": number, "name": name, "email": f"p{number}@example.org"} for name, number in people]
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "s.zip").write_bytes(build(members))
        read = read_class(Path(tmp) / "s.zip", EXERCISES)
        (Path(tmp) / "worksheet.csv").write_bytes(moodle_worksheet(sheet, 100))
        export = lms.prepare("moodle", Path(tmp) / "worksheet.csv", [TRACK], [LIMIT])
    assert len(read) == len(people)
    for learner in read:
        assert learner.sources[LIMIT].text == f"# participant {learner.lms['moodle']}"
    matched = lms.match(learner_rows(read), export)
    assert len(matched.rows) == len(people) and not matched.unmatched
    for row, got in matched.rows.items():
        assert export.roster.rows[row]["Identifier"] == f"Participant {got['lms']['moodle']}"
        page = handback.entry_name("moodle", got["lms"])
        assert moodle_import_owner(page) == (got["lms"]["moodle"], "loopcraft-feedback.html")


def test_a_name_made_to_read_as_another_learners_ids_never_spoils_their_hand_in(tmp_path):
    # Canvas joins only "_<digits>_" runs of a name, then removes what is not a word character: "Eve_ 12_ 500_" comes
    # out as "eve_12_500_", so Eve's file reads as Doe's (user 12) second file, which made his hand-in two files.
    members = [
        Member(canvas_entry("Doe, John", 12, "mine.py", attachment=300), "# learner 12"),
        Member(canvas_entry("Eve_ 12_ 500_", 13, "x.py", attachment=501), "# learner 13"),
    ]
    (tmp_path / "s.zip").write_bytes(build(members))
    read = read_class(tmp_path / "s.zip", EXERCISES, LIMIT)
    doe = next(learner for learner in read if learner.name == "doejohn")
    assert doe.sources[LIMIT].text == "# learner 12" and doe.error is None
    roster = [{"name": "Doe, John", "id": 12}, {"name": "Eve_ 12_ 500_", "id": 13}]
    (tmp_path / "roster.csv").write_bytes(canvas_export(roster, [(TITLE, 77, 10)]))
    matched = lms.match(learner_rows(read), lms.prepare("canvas", tmp_path / "roster.csv", [TRACK], [LIMIT]))
    assert [got["learner"] for got in matched.rows.values()] == [doe.id]
    ((eve, why),) = matched.unmatched  # it reads as user 12's (eve) or 13's (eve_12_500_): a row of its own
    assert eve["name"] == "eve_12_500__13_501_x.py" and "grade it by hand" in why
    assert eve["lms"] == {"canvas_candidates": "12 13"}  # whose it may be, for the teacher; no id to match by


def test_a_group_hand_in_is_listed_for_the_teacher_never_given_to_the_member_whose_id_it_bears(tmp_path):
    # A group assignment graded as a group: Canvas names the group's files after the group and one member's id
    # (Assignment#representatives: "the student's name will be changed to the group's name").
    (tmp_path / "s.zip").write_bytes(build([Member(canvas_entry("Team Rocket", 11, "a.py", attachment=5), "# team")]))
    read = read_class(tmp_path / "s.zip", EXERCISES, LIMIT)
    (tmp_path / "roster.csv").write_bytes(canvas_export([{"name": "Doe, John", "id": 11}], [(TITLE, 77, 10)]))
    matched = lms.match(learner_rows(read), lms.prepare("canvas", tmp_path / "roster.csv", [TRACK], [LIMIT]))
    assert not matched.rows
    ((team, why),) = matched.unmatched
    assert team["name"] == "teamrocket" and "a group's hand-in" in why


def test_a_moodle_team_folder_is_never_given_to_the_participant_whose_number_its_group_id_is(tmp_path):
    members = [
        Member(moodle_entry("John Doe", 5, f"{LIMIT}.py"), "# john"),
        Member(moodle_entry("Team A", 6, f"{LIMIT}.py"), "# team"),  # group 6; participant 6 is Ann
    ]
    (tmp_path / "s.zip").write_bytes(build(members))
    read = read_class(tmp_path / "s.zip", EXERCISES)
    sheet = [
        {"participant": 5, "name": "John Doe", "email": "j@x.org"},
        {"participant": 6, "name": "Ann Roe", "email": "a@x.org"},
    ]
    (tmp_path / "w.csv").write_bytes(moodle_worksheet(sheet, 100))
    matched = lms.match(learner_rows(read), lms.prepare("moodle", tmp_path / "w.csv", [TRACK], [LIMIT]))
    assert [got["name"] for got in matched.rows.values()] == ["John Doe"]
    ((team, why),) = matched.unmatched
    assert team["name"] == "Team A" and "a team's hand-in" in why
