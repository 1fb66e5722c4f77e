"""How much mutation testing costs `check`, on a copy of the real course.

    python bench/mutation.py

Times, in one run: `check --no-verify` (loading and validating, the baseline), `check` with an empty build cache
(verification and every challenge's mutants in Pyodide), `check` again (the mutants' verdicts from the cache),
and `check` after one challenge's cases changed (only its mutants run again). Prints the seconds and the
ratios to the baseline, as JSON.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EDITED = "exercises/build-an-agent/dispatch-registry/exercise.yaml"


def check(project: Path, *flags: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "build.py", "check", "--root", str(project), *flags],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="loopcraft-bench-mutation-") as tmp:
        project = Path(tmp)
        shutil.copytree(ROOT / "exercises", project / "exercises")
        seconds = {"no_verify": check(project, "--no-verify"), "cold": check(project), "warm": check(project)}
        # One challenge gains a case (a copy of its first, renamed): only its mutants run again.
        edited = project / EDITED
        text = edited.read_text()
        first = text.index("\n  - name: ", text.index("\ncases:\n")) + 1
        end = text.index("\n  - name: ", first) + 1
        copy = text[first:end].replace("  - name: ", "  - name: (copy) ", 1)
        edited.write_text(text[:end] + copy + text[end:])
        seconds["one_changed"] = check(project)
    print(
        json.dumps(
            {
                "seconds": {k: round(v, 2) for k, v in seconds.items()},
                "ratio_to_no_verify": {k: round(v / seconds["no_verify"], 1) for k, v in seconds.items()},
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
