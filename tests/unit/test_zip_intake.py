"""Zips in (loopcraft/classroom/zipped.py), proven by generation: zips in each layout with hostile entries among good
ones, each hazard its own learner's error and nothing of it ever read as a solution; damaged zips a clear error or a
learner's, never a traceback. Nothing here grades but the command-line runs at the end (in this process,
tests.helpers.run_grader), whose zips hold nothing to grade."""

from __future__ import annotations

import importlib.util
import io
import json
import re
import stat
import struct
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loopcraft.classroom import course_exercises, read_class, zipped
from loopcraft.classroom.intake import PROGRESS_BYTES, SOURCE_BYTES, read_folder
from loopcraft.classroom.names import name_from_bytes
from loopcraft.course.errors import LoopcraftError
from loopcraft.course.project import Project
from tests.helpers import ROOT, run_grader
from tests.zips import LIMIT, RIGHT, Member, build, canvas_name, deflated, moodle_folder, overlapping, zip_folder

# Through the build cache, as the class command loads them: parsing every YAML file anew costs a CPU-second.
EXERCISES = course_exercises(Project())
SLUGS = [ex.slug for ex in EXERCISES]
HAZARDS = [
    "link",
    "device",
    "climbs",
    "absolute",
    "flagged_not_utf8",
    "not_utf8",
    "twice",
    "lying_bomb",
    "ratio_bomb",
    "too_big",
    "encrypted",
    "not_deflate",
    "checksum",
    "other_local_name",
    "cut_short",
]
# The lying bomb's data: 30 MB deflated once (a tenth of a CPU-second), not once for every zip that holds one.
BOMB = deflated(b"#" * 30_000_000)


def read(tmp_path: Path, data: bytes, challenge: str | None = None, name: str = "class.zip"):
    path = tmp_path / name
    path.write_bytes(data)
    return {learner.id: learner for learner in read_class(path, EXERCISES, challenge)}


def hostile(kind: str, name: str, marker: str) -> list[Member]:
    """The entries of one hazard, named `name` (a path inside the learner's part of the zip)."""
    code = f"def run_agent(*args, **kwargs):\n    return {marker!r}\n"
    if kind == "link":
        return [Member(name, "/etc/passwd", mode=stat.S_IFLNK | 0o777)]
    if kind == "device":
        return [Member(name, code, mode=stat.S_IFCHR | 0o644)]
    if kind == "climbs":  # Moodle's and plain zips: through the learner's folder; Canvas's: in the file's name
        head, slash, tail = name.rpartition("/")
        prefix, _, file = name.rpartition("_")
        return [Member(f"{head}/../../{tail}" if slash else f"{prefix}_../../{file}", code)]
    if kind == "absolute":
        return [Member(f"/{name}", code)]
    if kind == "flagged_not_utf8":
        return [Member(name.encode()[:-3] + b"\xc3\x28.py", code, utf8_flag=True)]
    if kind == "not_utf8":
        return [Member(name.encode()[:-3] + b"\xe9.py", code, utf8_flag=False)]
    if kind == "twice":
        return [Member(name, code), Member(name, code)]
    if kind == "lying_bomb":
        return [Member(name, code, compressed=BOMB)]
    if kind == "ratio_bomb":
        return [Member(name, code + "#" * 150_000)]
    if kind == "too_big":
        return [Member(name, code + "#" * SOURCE_BYTES, deflate=False)]
    if kind == "encrypted":
        return [Member(name, code, encrypted=True)]
    if kind == "not_deflate":
        return [Member(name, code, compressed=b"BZh9" + code.encode())]
    if kind == "checksum":
        return [Member(name, code, crc=12345)]
    if kind == "other_local_name":
        return [Member(name, code, local_name=name.encode()[:-3] + b".txt")]
    if kind == "cut_short":
        return [Member(name, code, declared_size=len(code) + 10)]
    raise AssertionError(kind)


@st.composite
def classes(draw):
    """(layout, zip members, {learner key: {slug: ("text", code) | ("error", marker)}}, the hazards used)."""
    layout = draw(st.sampled_from(["canvas", "moodle", "plain"]))
    count = draw(st.integers(1, 4))
    members, expected, used = [], {}, []
    for i in range(count):
        # Any name (controls, escapes, formulas, accents), but for what a layout gives a meaning: "/", "\\", "_" in
        # an LMS's name, a leading "." (hidden) or "X:" (a drive); made distinct by the learner's number.
        given = draw(st.text(st.characters(blacklist_characters="/\\_", blacklist_categories=("Cs",)), max_size=8))
        given = f"{given.lstrip('.')}{i}" if not re.match(r"[A-Za-z]:", given) else f"x{given}{i}"
        key = str(500 + i) if layout != "plain" else name_from_bytes(given.encode())
        slugs = draw(st.lists(st.sampled_from(SLUGS[:4]), min_size=1, max_size=3, unique=True))
        expected[key] = {}
        for j, slug in enumerate(slugs):
            if layout == "canvas":
                name = canvas_name(f"name{i}", 500 + i, 9000 + 10 * i + j, f"{slug}.py")
            elif layout == "moodle":
                name = f"{moodle_folder(given, 500 + i)}/{slug}.py"
            else:
                name = f"{given}/{slug}.py"
            kind = draw(st.sampled_from([None, *HAZARDS]))
            marker = f"hostile {i} {j}"
            if kind is None:
                code = f"def run_agent(*args, **kwargs):\n    return {i * 10 + j}\n"
                members.append(Member(name, code))
                expected[key][slug] = ("text", code)
            else:
                used.append(kind)
                members.extend(hostile(kind, name, marker))
                # A hazard in the file's own name leaves the learner no file of the challenge: a note says it was
                # refused (or, at a plain zip's top, a row of its own does); any other is the challenge's error.
                renamed = kind in ("flagged_not_utf8", "not_utf8") or (kind == "climbs" and layout != "moodle")
                renamed = renamed or (kind == "absolute" and layout == "plain")
                expected[key][slug] = ("gone" if renamed else "error", marker)
    order = draw(st.permutations(range(len(members))))
    return layout, [members[k] for k in order], expected, used


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(classes())
def test_every_hazard_of_a_generated_zip_is_its_own_learners_error(tmp_path_factory, generated):
    layout, members, expected, _ = generated
    got = read(tmp_path_factory.mktemp("zip"), build(members))
    ids = list(got)
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    by_key = {}
    for learner in got.values():
        if layout == "plain":
            by_key[learner.id] = learner
        elif learner.lms:
            by_key[next(iter(learner.lms.values()))] = learner
    for key, slugs in expected.items():
        learner = by_key.get(key)
        if learner is None:  # every file of theirs was renamed by a hazard at the top: the rows are the entries'
            assert all(kind == "gone" for kind, _ in slugs.values()) and layout == "plain", (key, list(got))
            continue
        for slug, (kind, value) in slugs.items():
            source = learner.sources.get(slug)
            if kind == "text":
                assert source is not None and source.text == value and source.error is None, (key, slug, source)
            elif kind == "error":
                assert source is not None and source.text is None and source.error, (key, slug, source)
            else:
                assert source is None or source.text is None
    for learner in got.values():
        for source in learner.sources.values():
            assert source.text is None or "hostile" not in source.text, (learner.id, source.origin)
        if not learner.lms and layout != "plain":
            assert learner.error  # an entry that is no one's is a row of its own, with an error


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_damaged_zip_is_a_clear_error_or_its_learners_never_a_traceback(tmp_path_factory, data):
    members = [
        Member(canvas_name("doejohn", 11, 100, f"{LIMIT}.py"), RIGHT),
        Member(canvas_name("roeann", 12, 101, f"{LIMIT}.py"), RIGHT, deflate=False),
        Member(canvas_name("kimlee", 13, 102, "notes.txt"), "notes"),
    ]
    raw = bytearray(build(members))
    for _ in range(data.draw(st.integers(1, 8))):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(raw)))
    try:
        got = read(tmp_path_factory.mktemp("zip"), bytes(raw[:cut] if data.draw(st.booleans()) else raw))
    except LoopcraftError as exc:
        assert str(exc).startswith(str(tmp_path_factory.getbasetemp()))
        return
    for learner in got.values():
        for source in learner.sources.values():
            assert source.text in (None, RIGHT), (learner.id, source)  # damaged data never passes as a solution


def test_each_hazard_says_what_it_is(tmp_path):
    expected = {
        "link": "a link; only regular files are read",
        "device": "not a regular file (a device, a pipe or a socket)",
        "absolute": "an absolute path",
        "flagged_not_utf8": "its name is marked as UTF-8 and is not (byte 0xc3",
        "not_utf8": "its name is not UTF-8 (byte 0xe9",
        "twice": "the zip holds 2 entries of this name; none of them was read",
        "lying_bomb": "262,145 bytes, over the 262,144 bytes",  # the decompressor stopped one byte past the cap
        "ratio_bomb": "a zip bomb's guard",
        "too_big": f"bytes, over the {SOURCE_BYTES:,} bytes",
        "encrypted": "encrypted; hand it in without a password",
        "not_deflate": "damaged in the zip (Error -3 while decompressing data",
        "checksum": "its size or checksum is wrong",
        "other_local_name": "its name at its data differs from the zip's index",
        "cut_short": "its size or checksum is wrong",
        "climbs": "its path climbs out of the zip's folder (..)",
    }
    members = []
    for i, kind in enumerate(HAZARDS):
        members += hostile(kind, canvas_name(f"n{i}", 100 + i, 1, "solution.py"), f"hostile {i}")
    got = read(tmp_path, build(members), challenge=LIMIT)
    for i, kind in enumerate(HAZARDS):
        learner = next(learner for learner in got.values() if learner.lms.get("canvas") == str(100 + i))
        assert expected[kind] in (learner.sources[LIMIT].error or ""), (kind, learner.sources[LIMIT])


def test_an_unknown_compression_method_is_its_entrys_error(tmp_path):
    data = bytearray(build([Member(canvas_name("a", 1, 1, "s.py"), RIGHT, deflate=False)]))
    data[8:10] = (12).to_bytes(2, "little")  # bzip2, in the local header
    at = data.index(b"PK\x01\x02") + 10
    data[at : at + 2] = (12).to_bytes(2, "little")  # and in the index
    got = read(tmp_path, bytes(data), challenge=LIMIT)
    assert "compressed with method 12, which the grader does not read" in got["a_1"].sources[LIMIT].error


def test_the_whole_zip_may_hold_only_so_much(tmp_path, monkeypatch):
    monkeypatch.setattr(zipped, "TOTAL_BYTES", 2 * len(RIGHT) + 10)
    members = [Member(canvas_name(f"n{i}", i, 1, "s.py"), RIGHT) for i in range(1, 4)]
    got = read(tmp_path, build(members), challenge=LIMIT)
    assert [got[f"n{i}_{i}"].sources[LIMIT].text for i in (1, 2)] == [RIGHT, RIGHT]
    assert "the zip's files hold more than it may in all" in got["n3_3"].sources[LIMIT].error


def test_a_plain_zip_of_the_class_folder_reads_as_the_folder_does(tmp_path):
    progress = {"format": "loopcraft-progress", "version": 1, "exported": "2026-11-30T12:00:00.000Z"}
    progress["entries"] = {f"loopcraft:code:build-an-agent/{LIMIT}": RIGHT}
    files = {
        "ada/consecutive-error-limit.py": RIGHT,
        "ada/notes.txt": "mine",
        "ada/old/dispatch-registry.py": "deeper: not ada's dispatch-registry",
        "ada/.hidden.py": "hidden",
        "bob.json": json.dumps(progress),
        "cy/dispatch-registry.py": "x = 1\n",
        f"cy/{LIMIT}.py/inside.py": RIGHT,  # a folder named as a solution is not one, nor is what it holds
        "readme.md": "the teacher's",
    }
    folder = tmp_path / "class-of-2026"
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    # Zipped as a teacher zips a folder: the folder itself inside, and __MACOSX's litter beside it.
    members = [Member(f"class-of-2026/{name}", text) for name, text in files.items()]
    members += [Member("class-of-2026/", "", mode=stat.S_IFDIR | 0o755), Member("__MACOSX/._ada", "xattr")]
    from_zip = read(tmp_path, build(members))
    from_folder = {learner.id: learner for learner in read_folder(folder, EXERCISES)}
    assert list(from_zip) == list(from_folder) == ["ada", "bob", "cy"]
    for learner_id in from_zip:
        a, b = from_zip[learner_id], from_folder[learner_id]
        assert {s: x.text for s, x in a.sources.items()} == {s: x.text for s, x in b.sources.items()}, learner_id
        assert a.notes == b.notes and a.error == b.error
    assert from_zip["ada"].notes == ["left aside, not SLUG.py or a progress file: notes.txt, old"]
    assert "not a regular file" in from_zip["cy"].sources[LIMIT].error


def test_the_hostile_class_corpus_zipped_reads_as_its_folder_does_but_for_names_that_are_not_utf8(tmp_path):
    """tests/hostile_class/ (links, FIFOs, folders for files, oversized and broken files, colliding names...) built
    into a folder, then zipped as a zip tool would: the zip's learners are the folder's, each file read or refused
    alike. Two differences: the rule of zips, a name that is not UTF-8 is refused where a folder's is escaped; and a
    hard link, which a zip tool stores as a copy of its file (a copy handed in, for the similarity report to see)."""
    folder = tmp_path / "class"
    folder.mkdir()
    for path in sorted((ROOT / "tests" / "hostile_class").glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"hostile_class_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.build(folder, ROOT, LIMIT)
    exercises = [ex for ex in EXERCISES if ex.slug == LIMIT]
    from_folder = {learner.id: learner for learner in read_folder(folder, exercises)}
    from_zip = read(tmp_path, build(zip_folder(folder)))
    from_zip = {learner.id: learner for learner in read_class(tmp_path / "class.zip", exercises)}
    assert list(from_zip) == list(from_folder)
    not_utf8 = hard_links = 0
    for learner_id, a in from_zip.items():
        b = from_folder[learner_id]
        assert (a.error is None) == (b.error is None), (learner_id, a.error, b.error)
        assert set(a.sources) == set(b.sources), learner_id
        for slug, source in a.sources.items():
            if source.error and "UTF-8" in source.error and b.sources[slug].text is not None:
                not_utf8 += 1
                continue
            if b.sources[slug].error and "a hard link" in b.sources[slug].error and source.text is not None:
                hard_links += 1
                continue
            assert source.text == b.sources[slug].text, (learner_id, source.error, b.sources[slug].error)
    assert not_utf8 == 1  # tests/hostile_class/not_utf8.py's "caf\xe9"
    assert hard_links == 1  # tests/hostile_class/hard_link_to_reference.py


def test_challenge_takes_each_learners_one_python_file_whatever_its_name(tmp_path):
    folder = tmp_path / "class"
    for name, text in {
        "ada/my solution.py": RIGHT,
        "bob/a.py": "1",
        "bob/b.py": "2",
        f"cy/{LIMIT}.py": RIGHT,
        "cy/helper.py": "3",
        "dee/agent.py": RIGHT,  # of two, the one that defines the challenge's function is graded
        "dee/test_agent.py": "from agent import run_agent\nassert run_agent",
        "eve/one.py": RIGHT,
        "eve/two.py": RIGHT,  # both define it: which one is eve's answer is hers to say
    }.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    exercises = [ex for ex in EXERCISES if ex.slug == LIMIT]
    got = {learner.id: learner for learner in read_folder(folder, exercises, LIMIT)}
    assert got["ada"].sources[LIMIT].text == RIGHT
    assert (
        got["bob"].sources[LIMIT].error
        == "2 files could be the solution of consecutive-error-limit (a.py, b.py); hand in one, and none of them "
        "defines run_agent: nothing was graded"
    )
    assert got["cy"].sources[LIMIT].text == RIGHT  # named after the challenge: that one
    assert got["cy"].notes == [f"{LIMIT}: graded {LIMIT}.py (left aside: helper.py)"]
    assert got["dee"].sources[LIMIT].text == RIGHT
    assert got["dee"].notes == [
        f"{LIMIT}: graded agent.py, the one of 2 .py files that defines run_agent (left aside: test_agent.py)"
    ]
    assert got["eve"].sources[LIMIT].error.endswith("hand in one, and 2 of them define run_agent: nothing was graded")


def test_canvas_keeps_a_learners_latest_resubmission_and_moodle_a_participants_folder(tmp_path):
    canvas = read(
        tmp_path,
        build(
            [
                Member(canvas_name("doejohn", 11, 100, "solution.py"), "1"),
                Member(canvas_name("doejohn", 11, 101, "solution-2.py"), "3"),
                Member(canvas_name("doejohn", 11, 102, "solution-1.py"), "2"),
                Member(canvas_name("doejohn", 11, 103, "stage-4-loop.py"), "4"),  # a slug with a number: no version
            ]
        ),
    )
    john = canvas["doejohn_11"]
    assert john.sources["stage-4-loop"].text == "4"
    assert john.lms == {"canvas": "11", "canvas_prefix": "doejohn_11", "canvas_attachment": "100"}
    canvas_one = read(
        tmp_path,
        build([Member(canvas_name("d", 11, 100 + i, f"s{n}.py"), n) for i, n in enumerate(["", "-1", "-2"])]),
        LIMIT,
        "c1.zip",
    )
    assert canvas_one["d_11"].sources[LIMIT].text == "-2"
    assert canvas_one["d_11"].notes == [
        f"the solution of {LIMIT}: kept s-2.py, the latest of 3 (left aside: s.py, s-1.py)"
    ]
    moodle = read(
        tmp_path,
        build(
            [
                Member(f"{moodle_folder('Ann Roe', 7)}/{LIMIT}.py", "a"),
                Member(f"Ann Roe_7_assignsubmission_file_{SLUGS[0]}.py", "b"),  # downloaded without folders
                Member(f"Ann Roe_7_assignfeedback_file_/{LIMIT}.py", "the teacher's"),  # feedback: not hers
                Member(f"{moodle_folder('Bob Ray', 8)}/a/{LIMIT}.py", "c"),
                Member(f"{moodle_folder('Bob Ray', 8)}/b/{LIMIT}.py", "d"),
            ]
        ),
        name="m.zip",
    )
    assert moodle["Ann Roe_7"].sources[LIMIT].text == "a" and moodle["Ann Roe_7"].sources[SLUGS[0]].text == "b"
    assert moodle["Ann Roe_7"].notes == [
        f"left aside, not SLUG.py or a progress file: {LIMIT}.py (assignfeedback_file)"
    ]
    assert moodle["Bob Ray_8"].sources[LIMIT].error.startswith(f"2 files named {LIMIT}.py")


def test_a_progress_file_beside_python_files_gives_only_what_they_do_not(tmp_path):
    progress = {"format": "loopcraft-progress", "version": 1, "exported": "2026-11-30T12:00:00.000Z"}
    progress["entries"] = {f"loopcraft:code:build-an-agent/{slug}": f"# {slug}" for slug in SLUGS[:2]}
    got = read(
        tmp_path,
        build(
            [
                Member(f"ada/{SLUGS[0]}.py", "mine"),
                Member("ada/progress.json", json.dumps(progress)),
                Member("bob/progress.json", "{not json"),
                Member(f"bob/{SLUGS[0]}.py", "bob's"),
                Member("cy/progress.json", "{not json"),
                Member("dee.json", "x" * (PROGRESS_BYTES + 1), deflate=False),
            ]
        ),
    )
    assert {s: x.text for s, x in got["ada"].sources.items()} == {SLUGS[0]: "mine", SLUGS[1]: f"# {SLUGS[1]}"}
    assert got["ada"].notes == [f"{SLUGS[0]}: graded class.zip: ada/{SLUGS[0]}.py, not progress.json's code"]
    assert got["bob"].sources[SLUGS[0]].text == "bob's" and got["bob"].notes[0].startswith("left aside: class.zip: bob")
    assert "not a progress file: not JSON" in got["cy"].error
    assert f"over the {PROGRESS_BYTES:,} bytes" in got["dee"].error


def test_what_is_not_a_zip_stops_the_run_with_a_clear_message(tmp_path):
    for data, message in [
        (b"", "not a zip file"),
        (b"hello" * 100, "not a zip file"),
        (build([Member("a/b.py", "x")])[:-10], "not a zip file"),
    ]:
        with pytest.raises(LoopcraftError, match=message):
            read(tmp_path, data)
    crowded = bytearray(build([Member("a/b.py", "x")], zip64=True))
    struct.pack_into("<QQ", crowded, crowded.index(b"PK\x06\x06") + 24, 200_000, 200_000)
    with pytest.raises(LoopcraftError, match="200,000 entries, over the 100,000 a class zip may have"):
        read(tmp_path, bytes(crowded))
    prefixed = read(tmp_path, build([Member(f"ada/{LIMIT}.py", RIGHT)], prefix=b"#!/bin/sh\nexit 0\n" * 10))
    assert prefixed["ada"].sources[LIMIT].text == RIGHT  # a self-extractor's stub before the archive


def test_an_empty_zip_stops_the_run_with_a_clear_message(tmp_path):
    """An LMS's download of an assignment nobody has handed in yet: found by the damaged-zip test above."""
    empty = io.BytesIO()
    zipfile.ZipFile(empty, "w").close()
    with pytest.raises(LoopcraftError, match="class.zip: no learner's files in it"):
        read(tmp_path, empty.getvalue())


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(classes())
def test_the_class_command_on_a_hostile_zip_ends_with_a_row_per_learner_and_no_traceback(
    tmp_path_factory, runners, generated
):
    layout, members, expected, _ = generated
    # Only what needs no runner: the good entries are dropped (their grading is the other tests' business).
    members = [
        m
        for m in members
        if "hostile" in m.content.decode("utf-8", "replace") or m.compressed or m.mode != stat.S_IFREG | 0o644
    ]
    if not members:
        return
    tmp = tmp_path_factory.mktemp("cli")
    (tmp / "class.zip").write_bytes(build(members))
    proc = run_grader(runners, "class", tmp / "class.zip", "--out", tmp / "out")
    assert "Traceback" not in proc.stderr and "grading 0 with" in proc.stderr
    rows = json.loads((tmp / "out" / "gradebook.json").read_text())["learners"]
    # 3: everything written, but a hand-in refused whole or a stray entry is listed for the teacher.
    # Exit 3 exactly when someone needs the teacher: a hand-in not taken, or one nothing of which could be run.
    needs = any(r["error"] or any(c["status"] == "unread" for c in r["challenges"].values()) for r in rows)
    assert proc.returncode == (3 if needs else 0), proc.stderr
    statuses = {c["status"] for r in rows for c in r["challenges"].values()}
    assert statuses <= {"unread", "missing"}  # nothing of a hostile entry ran
    assert len(rows) == len({r["learner"] for r in rows}) >= 1


class _Unseekable:
    """A stream `zipfile` cannot seek in: it writes each entry's sizes after its data (a data descriptor)."""

    def __init__(self):
        self.data = bytearray()

    def write(self, chunk):
        self.data += chunk
        return len(chunk)

    def flush(self):
        pass


def test_zips_as_zipfile_writes_them_read_alike_and_zip64_too(tmp_path):
    files = {f"ada/{LIMIT}.py": RIGHT, "bob/notes.txt": "n", f"bob/{SLUGS[0]}.py": "# é\n"}
    made = {}
    for how in ("seekable", "streamed"):  # streamed: each entry's sizes after its data, in a data descriptor
        stream = io.BytesIO() if how == "seekable" else _Unseekable()
        with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as z:
            for name, text in files.items():
                z.writestr(name, text)
        made[how] = bytes(stream.getvalue() if how == "seekable" else stream.data)
    assert b"PK\x07\x08" in made["streamed"]
    members = [Member(name, text) for name, text in files.items()]
    made["zip64"] = build(members, zip64=True)
    made["zip64 after a stub"] = build(members, prefix=b"#!/bin/sh\n" * 7, zip64=True)
    with zipfile.ZipFile(io.BytesIO(made["zip64"])) as z:  # what the tests wrote is a zip to zipfile too
        assert z.read(f"ada/{LIMIT}.py").decode() == RIGHT
    for how, data in made.items():
        got = read(tmp_path, data, name=f"{how}.zip")
        assert got["ada"].sources[LIMIT].text == RIGHT, how
        assert got["bob"].sources[SLUGS[0]].text == "# é\n", how


def test_an_entry_of_no_learner_never_takes_a_learners_row(tmp_path):
    # A stray entry is a row of its own: named as a learner's row is ("doejohn_11", the name and the user id), it
    # made both rows errors, the learner's too, as two hand-ins whose names read the same are.
    members = [
        Member(canvas_name("doejohn", 11, 100, f"{LIMIT}.py"), RIGHT),
        Member(canvas_name("roeann", 12, 101, f"{LIMIT}.py"), RIGHT),
        Member(canvas_name("smithjo", 13, 102, f"{LIMIT}.py"), RIGHT),
        Member("doejohn_11", "x"),
        Member("doejohn_11 #1", "x"),
    ]
    learners = read(tmp_path, build(members))
    assert learners["doejohn_11"].error is None and learners["doejohn_11"].sources[LIMIT].text == RIGHT
    strays = {id_: learner for id_, learner in learners.items() if learner.error is not None}
    assert sorted(strays) == ["doejohn_11 #1", "doejohn_11 #1 #1"]
    assert all("not named as Canvas names a learner's file" in learner.error for learner in strays.values())


def test_entries_whose_data_overlaps_are_refused_and_spend_nothing_of_the_zips_budget(tmp_path):
    # 260 stored entries, each running over all the later ones: 270 KB read as 34 MB, more than the zip's budget
    # (100 times its size), so the learners after them were refused. An entry running into the next is damaged.
    crafted = [f"a{i:03d}/{LIMIT}.py" for i in range(260)]
    honest = [Member(f"z{i}/{LIMIT}.py", RIGHT, deflate=False) for i in range(3)]
    learners = read(tmp_path, overlapping(crafted, b"# pad\n" * 150, honest))
    for i in range(259):
        assert "overlaps another entry's" in learners[f"a{i:03d}"].sources[LIMIT].error
    assert learners["a259"].sources[LIMIT].text == "# pad\n" * 150  # the last runs into no other
    assert [learners[f"z{i}"].sources[LIMIT].text for i in range(3)] == [RIGHT] * 3
