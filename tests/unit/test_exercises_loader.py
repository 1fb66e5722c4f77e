"""loopcraft.course.load and loopcraft.course.yamldoc: loading the fixture course, every problem reported as `path:line: message`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from loopcraft.course.course import MISSING
from loopcraft.course.errors import ExerciseError, LoopcraftError
from loopcraft.course.load import find_exercise, load_course
from tests.helpers import FIXTURES

ADD_YAML = "exercises/basics/add/exercise.yaml"
NO_EXPECTED = (
    "no expected value, `raises` or `stdout`; run `python build.py record basics/add` to fill it in from the "
    "reference solution"
)


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """A writable copy of the valid fixture course."""
    shutil.copytree(FIXTURES / "valid", tmp_path / "course")
    return tmp_path / "course"


def problems(root: Path) -> list[str]:
    with pytest.raises(ExerciseError) as caught:
        load_course(root)
    return [str(p) for p in caught.value.problems]


def edit(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text()
    assert old in text, f"{old!r} not in {relative}"
    path.write_text(text.replace(old, new, 1))


def test_valid_course_loads():
    (track,) = load_course(FIXTURES / "valid")
    assert (track.slug, track.title) == ("basics", "Basics")
    add, double = track.exercises
    assert [add.slug, double.slug] == ["add", "double"]  # track.yaml order
    assert add.track == "basics" and add.entry == "add" and add.minutes == 2
    assert add.time_limit_seconds == 2.0
    assert add.sandbox_path.name == "helpers.py" and "def plus" in add.sandbox_source
    assert add.solution_source.startswith("def add")
    assert [(w.path.name, w.mistake) for w in add.wrong_solutions] == [("subtract.py", "subtracts instead of adding")]
    assert [(c.name, c.args, c.expected, c.hidden, c.line) for c in add.cases] == [
        ("small numbers", {"a": 1, "b": 2}, 3, False, 22),
        ("text stays text", {"a": "<b>", "b": "&"}, "<b>&", False, 25),
        ("negative", {"a": -5, "b": 2}, -3, True, 30),
    ]
    # Values are plain Python, not ruamel's subclasses, so they serialise and compare like JSON.
    assert type(add.cases[0].args) is dict and type(add.task) is str
    # Defaults of the optional fields.
    assert (double.time_limit_seconds, double.constraints, double.wrong_solutions) == (3.0, [], [])
    assert double.cases[0].hidden is False


def test_yaml_syntax_error_has_line_and_column(course: Path):
    shutil.copy(FIXTURES / "broken/syntax_error.yaml", course / ADD_YAML)
    assert problems(course) == [
        f"{ADD_YAML}:6: YAML syntax error at column 8: mapping values are not allowed here",
    ]


def test_every_problem_is_reported_at_once(course: Path):
    shutil.copy(FIXTURES / "broken/many_errors.yaml", course / ADD_YAML)
    assert problems(course) == [
        f"{ADD_YAML}:1: missing required field 'signature'",
        f'{ADD_YAML}:4: difficulty: must be one of easy, medium, hard; got "tricky"',
        f'{ADD_YAML}:5: minutes: expected an integer, got a string ("ten")',
        f"{ADD_YAML}:7: unknown key 'signatur' (did you mean 'signature'?)",
        f"{ADD_YAML}:8: sandbox file not found: exercises/basics/missing_helpers.py",
        f"{ADD_YAML}:13: wrong solution not found: exercises/basics/add/wrong/nowhere.py",
        f"{ADD_YAML}:19: duplicate case name 'small' (first used at line 16)",
        f"{ADD_YAML}:20: cases[1].args: key 1 is an integer; JSON keys are strings, so quote it",
        f"{ADD_YAML}:20: cases[1].args: key '1' is not a Python identifier",
        f"{ADD_YAML}:21: cases[1].expected: 2024-01-01 is a YAML timestamp, not JSON; quote it to make it a string",
        f"{ADD_YAML}:23: cases[2].args.a: nan is not a JSON number (JSON has no NaN or infinity)",
        f'{ADD_YAML}:25: cases[2].hidden: expected true or false, got a string ("yes")',
        f"{ADD_YAML}:26: cases[3]: {NO_EXPECTED}",
        f"{ADD_YAML}:28: cases[3]: unknown key 'expect' (did you mean 'expected'?)",
    ]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "title: Add",
            "titel: Add",
            [
                f"{ADD_YAML}:1: missing required field 'title'",
                f"{ADD_YAML}:2: unknown key 'titel' (did you mean 'title'?)",
            ],
        ),
        (
            "minutes: 2",
            "colour: blue",
            [
                f"{ADD_YAML}:1: missing required field 'minutes'",
                f"{ADD_YAML}:5: unknown key 'colour'",
            ],
        ),
        ("minutes: 2", "minutes: 2.5", [f"{ADD_YAML}:5: minutes: expected an integer, got a number (2.5)"]),
        (
            "time_limit_seconds: 2",
            "time_limit_seconds: [2]",
            [f"{ADD_YAML}:8: time_limit_seconds: expected a number, got a list ([2])"],
        ),
        ("    expected: 3\n", "", [f"{ADD_YAML}:22: cases[0]: {NO_EXPECTED}"]),
        (
            "name: negative",
            "name: small numbers",
            [f"{ADD_YAML}:30: duplicate case name 'small numbers' (first used at line 22)"],
        ),
        (
            "file: wrong/subtract.py",
            "file: wrong/subtrac.py",
            [
                f"{ADD_YAML}:18: wrong/subtract.py is not listed in wrong_solutions, "
                "so the build would never check that it fails",
                f"{ADD_YAML}:19: wrong solution not found: exercises/basics/add/wrong/subtrac.py",
            ],
        ),
        (
            "sandbox: ../helpers.py",
            "sandbox: solution.py",
            [f"{ADD_YAML}:9: sandbox must be a file in the track folder, other than a solution.py"],
        ),
        (
            "expected: -3",
            "expected: {{a: 1}: 2}",
            [
                f"{ADD_YAML}:32: cases[2].expected: a key of a mapping cannot be a Python dict's key; use a string, a number or a list"
            ],
        ),
        (
            "expected: -3",
            "expected: .inf",
            [f"{ADD_YAML}:32: cases[2].expected: inf is not a JSON number (JSON has no NaN or infinity)"],
        ),
        (
            "expected: -3",
            "expected: !!binary aGk=",
            [f"{ADD_YAML}:32: cases[2].expected: a YAML bytes is not a JSON value"],
        ),
        (
            "args: {a: 1, b: 2}",
            "args: 12",
            [f"{ADD_YAML}:23: cases[0].args: expected a mapping or a list, got an integer (12)"],
        ),
        (
            "    expected: 3\n",
            "    expected: 3\n    raises: {type: ValueError}\n",
            [f"{ADD_YAML}:25: cases[0]: give `expected` (what the call returns) or `raises`, not both"],
        ),
        (
            "    args: {a: 1, b: 2}\n",
            "    args: {a: 1, b: 2}\n    call: add(1, 2)\n",
            [f"{ADD_YAML}:24: cases[0]: give `args` (the entry's arguments) or `call` (an expression), not both"],
        ),
        (
            "    args: {a: 1, b: 2}\n",
            "",
            [f"{ADD_YAML}:22: cases[0]: give `args` (the entry's arguments) or `call` (an expression to evaluate)"],
        ),
        (
            "    args: {a: 1, b: 2}\n",
            "    args: {a: 1, b: 2}\n    setup: x = 1\n",
            [f"{ADD_YAML}:24: cases[0]: `setup` runs before a case's `call`, and this case has none"],
        ),
        (
            "    expected: 3\n",
            "    raises:\n      type: NotAnError\n",
            [
                f"{ADD_YAML}:25: cases[0]: 'NotAnError' is not a built-in exception; name the built-in one it derives "
                "from (e.g. ValueError): a subclass of it passes"
            ],
        ),
        (
            "    expected: 3\n",
            "    raises: {type: ValueError, mesage: no}\n",
            [f"{ADD_YAML}:24: cases[0].raises: unknown key 'mesage' (did you mean 'message'?)"],
        ),
        (
            "    expected: 3\n",
            "    stdout: '3'\n    tolerance: 0.1\n",
            [f"{ADD_YAML}:25: cases[0]: a tolerance compares the floats of `expected`, and this case has none"],
        ),
        (
            "    expected: 3\n",
            "    expected: 3\n    tolerance: 0\n",
            [f"{ADD_YAML}:25: cases[0].tolerance: 0 is less than or equal to the minimum of 0"],
        ),
        (
            "entry: add",
            "entry: [add, Adder]",
            [
                f"{ADD_YAML}:23: cases[0]: `entry` is a list of names, so each case says what it runs with `call`, "
                "not `args`",
                f"{ADD_YAML}:26: cases[1]: `entry` is a list of names, so each case says what it runs with `call`, "
                "not `args`",
                f"{ADD_YAML}:31: cases[2]: `entry` is a list of names, so each case says what it runs with `call`, "
                "not `args`",
            ],
        ),
        # A note alone never stops anything; it comes with the errors.
        (
            "# yaml-language-server: $schema=../../../../../../schemas/exercise.schema.json\n",
            "colour: blue\n",
            [
                f"{ADD_YAML}:1: note: add `# yaml-language-server: $schema=../../../schemas/exercise.schema.json` "
                "as the first line, so that editors check this file as you type",
                f"{ADD_YAML}:1: unknown key 'colour'",
            ],
        ),
    ],
    ids=[
        "unknown-key-close",
        "unknown-key-far",
        "wrong-type",
        "wrong-type-list",
        "no-expected",
        "duplicate-case",
        "missing-file",
        "sandbox-solution",
        "unhashable-key",
        "infinity",
        "binary",
        "args-not-mapping-or-list",
        "expected-and-raises",
        "args-and-call",
        "neither-args-nor-call",
        "setup-without-call",
        "raises-not-builtin",
        "raises-unknown-key",
        "tolerance-without-expected",
        "tolerance-not-positive",
        "names-entry-with-args",
        "no-schema-line",
    ],
)
def test_single_problem(course: Path, old: str, new: str, expected: list[str]):
    edit(course, ADD_YAML, old, new)
    assert problems(course) == expected


def test_missing_fixed_files(course: Path):
    (course / "exercises/basics/add/starter.py").unlink()
    (course / "exercises/basics/double/solution.py").unlink()
    assert problems(course) == [
        f"{ADD_YAML}:1: starter file not found: exercises/basics/add/starter.py",
        "exercises/basics/double/exercise.yaml:1: reference solution not found: exercises/basics/double/solution.py",
    ]


def test_track_challenges_must_match_folders(course: Path):
    edit(course, "exercises/basics/track.yaml", "  - double\n", "  - dubble\n  - add\n")
    assert problems(course) == [
        "exercises/basics/track.yaml:4: exercise folder 'double' is not listed in challenges",
        "exercises/basics/track.yaml:6: challenge 'dubble' has no folder with an exercise.yaml "
        "(did you mean 'double'?)",
        "exercises/basics/track.yaml:7: challenge 'add' is listed twice",
    ]


def test_track_yaml_is_validated(course: Path):
    edit(course, "exercises/basics/track.yaml", "summary:", "sumary:")
    (course / "exercises/other").mkdir()
    assert problems(course) == [
        "exercises/basics/track.yaml:1: missing required field 'summary'",
        "exercises/basics/track.yaml:3: unknown key 'sumary' (did you mean 'summary'?)",
        "exercises/other:1: track folder has no track.yaml",
    ]


def test_empty_exercise_yaml(course: Path):
    (course / ADD_YAML).write_text("# nothing yet\n")
    assert problems(course) == [
        f"{ADD_YAML}:1: note: add `# yaml-language-server: $schema=../../../schemas/exercise.schema.json` "
        "as the first line, so that editors check this file as you type",
        f"{ADD_YAML}:1: expected a mapping of fields, got null",
    ]


def test_find_exercise_by_slug_and_path(course: Path, monkeypatch: pytest.MonkeyPatch):
    assert find_exercise(course, "add").slug == "add"
    assert find_exercise(course, "basics/double").slug == "double"
    monkeypatch.chdir(course)
    assert find_exercise(course, "exercises/basics/add").title == "Add two numbers"
    assert find_exercise(course, "exercises/basics/add/exercise.yaml").track == "basics"


def test_find_exercise_loads_only_that_exercise(course: Path):
    edit(course, "exercises/basics/double/exercise.yaml", "minutes: 1", "minutes: one")
    assert find_exercise(course, "add").slug == "add"
    with pytest.raises(ExerciseError, match=r"double/exercise.yaml:6: minutes: expected an integer"):
        find_exercise(course, "double")


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("ad", "unknown exercise 'ad' (did you mean 'add'?)"),
        ("zzz", "unknown exercise 'zzz'"),
        ("exercises/basics/nope", "no such exercise folder: exercises/basics/nope"),
        ("exercises/basics", "exercises/basics is not an exercise folder (it has no exercise.yaml)"),
    ],
)
def test_find_exercise_errors(course: Path, monkeypatch: pytest.MonkeyPatch, given: str, message: str):
    monkeypatch.chdir(course)
    with pytest.raises(LoopcraftError) as caught:
        find_exercise(course, given)
    assert str(caught.value) == message


def test_a_file_loaded_again_in_one_process_is_parsed_once_and_each_load_gets_data_of_its_own(
    course: Path, monkeypatch: pytest.MonkeyPatch
):
    import loopcraft.course.yamldoc

    monkeypatch.setattr(loopcraft.course.yamldoc, "_PARSED", type(loopcraft.course.yamldoc._PARSED)())
    parsed = []
    real = loopcraft.course.yamldoc.YAML
    monkeypatch.setattr(loopcraft.course.yamldoc, "YAML", lambda **kw: parsed.append(1) or real(**kw))
    first = find_exercise(course, "basics/add")
    count = len(parsed)
    first.cases[0].args["a"] = "changed by its caller"
    again = find_exercise(course, "basics/add")
    assert len(parsed) == count  # nothing parsed again
    assert again.cases[0].args["a"] != "changed by its caller"
    assert again == find_exercise(course, "basics/add")

    (course / ADD_YAML).write_text((course / ADD_YAML).read_text().replace("title: Add two numbers", "title: Add up"))
    assert find_exercise(course, "basics/add").title == "Add up"
    assert len(parsed) == count + 1  # the changed file only


def test_cases_of_every_kind_load_as_python_values_with_int_keys_and_sets_kept(course: Path):
    edit(
        course,
        ADD_YAML,
        "    hidden: true\n",
        "    hidden: true\n"
        "  - name: positional, int keys, a set, a tag-like key\n"
        "    args: [{1: one, [2, 3]: pair}, !!set {a, b}]\n"
        "    expected: {$set: [1]}\n"
        "  - name: must raise\n"
        "    setup: x = add(1, 2)\n"
        "    call: add(x, None)\n"
        "    raises: {type: TypeError, message: nope}\n"
        "  - name: a program\n"
        "    call: main()\n"
        '    stdin: "3\\n4\\n"\n'
        '    stdout: "7\\n"\n'
        "  - name: floats\n"
        "    args: [0.1, 0.2]\n"
        "    expected: 0.3\n"
        "    tolerance: 0.001\n",
    )
    add = find_exercise(course, "add")
    assert add.entry_kind == "function"
    positional, raises, program, floats = add.cases[3:]
    assert positional.args == [{1: "one", (2, 3): "pair"}, {"a", "b"}]
    assert positional.expected == {"$set": [1]} and positional.call is None
    assert (raises.setup, raises.call, raises.raises.type, raises.raises.message) == (
        "x = add(1, 2)",
        "add(x, None)",
        "TypeError",
        "nope",
    )
    assert raises.args is None and not raises.unrecorded
    assert (program.stdin, program.stdout, program.unrecorded) == ("3\n4\n", "7\n", False)
    assert (floats.args, floats.tolerance) == ([0.1, 0.2], 0.001)


def test_a_class_entry_and_a_list_of_names_are_told_apart_for_the_page():
    from loopcraft.course.load import entry_kind

    assert entry_kind("Clock", "import math\n\nclass Clock:\n    pass\n") == "class"
    assert entry_kind("clock", "def clock():\n    pass\n") == "function"
    assert entry_kind(["Clock", "TICK"], "class Clock: ...\nTICK = 1\n") == "names"


def test_a_case_with_a_tolerance_and_nothing_expected_yet_is_records_to_fill_in(tmp_path):
    course = tmp_path / "course"
    shutil.copytree(FIXTURES / "valid", course)
    path = course / "exercises" / "basics" / "add" / "exercise.yaml"
    text = path.read_text()
    path.write_text(text + "  - name: with a tolerance\n    args: {a: 0.1, b: 0.2}\n    tolerance: 0.001\n")
    case = find_exercise(course, "add", recording=True).cases[-1]
    assert case.tolerance == 0.001 and case.expected is MISSING  # `record` fills it; `check` still refuses it
    with pytest.raises(ExerciseError, match="a tolerance compares the floats of `expected`"):
        find_exercise(course, "add")
