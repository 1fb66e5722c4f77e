"""Authoring: `check` points each problem at a useful line and shows which cases catch which wrong solutions;
`new` scaffolds a challenge that passes `check`; `record` fills in expected values; `serve` rebuilds and reloads.

Tests that run solutions start Pyodide under Node (seconds each), so each of them starts it once or twice at most.
The loader's own mistakes (schema, YAML syntax, missing files) are in tests/unit/test_exercises_loader.py.
"""

from __future__ import annotations

import contextlib
import io
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from grader.canonical import canonical_json, from_tagged
from loopcraft.authoring.verify import Strength
from loopcraft.commands import main
from loopcraft.commands.options import NO_VERIFY_WARNING
from loopcraft.course.errors import Problem
from loopcraft.course.load import find_exercise
from loopcraft.course.project import Project
from loopcraft.site.sitewriter import MARKER
from loopcraft.site.watch import DevServer
from tests.helpers import FIXTURES, make_project

VALID = FIXTURES / "valid/exercises"
WEAK = FIXTURES / "authoring/weak/exercises"
ADD_YAML = "exercises/basics/add/exercise.yaml"
NEW_YAML = "exercises/basics/sum-evens/exercise.yaml"
RELOAD_MS = 15_000  # a change is seen within ~50 ms, then a rebuild takes about a second on a busy machine


@pytest.fixture
def course(tmp_path: Path) -> Path:
    return make_project(tmp_path, VALID)


def test_check_points_at_each_mistake_and_shows_the_case_strength(tmp_path: Path, author_cli):
    project = make_project(tmp_path, WEAK)
    code, out, err = author_cli("check", "--root", str(project))
    assert code == 1
    # The course's check shows the tables that explain an error only: a wrong solution that passes every case,
    # or one that does not load.
    assert (
        out
        == """\
mistakes/survivor: which case catches which wrong solution (x)
  case                  1  2
  positive              .  .  catches none
  zero                  .  .  catches none
  negative (hidden)     x  .
  minus four (private)  x  .
  1 wrong/forgets_negatives.py  caught by 2 cases
  2 wrong/misses_minus_one.py   SURVIVES every case

mistakes/unloadable: which case catches which wrong solution (x)
  case           1
  one            ?
  two (private)  ?
  1 wrong/typo.py  does not load

mistakes/survivor: mutation score 40% (2 of 5 killed; bar 90%; 7 generated scenarios)
mistakes/no-wrong: mutation score 100% (1 of 1 killed; bar 90%)
"""
    )
    folder = "exercises/mistakes"
    assert err.splitlines() == [
        f"{folder}/no-wrong/exercise.yaml:1: note: no scenario generator (scenarios.py), so no generated scenario "
        "looks for the mistakes the cases miss; see docs/authoring.md",
        f"{folder}/no-wrong/exercise.yaml:1: note: no wrong solutions, so nothing shows that the cases catch a "
        "mistake; add a plausible one under wrong/ and list it in wrong_solutions",
        f"{folder}/no-wrong/exercise.yaml:11: note: no private case, so the instructors' grader checks nothing a "
        "learner cannot see and hard-code; add one (`private: true`) at least as strong as the hidden ones",
        # A reference solution failing a case: the case in exercise.yaml.
        f"{folder}/reference-fails/exercise.yaml:18: reference solution fails case 'three': expected 7, got 6",
        f"{folder}/reference-fails/exercise.yaml:21: reference solution fails case 'nothing': TypeError: "
        "unsupported operand type(s) for *: 'int' and 'NoneType' (solution.py line 2)",
        # A wrong solution that survives: its entry in wrong_solutions.
        f"{folder}/survivor/exercise.yaml:14: wrong solution wrong/misses_minus_one.py passes every case; "
        "add a case that catches it (`python build.py strengthen mistakes/survivor` proposes one): Leaves -1 "
        "negative.",
        # A mutation score below the track's bar: at `cases:`, and each surviving mutant at its line; one that a
        # generated scenario tells apart, with that scenario.
        f"{folder}/survivor/exercise.yaml:16: mutation score 40% is below the track's bar of 90%: add cases that "
        "catch the survivors in solution.py; with 5 mutants, one survivor alone puts the score below the bar "
        "(from 10 mutants on, one may survive)"
        "; a survivor that no input can tell from the reference (an equivalent mutant) is marked in this file, "
        "under `equivalent_mutants:`, with its `line`, its `change` exactly as shown and the `reason` "
        "(docs/authoring.md)",
        f"{folder}/survivor/exercise.yaml:16: 1 mutant(s) pass every case but not the generated scenarios: "
        "`python build.py strengthen mistakes/survivor` proposes cases that catch them",
        f"{folder}/survivor/exercise.yaml:17: note: 2 cases catch none of the wrong solutions: this one, and the "
        "one at line 20",
        f"{folder}/survivor/solution.py:2: `0` -> `-1` survives every case, but it differs on {{'x': -1}}: "
        "reference 1, mutant -1",
        f"{folder}/survivor/solution.py:2: `x < 0` -> `x <= 0` survives every case",
        f"{folder}/survivor/solution.py:2: `0` -> `1` survives every case",
        # A solution that does not load: the line of the error in that file.
        f"{folder}/unloadable/solution.py:2: reference solution cannot be loaded: SyntaxError: expected ':'",
        f"{folder}/unloadable/wrong/typo.py:3: wrong solution cannot be loaded, so it proves nothing: "
        "SyntaxError: invalid syntax",
        "10 problem(s); nothing was written",
    ]

    # One challenge: its table whatever it shows, and only its own problems.
    code, out, err = author_cli("check", "--root", str(project), "reference-fails")
    assert code == 1
    assert out.startswith("mistakes/reference-fails: which case catches which wrong solution (x)\n")
    assert [line for line in err.splitlines() if "reference-fails" not in line] == ["2 problem(s); nothing was written"]


def test_check_points_at_entry_in_exercise_yaml_when_the_solution_defines_no_such_function(course: Path, author_cli):
    yaml = course / ADD_YAML
    yaml.write_text(yaml.read_text().replace("entry: add\n", "entry: addd\n"))
    line = yaml.read_text().splitlines().index("entry: addd") + 1

    code, _, err = author_cli("check", "--root", str(course), "basics/add")

    # One problem, at the entry, not at line 1 of solution.py and of every wrong solution that fails to load alike.
    assert code == 1
    assert [line for line in err.splitlines() if ": note: " not in line] == [
        f"{ADD_YAML}:{line}: entry: solution.py defines no function addd() (did you mean 'add'?)",
        "1 problem(s); nothing was written",
    ]


class Terminal(io.StringIO):
    """stderr as a terminal would be: tqdm shows its bars only there."""

    def isatty(self) -> bool:
        return True


def test_build_shows_progress_on_a_terminal_and_leaves_the_notes_to_check(course: Path, author_runners, author_cli):
    out, stdout, stderr = course / "site", io.StringIO(), Terminal()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = main(["build", "--root", str(course), "--out", str(out)], runners=author_runners)

    assert code == 0, stderr.getvalue()
    built = f"Built {out}: 1 track(s), 2 challenge(s); 5 note(s) for authors, which `python build.py check` shows\n"
    assert stdout.getvalue() == built
    bars = stderr.getvalue()
    assert "\rverifying solutions:   0%|          | 0/2 [" in bars
    assert "\rrunning mutants:   0%|          | 0/6 [" in bars
    assert ": note: " not in bars

    # Not a terminal (a log, a pipe): no bar; and the notes are `check`'s.
    assert author_cli("build", "--root", str(course), "--out", str(out)) == (0, built, "")
    code, _, err = author_cli("check", "--root", str(course))
    assert (code, len([line for line in err.splitlines() if ": note: " in line])) == (0, 5)


def test_a_failed_verification_leaves_the_site_untouched(course: Path, author_cli, monkeypatch: pytest.MonkeyPatch):
    out = course / "site"
    assert author_cli("build", "--root", str(course), "--out", str(out), "--no-verify")[0] == 0
    (out / "marker.txt").write_text("old site")
    problem = Problem(Path(ADD_YAML), 22, "reference solution fails case 'small numbers': expected 3, got 4")
    # Stands in for Pyodide: what matters here is what the build does with the verdict.
    monkeypatch.setattr(
        "loopcraft.authoring.verify.verify",
        lambda root, exercises, cache=None, runner=None: [Strength(exercises[0], [], [problem])],
    )

    code, _, err = author_cli("build", "--root", str(course), "--out", str(out))

    notes = [line for line in err.splitlines() if ": note: " in line]
    assert (code, [line for line in err.splitlines() if line not in notes]) == (
        1,
        [str(problem), "1 problem(s); nothing was written"],
    )
    assert (out / "marker.txt").read_text() == "old site"
    # No staging dir left (the build cache, .cache/, is meant to stay).
    assert sorted(p.name for p in course.iterdir() if p.name.startswith(".") and p.name != ".cache") == []


def test_new_then_record_then_check(course: Path, author_cli):
    root = str(course)
    code, out, _ = author_cli("new", "--root", root, "basics/sum-evens")
    assert (code, out.splitlines()) == (
        0,
        [
            f"created {NEW_YAML}",
            "created exercises/basics/sum-evens/starter.py",
            "created exercises/basics/sum-evens/solution.py",
            "created exercises/basics/sum-evens/wrong/adds_odd_numbers.py",
            "created exercises/basics/sum-evens/sandbox.py",
            "created exercises/basics/sum-evens/scenarios.py",
            "listed sum-evens in exercises/basics/track.yaml",
            "Next: edit these files, then run `python build.py check` (`python build.py serve` shows the page as you "
            "edit).",
        ],
    )
    assert (course / "exercises/basics/track.yaml").read_text().endswith("  - add\n  - double\n  - sum-evens\n")
    assert (
        (course / NEW_YAML)
        .read_text()
        .startswith("# yaml-language-server: $schema=../../../schemas/exercise.schema.json\n")
    )
    assert author_cli("check", "--root", root, "--no-verify")[0] == 0

    # The author adds two cases that expect nothing yet; on one of them the reference solution raises.
    yaml = course / NEW_YAML
    yaml.write_text(
        yaml.read_text()
        + """\
  # One even number alone (the private case's 0 is no other case's value).
  - name: one even number
    args: {numbers: [8]}
  # The reference solution raises on this one.
  - name: mixed types
    args:
      numbers: [2, "four"]
    hidden: true  # a secret
"""
    )
    code, _, err = author_cli("check", "--root", root, "--no-verify")
    hint = (
        "no expected value, `raises` or `stdout`; run `python build.py record basics/sum-evens` to fill it in from "
        "the reference solution"
    )
    assert (code, err.splitlines()[1:]) == (
        1,
        [
            f"{NEW_YAML}:62: cases[3]: {hint}",
            f"{NEW_YAML}:65: cases[4]: {hint}",
            "2 problem(s); nothing was written",
        ],
    )

    # What the reference returns becomes `expected`, what it raises `raises`; the rest of the file stays as it was.
    before = yaml.read_text()
    code, out, _ = author_cli("record", "--root", root, "basics/sum-evens")
    message = "not all arguments converted during string formatting"
    assert (code, out.splitlines()) == (
        0,
        [
            f"{NEW_YAML}:62: case 'one even number': expected 8",
            f"{NEW_YAML}:66: case 'mixed types': raises TypeError: {message}",
            "Recorded 2 expected value(s) from the reference solution: review them, then run `python build.py check`.",
        ],
    )
    assert yaml.read_text() == before.replace(
        "    args: {numbers: [8]}\n", "    args: {numbers: [8]}\n    expected: 8\n"
    ).replace(
        '      numbers: [2, "four"]\n',
        f'      numbers: [2, "four"]\n    raises:\n      type: TypeError\n      message: {message}\n',
    )

    code, out, err = author_cli("check", "--root", root)
    assert code == 0, err
    assert (
        out
        == """\
basics/add: mutation score 100% (2 of 2 killed; bar 90%)
basics/double: mutation score 100% (4 of 4 killed; bar 90%)
basics/sum-evens: mutation score 100% (7 of 7 killed; bar 90%; 200 generated scenarios)

OK: 1 track(s), 3 challenge(s), all verified
"""
    )
    assert [line for line in err.splitlines() if "sum-evens" in line] == [
        f"{NEW_YAML}:62: note: case 'one even number' catches none of the wrong solutions"
    ]

    code, out, err = author_cli("check", "--root", root, "sum-evens")
    assert code == 0, err
    assert (
        out
        == """\
basics/sum-evens: which case catches which wrong solution (x)
  case                               1
  a few numbers                      x
  negative and odd numbers (hidden)  x
  odd numbers only (private)         x
  one even number                    .  catches none
  mixed types (hidden)               x
  1 wrong/adds_odd_numbers.py  caught by 4 cases

basics/sum-evens: mutation score 100% (7 of 7 killed; bar 90%; 200 generated scenarios) (cached)

OK: basics/sum-evens, all verified
"""
    )


def test_new_lesson_passes_check_of_it_alone(course: Path, author_cli):
    root = str(course)
    code, out, _ = author_cli("new", "--root", root, "--lesson", "basics/first-steps")
    assert (code, out.splitlines()[:3]) == (
        0,
        [
            "created exercises/basics/first-steps/lesson.yaml",
            "created exercises/basics/first-steps/lesson.md",
            "listed first-steps in exercises/basics/track.yaml",
        ],
    )
    lesson = course / "exercises/basics/first-steps"
    assert (
        (lesson / "lesson.yaml")
        .read_text()
        .startswith("# yaml-language-server: $schema=../../../schemas/lesson.schema.json\n")
    )
    # One lesson, named by a file in its folder: its blocks and snippets run in Pyodide; no challenge is verified.
    assert author_cli("check", "--root", root, str(lesson / "lesson.md")) == (
        0,
        "OK: basics/first-steps, all verified\n",
        "",
    )
    assert author_cli("check", "--root", root, "first-step", "--no-verify") == (
        1,
        "",
        NO_VERIFY_WARNING + "\nerror: no challenge or lesson 'first-step' (did you mean 'first-steps'?)\n",
    )


@pytest.mark.parametrize(
    ("kind", "entry", "kind_of_entry"), [("class", "Vector", "class"), ("program", "main", "function")]
)
def test_new_writes_a_class_or_a_program_that_passes_check_as_written(
    course: Path, author_cli, kind: str, entry: str, kind_of_entry: str
):
    root = str(course)
    assert author_cli("new", "--root", root, "--kind", kind, "basics/vector")[0] == 0
    ex = find_exercise(course, "basics/vector")
    assert (ex.entry, ex.entry_kind) == (entry, kind_of_entry)
    assert all(c.call is not None for c in ex.cases)  # cases by call (and setup, stdin)
    code, out, err = author_cli("check", "--root", root, "basics/vector")
    assert code == 0, err
    assert out.endswith("OK: basics/vector, all verified\n")


def test_record_writes_a_set_as_yaml_s_set_and_check_reads_it_back_as_the_same_value(course: Path, author_cli):
    add = course / "exercises" / "basics" / "add"
    (add / "solution.py").write_text(
        "def add(a, b):\n    return {tuple(a), tuple(b), a[0]} if isinstance(a, list) else plus(a, b)\n"
    )
    with (add / "exercise.yaml").open("a") as f:
        f.write("  - name: a set of pairs and a number\n    args: {a: [1, 2], b: [3]}\n")
    code, out, err = author_cli("record", "--root", str(course), "add")
    assert code == 0, err
    assert "case 'a set of pairs and a number': expected {1, (1, 2), (3,)}" in out
    assert "    expected: !!set {1: null, [1, 2]: null, [3]: null}\n" in (add / "exercise.yaml").read_text()
    recorded = find_exercise(course, "add").cases[-1]
    assert canonical_json(from_tagged(recorded.expected)) == canonical_json({1, (1, 2), (3,)})


def test_record_with_nothing_to_record(course: Path, author_cli):
    assert author_cli("record", "--root", str(course), "add") == (
        0,
        f"Nothing to record: every case in {ADD_YAML} has an expected value.\n",
        "",
    )


def test_new_appends_to_the_last_part_and_keeps_comments(tmp_path: Path, author_cli):
    shutil.copytree(FIXTURES / "authoring/parts/exercises", tmp_path / "exercises")
    assert author_cli("new", "--root", str(tmp_path), "course/five")[0] == 0
    assert (
        (tmp_path / "exercises/course/track.yaml").read_text()
        == """\
# yaml-language-server: $schema=../../../../../../schemas/track.schema.json
title: Course
summary: A track in parts, with planned challenges in comments.
parts:
  - title: First steps
    challenges:
      - one  # the easiest
  - title: Further
    challenges:
      - two
      - five
      # - three (planned)
  # - title: Later
  #   challenges:
  #     - four
"""
    )


def test_new_makes_a_track_that_the_index_lists(course: Path, author_cli):
    code, out, _ = author_cli("new", "--root", str(course), "loops/first-loop")
    assert code == 0 and out.startswith("created exercises/loops/track.yaml\n")
    track = (course / "exercises/loops/track.yaml").read_text()
    assert track.startswith("# yaml-language-server: $schema=../../schemas/track.schema.json\n")
    assert "title: Loops\n" in track and track.endswith("challenges:\n  - first-loop\n")
    out_dir = course / "site"
    assert author_cli("build", "--root", str(course), "--out", str(out_dir), "--no-verify")[0] == 0
    index = (out_dir / "index.html").read_text()
    assert 'href="basics/add/"' in index and 'href="loops/first-loop/"' in index


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "sum-evens",
            "error: expected TRACK/SLUG, two folder names of lowercase letters, digits and hyphens "
            "(they become URLs), e.g. build-an-agent/retry-policy; got 'sum-evens'",
        ),
        (
            "basics/Sum_Evens",
            "error: expected TRACK/SLUG, two folder names of lowercase letters, digits and hyphens "
            "(they become URLs), e.g. build-an-agent/retry-policy; got 'basics/Sum_Evens'",
        ),
        ("basics/add", "error: exercises/basics/add already exists"),
    ],
)
def test_new_refuses_a_bad_or_taken_name(course: Path, author_cli, name: str, message: str):
    before = (course / "exercises/basics/track.yaml").read_text()
    assert author_cli("new", "--root", str(course), name) == (1, "", message + "\n")
    assert (course / "exercises/basics/track.yaml").read_text() == before


def test_a_yaml_file_without_its_schema_line_is_a_note(course: Path, author_cli):
    yaml = course / ADD_YAML
    yaml.write_text(yaml.read_text().split("\n", 1)[1])
    code, out, err = author_cli("check", "--root", str(course), "--no-verify")
    assert (code, out) == (0, "OK: 1 track(s), 2 challenge(s)\n")
    assert err.splitlines()[1:] == [
        f"{ADD_YAML}:1: note: add `# yaml-language-server: $schema=../../../schemas/exercise.schema.json` as the "
        "first line, so that editors check this file as you type",
    ]


def test_dev_server_rebuilds_reloads_and_shows_build_errors(course: Path, page: Page):
    yaml = course / ADD_YAML
    good = yaml.read_text()
    out = course / "site"
    with DevServer(Project(course), out, "127.0.0.1", 0, isolation=True, verify=False, quiet=True) as dev:
        host, port = dev.server.server_address[:2]
        page.goto(f"http://{host}:{port}/basics/add/")
        heading = page.locator("h1")
        expect(heading).to_have_text("Add two numbers")
        # Only a page the browser navigates to gets the live script: the service worker, caching the site, asks for
        # each page with fetch() and must get the bytes the build hashed.
        assert page.locator('script[src="/__loopcraft/live.js"]').count() == 1
        fetched = page.evaluate("fetch('/basics/add/').then((response) => response.text())")
        assert "__loopcraft" not in fetched and fetched == (out / "basics/add/index.html").read_text()

        page.evaluate("window.notReloaded = true")
        yaml.write_text(good.replace("title: Add two numbers", "title: Add two numbers, live"))
        expect(heading).to_have_text("Add two numbers, live", timeout=RELOAD_MS)
        assert page.evaluate("window.notReloaded") is None  # a new page, not a patched one

        yaml.write_text(good.replace("minutes: 2", "minutes: two"))
        overlay = page.locator("#loopcraft-build-errors")
        expect(overlay).to_contain_text(
            f'{ADD_YAML}:5: minutes: expected an integer, got a string ("two")', timeout=RELOAD_MS
        )
        expect(heading).to_have_text("Add two numbers, live")  # the last good site is still served
        assert "Add two numbers, live" in (out / "basics/add/index.html").read_text()

        yaml.write_text(good)
        expect(heading).to_have_text("Add two numbers", timeout=RELOAD_MS)
        expect(overlay).to_have_count(0)
    # The live-reload script is added by the server as it serves a page, never written into the site.
    assert not [p for p in out.rglob("*.html") if "__loopcraft" in p.read_text()]
    assert (out / MARKER).is_file()
