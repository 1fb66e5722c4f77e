"""Generated courses for the build benchmark: the real templates, front end and grader, N small challenges.

python bench/generate.py build PROJECT    build PROJECT/site with --no-verify; print {"seconds", "peak_mb"}
"""

from __future__ import annotations

import json
import resource
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: this repository's packages

from loopcraft.course.project import INSTALL as ROOT  # noqa: E402

EXERCISE = """\
title: Challenge {i}
summary: Return the sum of `a` and `b`, plus {i}.
difficulty: easy
minutes: 2
entry: add
signature: "def add(a: int, b: int) -> int"
time_limit_seconds: 2
sandbox: ../helpers.py
task: |
  Write `add(a, b)` that returns **a + b + {i}**.

  | a | b | result |
  | - | - | ------ |
  | 1 | 2 | {r}    |
constraints:
  - Do not use `sum()`.
hints:
  - Add them, then add {i}.
cases:
  - name: small numbers
    args: {{a: 1, b: 2}}
    expected: {r}
  - name: negative
    args: {{a: -5, b: 2}}
    expected: {n}
    hidden: true
"""


def make_project(project: Path, n: int) -> Path:
    if project.exists():
        shutil.rmtree(project)
    for name in ("templates", "frontend/src", "grader", "schemas"):
        shutil.copytree(ROOT / name, project / name, ignore=shutil.ignore_patterns("__pycache__"))
    (project / "node_modules").symlink_to(ROOT / "node_modules")
    track = project / "exercises/gen"
    track.mkdir(parents=True)
    slugs = [f"c{i:04d}" for i in range(n)]
    (track / "track.yaml").write_text(
        "title: Generated\nsummary: A generated course.\nchallenges:\n" + "".join(f"  - {slug}\n" for slug in slugs)
    )
    (track / "helpers.py").write_text("def plus(a, b):\n    return a + b\n")
    for i, slug in enumerate(slugs):
        folder = track / slug
        folder.mkdir()
        (folder / "exercise.yaml").write_text(EXERCISE.format(i=i, r=3 + i, n=-3 + i))
        (folder / "starter.py").write_text("def add(a, b):\n    ...\n")
        (folder / "solution.py").write_text(f"def add(a, b):\n    return plus(a, b) + {i}\n")
    return project


def touch_one(project: Path) -> None:
    """The change an author makes: one challenge's title."""
    yaml = project / "exercises/gen/c0000/exercise.yaml"
    yaml.write_text(yaml.read_text().replace("title: Challenge 0", "title: Challenge zero"))


def timed_build(project: Path) -> dict:
    from loopcraft.course.project import Project
    from loopcraft.site.build import build

    started = time.perf_counter()
    build(Project(project), project / "site", verify=False)
    seconds = time.perf_counter() - started
    peak_kb = (
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss + resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    )
    return {"seconds": round(seconds, 3), "peak_mb": round(peak_kb / 1024, 1)}


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "build":
        sys.exit(__doc__)
    print(json.dumps(timed_build(Path(sys.argv[2]))))
