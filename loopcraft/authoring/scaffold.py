"""`python build.py new TRACK/SLUG`: a challenge that builds and passes `check` as it is, for the author to edit.

Every field of the YAML it writes has a comment, so the files explain themselves.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass
from pathlib import Path

from loopcraft.course import yamlfile
from loopcraft.course.course import SLUG
from loopcraft.course.errors import LoopcraftError
from loopcraft.course.paths import rel_path
from loopcraft.course.schemas import schema_comment, schema_default

EXERCISE_YAML = """\
{{schema}}
# One challenge: this file, with starter.py, solution.py and wrong/*.py beside it. Editors check the fields
# against the schema named above; `python build.py check` checks everything and runs every solution.

# The page's heading, also shown on the index.
title: {{title}}
# One line, under the title and on the index.
summary: {summary}
# easy, medium or hard.
difficulty: easy
# About how long a learner needs, in minutes.
minutes: 5
# What the learner writes: a function's or a class's name (or a list of names, when every case has a `call`).
entry: {{entry}}
# The signature shown to the learner, as is.
signature: "{signature}"
# Seconds one case may run before it counts as timed out.
time_limit_seconds: {{time_limit}}
# Python loaded before the learner's code, and shown on the page; a path from this folder. To share one
# between the track's challenges, point it at a file in the track folder, e.g. ../helpers.py.
sandbox: sandbox.py
# The task, in Markdown.
task: |
  {task}

  (This is the example that `python build.py new --kind {kind}` writes: replace it with your challenge.)
# Rules the learner must keep, one line of Markdown each (optional).
constraints:
  - Standard library only.
# Hints the learner reveals one at a time, in Markdown (optional, at most five).
hints:
  - "{hint}"
# Plausible mistakes, one file each: `check` proves that some case catches every one of them, and shows
# which case catches which.
wrong_solutions:
  - file: wrong/{wrong_file}.py
    mistake: {mistake}
# The cases, run in this order. What a case runs: `args` (the entry's arguments: a mapping of keyword ones or
# a list of positional ones) or `call` (a Python expression, after the `setup` statements if any; stdin: what
# input() reads). What it expects: `expected` (any YAML value), `raises` ({{{{type, message}}}}) or `stdout`
# (exact printed text); leave all three out and `python build.py record {{track}}/{{slug}}` fills one in from
# solution.py (docs/authoring.md). hidden: true grades the case without ever publishing what it expects.
# private: true never publishes the case at all: only the instructors' grader and `check` run it. Give every
# challenge private cases at least as strong as its hidden ones, with values no other case shares.{strengthen}
cases:
{cases}"""

_SCENARIOS = '''"""Valid arguments for {entry}: `python build.py strengthen` and `check` run the scenarios this makes on
solution.py and on the mistakes the cases miss (see docs/authoring.md, "Scenarios")."""


def scenario(pick):
    # Every decision goes through `pick`, simplest first, so that a scenario can be shrunk.
    return {{"numbers": pick.list(lambda p: p.int(-9, 9), 0, 6)}}
'''
_SANDBOX = '"""Loaded before the learner\'s code: define here what the task gives the learner."""\n'


@dataclass(frozen=True)
class _Kind:
    """One shape of challenge `new` writes: what its exercise.yaml says, and its files."""

    yaml: dict[str, str]  # the fields of EXERCISE_YAML
    files: dict[str, str]  # templates of {entry}
    class_entry: bool = False  # the entry is named like a class


KINDS = {
    "function": _Kind(
        {
            "summary": "Return the sum of the even numbers in a list.",
            "signature": "{entry}(numbers: list[int]) -> int",
            "task": "Write `{entry}(numbers)` that returns the sum of the even numbers in `numbers`.",
            "hint": "A number `n` is even when `n % 2 == 0`.",
            "wrong_file": "adds_odd_numbers",
            "mistake": "Adds every number, odd ones included.",
            "strengthen": " `python build.py strengthen {track}/{slug}`\n# proposes cases from the scenarios that "
            "scenarios.py generates.",
            "cases": """\
  - name: a few numbers
    args:
      numbers: [1, 2, 3, 4]
    expected: 6
  - name: negative and odd numbers
    args: [[5, 6, -2, 7]]  # a list: positional arguments
    expected: 4
    hidden: true
  # Private cases: checked only by the instructors' grader, never published.
  - name: odd numbers only
    args:
      numbers: [3, -5, 9]
    expected: 0
    private: true
""",
        },
        {
            "starter.py": "def {entry}(numbers):\n    # Your code here.\n    return 0\n",
            "solution.py": "def {entry}(numbers):\n    return sum(n for n in numbers if n % 2 == 0)\n",
            "wrong/adds_odd_numbers.py": "def {entry}(numbers):\n    return sum(numbers)\n",
            "sandbox.py": _SANDBOX,
            "scenarios.py": _SCENARIOS,
        },
    ),
    "class": _Kind(
        {
            "summary": "A 2-D vector that adds, scales and prints itself.",
            "signature": "class {entry}(x: int, y: int)",
            "task": "Write a class `{entry}(x, y)`: `a + b` is a new vector, the sum of two (neither changes), "
            "`v.scaled(k)` a new one `k` times as long, and `str(v)` is `(x, y)`. Adding anything else raises "
            "`TypeError`.",
            "hint": "Return `NotImplemented` from `__add__` for what it cannot add: Python then raises `TypeError`.",
            "wrong_file": "changes_itself",
            "mistake": "Adds into the left vector instead of making a new one.",
            "strengthen": "",
            "cases": """\
  - name: adds two vectors
    call: str({entry}(1, 2) + {entry}(3, 4))
    expected: "(4, 6)"
  - name: adding leaves both as they were
    setup: |
      a = {entry}(1, 1)
      b = a + {entry}(2, 2)
    call: (str(a), str(b))
    expected: ["(1, 1)", "(3, 3)"]
  - name: scales
    setup: v = {entry}(1, -2)
    call: str(v.scaled(3))
    expected: "(3, -6)"
    hidden: true
  - name: a number does not add to a vector
    call: {entry}(1, 2) + 3
    raises:
      type: TypeError
  # Private cases: checked only by the instructors' grader, never published.
  - name: scaled by zero, then added
    setup: v = {entry}(5, 7).scaled(0) + {entry}(-1, 4)
    call: str(v)
    expected: "(-1, 4)"
    private: true
""",
        },
        {
            "starter.py": "class {entry}:\n    def __init__(self, x, y):\n        # Your code here.\n        pass\n",
            "solution.py": (
                "class {entry}:\n    def __init__(self, x, y):\n        self.x, self.y = x, y\n\n"
                "    def __add__(self, other):\n        if not isinstance(other, {entry}):\n"
                "            return NotImplemented\n        return {entry}(self.x + other.x, self.y + other.y)\n\n"
                "    def scaled(self, k):\n        return {entry}(self.x * k, self.y * k)\n\n"
                '    def __str__(self):\n        return f"({{self.x}}, {{self.y}})"\n'
            ),
            "wrong/changes_itself.py": (
                "class {entry}:\n    def __init__(self, x, y):\n        self.x, self.y = x, y\n\n"
                "    def __add__(self, other):\n        if not isinstance(other, {entry}):\n"
                "            return NotImplemented\n        self.x += other.x\n        self.y += other.y\n"
                "        return self\n\n"
                "    def scaled(self, k):\n        return {entry}(self.x * k, self.y * k)\n\n"
                '    def __str__(self):\n        return f"({{self.x}}, {{self.y}})"\n'
            ),
            "sandbox.py": _SANDBOX,
        },
        class_entry=True,
    ),
    "program": _Kind(
        {
            "summary": "Read a count and that many numbers, print their total.",
            "signature": "{entry}() -> None  # reads input(), prints",
            "task": "Write `{entry}()`: it reads a count with `input()`, then that many whole numbers, one a line, "
            "and prints `total: ` and their sum.",
            "hint": "Each `int(input())` reads one line as a whole number.",
            "wrong_file": "skips_the_last",
            "mistake": "Reads one number fewer than the count says.",
            "strengthen": "",
            "cases": """\
  - name: three numbers
    call: {entry}()
    stdin: "3\\n1\\n2\\n3\\n"
    stdout: "total: 6\\n"
  - name: no numbers
    call: {entry}()
    stdin: "0\\n"
    stdout: "total: 0\\n"
    hidden: true
  # Private cases: checked only by the instructors' grader, never published.
  - name: negative numbers
    call: {entry}()
    stdin: "2\\n-5\\n4\\n"
    stdout: "total: -1\\n"
    private: true
""",
        },
        {
            "starter.py": 'def {entry}():\n    # Your code here.\n    print("total: 0")\n',
            "solution.py": (
                "def {entry}():\n    count = int(input())\n"
                '    print(f"total: {{sum(int(input()) for _ in range(count))}}")\n'
            ),
            "wrong/skips_the_last.py": (
                "def {entry}():\n    count = int(input())\n"
                '    print(f"total: {{sum(int(input()) for _ in range(count - 1))}}")\n'
            ),
            "sandbox.py": _SANDBOX,
        },
    ),
}


LESSON_YAML = """\
{schema}
# A lesson: this file and lesson.md beside it, listed in track.yaml among the challenges. Editors check the
# fields against the schema named above; `python build.py check {track}/{slug}` runs its code.

# The page's heading, also shown on the index.
title: {title}
# One line, under the title and on the index.
summary: What the learner takes away from this page, in one line.
# beginner, intermediate or advanced.
level: beginner
# About how long a learner needs, in minutes.
minutes: 5
# "Check your understanding": at least two questions. Every option has the feedback shown once the learner
# picks it; the right answer is never plain in the page.
questions:
  # single: exactly one option is `correct: true`; multiple: the learner must pick every correct one.
  - kind: single
    prompt: What does `len([3, 1, 2])` return?
    options:
      - text: "3"
        correct: true
        feedback: One for each item of the list.
      - text: "2"
        feedback: len counts every item, the first one too.
  # output: "what does this print?". The build runs `code` in Pyodide, and what it prints is the right
  # option: list only the wrong ones.
  - kind: output
    prompt: What does this print?
    code: |
      print(sorted([3, 1, 2]))
    explanation: sorted returns a new list, in order.
    wrong:
      - text: "[3, 1, 2]"
        feedback: sorted puts the items in order.
"""

LESSON_MD = """\
The lesson's text, in Markdown (CommonMark, with tables). Replace it with yours.

> Note: a quote that starts with `Note:` or `Watch out:` becomes a callout.

A fence marked `python live` is a small editor the learner can run; the build runs it once and the page shows
what it printed before the learner presses Run (mark it `python live raises` if it is meant to raise):

```python live
numbers = [3, 1, 2]
print(sorted(numbers))
len(numbers)
```
"""

TRACK_YAML = """\
{schema}
# A track: a course of challenges, in order. Editors check the fields against the schema named above.

# Shown on the index and on each challenge page of the track.
title: {title}
# One line, shown on the index.
summary: {title}, one challenge at a time.
# The challenges in course order, by folder name. To group them, write `parts:` instead: a list of
# entries, each with a `title:` and its own `challenges:` list.
challenges:
  - {slug}
"""


@dataclass(frozen=True)
class Scaffold:
    created: list[Path]  # relative to the root
    track_yaml: Path
    listed: bool  # False when track.yaml already listed the challenge


def new_challenge(root: Path, name: str, kind: str = "function") -> Scaffold:
    """Write exercises/TRACK/SLUG and list it in the track (created if need be); `name` is TRACK/SLUG. `kind`: one
    of KINDS, a function (cases by args), a class (cases by call and setup) or a program (cases by stdin and
    stdout)."""
    root, track, slug = _names(root, name)
    shape = KINDS[kind]
    entry = slug.replace("-", "_")
    if not entry.isidentifier() or keyword.iskeyword(entry):
        entry = "solve"
    if shape.class_entry:
        entry = "".join(word.capitalize() for word in entry.split("_")) or "Solve"
        entry = entry if entry.isidentifier() else "Solve"
    elif kind == "program":
        entry = "main"
    fields = {key: value.replace("{entry}", entry) for key, value in shape.yaml.items()}
    template = EXERCISE_YAML.format(kind=kind, **fields)
    values = {"entry": entry, "time_limit": schema_default("exercise", "time_limit_seconds")}
    return _scaffold(root, track, slug, "exercise", {"exercise.yaml": template, **shape.files}, values)


def new_lesson(root: Path, name: str) -> Scaffold:
    """Write a lesson (lesson.yaml, lesson.md) in exercises/TRACK/SLUG and list it in the track, like a challenge."""
    root, track, slug = _names(root, name)
    return _scaffold(root, track, slug, "lesson", {"lesson.yaml": LESSON_YAML, "lesson.md": LESSON_MD}, {})


def _names(root: Path, name: str) -> tuple[Path, str, str]:
    track, _, slug = name.partition("/")
    if not (SLUG.match(track) and SLUG.match(slug)):
        raise LoopcraftError(
            f"expected TRACK/SLUG, two folder names of lowercase letters, digits and hyphens "
            f"(they become URLs), e.g. build-an-agent/retry-policy; got {name!r}"
        )
    root = root.resolve()
    folder = root / "exercises" / track / slug
    if folder.exists():
        raise LoopcraftError(f"{rel_path(folder, root).as_posix()} already exists")
    return root, track, slug


def _scaffold(root: Path, track: str, slug: str, kind: str, files: dict[str, str], values: dict) -> Scaffold:
    """Write `files` (templates of `values`, the title, track, slug and schema line) into the folder, and list
    it in track.yaml (a new track gets one)."""
    track_dir = root / "exercises" / track
    folder = track_dir / slug
    track_yaml = track_dir / "track.yaml"
    created = []
    if track_yaml.exists():
        listed = _list_in_track(track_yaml, slug, rel_path(track_yaml, root))
    else:
        track_dir.mkdir(parents=True, exist_ok=True)
        schema = schema_comment(rel_path(track_yaml, root), "track")
        track_yaml.write_text(TRACK_YAML.format(schema=schema, title=_title(track), slug=slug), encoding="utf-8")
        created.append(track_yaml)
        listed = True
    schema = schema_comment(rel_path(folder / f"{kind}.yaml", root), kind)
    values = {**values, "title": _title(slug), "track": track, "slug": slug, "schema": schema}
    for relative, template in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.format(**values), encoding="utf-8")
        created.append(path)
    return Scaffold([rel_path(p, root) for p in created], rel_path(track_yaml, root), listed)


def _list_in_track(track_yaml: Path, slug: str, rel: Path) -> bool:
    """Append `slug` to the track's list (its last part's, if in parts); False if it is listed already."""
    tree = yamlfile.load(track_yaml)
    try:
        lists = [part["challenges"] for part in tree["parts"]] if "parts" in tree else [tree["challenges"]]
        if any(slug in challenges for challenges in lists):
            return False
        challenges = lists[-1]
        challenges.append(slug)
    except (TypeError, KeyError, IndexError, AttributeError) as exc:
        raise LoopcraftError(
            f"{rel.as_posix()}: cannot add {slug!r} to its challenges; "
            "`python build.py check` tells what is wrong with the file"
        ) from exc
    # Comments after the old last item (e.g. planned challenges) stay after the list, below the new one.
    last = len(challenges) - 2
    if last in challenges.ca.items:
        challenges.ca.items[last + 1] = challenges.ca.items.pop(last)
    yamlfile.dump(tree, track_yaml)
    return True


def _title(slug: str) -> str:
    return slug.replace("-", " ").capitalize()
