"""`python build.py new TRACK/SLUG`: a challenge that builds and passes `check` as it is, for the author to edit.

Every field of the YAML it writes has a comment, so the files explain themselves.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass
from pathlib import Path

from . import yamlfile
from .errors import LoopcraftError
from .exercises import SLUG, rel_path, schema_comment, schema_default

EXERCISE_YAML = """\
{schema}
# One challenge: this file, with starter.py, solution.py and wrong/*.py beside it. Editors check the fields
# against the schema named above; `python build.py check` checks everything and runs every solution.

# The page's heading, also shown on the index.
title: {title}
# One line, under the title and on the index.
summary: Return the sum of the even numbers in a list.
# easy, medium or hard.
difficulty: easy
# About how long a learner needs, in minutes.
minutes: 5
# The function the learner writes; each case calls it with its args as keyword arguments.
entry: {entry}
# The signature shown to the learner, as is.
signature: "{entry}(numbers: list[int]) -> int"
# Seconds one case may run before it counts as timed out.
time_limit_seconds: {time_limit}
# Python loaded before the learner's code, and shown on the page; a path from this folder. To share one
# between the track's challenges, point it at a file in the track folder, e.g. ../helpers.py.
sandbox: sandbox.py
# The task, in Markdown.
task: |
  Write `{entry}(numbers)` that returns the sum of the even numbers in `numbers`.

  (This is the example that `python build.py new` writes: replace it with your challenge.)
# Rules the learner must keep, one line of Markdown each (optional).
constraints:
  - Standard library only.
# Hints the learner reveals one at a time, in Markdown (optional, at most five).
hints:
  - A number `n` is even when `n % 2 == 0`.
# Plausible mistakes, one file each: `check` proves that some case catches every one of them, and shows
# which case catches which.
wrong_solutions:
  - file: wrong/adds_odd_numbers.py
    mistake: Adds every number, odd ones included.
# The cases, run in this order. args: the entry function's keyword arguments. expected: any JSON value;
# leave it out and `python build.py record {track}/{slug}` fills it in from solution.py. hidden: true
# grades the case without ever publishing its expected value.
cases:
  - name: a few numbers
    args:
      numbers: [1, 2, 3, 4]
    expected: 6
  - name: negative and odd numbers
    args:
      numbers: [5, 6, -2, 7]
    expected: 4
    hidden: true
"""

FILES = {
    "starter.py": "def {entry}(numbers):\n    # Your code here.\n    return 0\n",
    "solution.py": "def {entry}(numbers):\n    return sum(n for n in numbers if n % 2 == 0)\n",
    "wrong/adds_odd_numbers.py": "def {entry}(numbers):\n    return sum(numbers)\n",
    "sandbox.py": '"""Loaded before the learner\'s code: define here what the task gives the learner."""\n',
}

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


def new_challenge(root: Path, name: str) -> Scaffold:
    """Write exercises/TRACK/SLUG and list it in the track (created if need be); `name` is TRACK/SLUG."""
    root = root.resolve()
    track, _, slug = name.partition("/")
    if not (SLUG.match(track) and SLUG.match(slug)):
        raise LoopcraftError(
            f"expected TRACK/SLUG, two folder names of lowercase letters, digits and hyphens "
            f"(they become URLs), e.g. build-an-agent/retry-policy; got {name!r}"
        )
    track_dir = root / "exercises" / track
    folder = track_dir / slug
    if folder.exists():
        raise LoopcraftError(f"{rel_path(folder, root).as_posix()} already exists")
    entry = slug.replace("-", "_")
    if not entry.isidentifier() or keyword.iskeyword(entry):
        entry = "solve"
    values = {
        "title": _title(slug),
        "entry": entry,
        "track": track,
        "slug": slug,
        "time_limit": schema_default("exercise", "time_limit_seconds"),
    }

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
    files = {"exercise.yaml": EXERCISE_YAML, **FILES}
    values["schema"] = schema_comment(rel_path(folder / "exercise.yaml", root), "exercise")
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
