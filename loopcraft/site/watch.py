"""`python build.py serve`: build, serve, and rebuild on every change, reloading the pages open in a browser.

A rebuild is a whole build, which takes whatever an edit did not change from the build cache (about 0.4 s for
the course, under a second for a thousand challenges): the site is swapped in atomically, so it cannot be
patched file by file. Rebuilds after a change skip running the solutions in Pyodide, which takes many
seconds; the first build runs them (unless --no-verify), and `python build.py check` and `build` always do.
A failed rebuild leaves the last good site served and shows its errors over the open pages. The site is this
machine's: Python's snapshot is compressed like any big file (build's `for_the_wire`), so a rebuild after an edit of
grader/ takes seconds, not the half minute `build` spends compressing it for the wire.
"""

from __future__ import annotations

import sys
import threading
import time
import traceback
from pathlib import Path

import watchfiles

from loopcraft.course.errors import ExerciseError, LoopcraftError
from loopcraft.course.paths import rel_path
from loopcraft.course.project import Project

from .build import build
from .serve import LiveState, make_server

# grader/ is shipped into the site (py/), so an edit of it is a change of the site too.
WATCHED = ["exercises", "templates", "schemas", "frontend/src", "grader"]


class DevServer:
    """Serves `out`, rebuilt from the project whenever a watched folder of it changes, until close()."""

    def __init__(
        self, project: Project, out: Path, host: str, port: int, *, isolation: bool, verify: bool, quiet: bool = False
    ):
        self.project = project
        self.root, self.out = project.root, out.resolve()
        self.live = LiveState()
        self.server = make_server(self.out, host, port, isolation, quiet=quiet, live=self.live)
        self._stop = threading.Event()
        self.watched = [self.root / name for name in WATCHED if (self.root / name).is_dir()]
        self._changes = watchfiles.watch(*self.watched, stop_event=self._stop, rust_timeout=200, yield_on_timeout=True)
        next(self._changes)  # watching from here on, so an edit made during the first build is not lost
        self.rebuild(verify=verify)
        self._threads = [
            threading.Thread(target=self.server.serve_forever, daemon=True),
            threading.Thread(target=self._watch, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def rebuild(self, *, verify: bool = False, changed: list[str] = ()) -> None:
        """Build once and tell the open pages; never raises, so that the server outlives any mistake."""
        started = time.monotonic()
        errors: list[str] = []
        noted = ""
        try:
            noted = build(self.project, self.out, verify=verify, for_the_wire=False).notes_aside()
        except ExerciseError as exc:
            errors = [str(p) for p in exc.problems]
            summary = f"{len(exc.errors)} problem(s)"
        except LoopcraftError as exc:
            errors = str(exc).splitlines()
            summary = "build failed"
        except Exception:  # noqa: BLE001 - a bug in a template or in loopcraft; the author still sees it
            errors = traceback.format_exc().rstrip().splitlines()
            summary = "build crashed"
        took = f"{time.monotonic() - started:.1f} s"
        after = f" after changes to {', '.join(changed)}" if changed else ""
        if errors:
            print("\n".join(errors), file=sys.stderr)
            print(f"{summary}{after}; still serving the last good site", file=sys.stderr, flush=True)
        else:
            unverified = "" if verify else "; solutions not run (`python build.py check` runs them)"
            print(f"Built {self.out} in {took}{after}{unverified}{noted}", flush=True)
        self.live.publish(errors)

    def _watch(self) -> None:
        for changes in self._changes:
            if changes:
                paths = {Path(path) for _, path in changes}
                # Leave out an editor's temporary files, gone by now, unless only deletions happened.
                shown = {path for path in paths if path.exists()} or paths
                self.rebuild(changed=sorted(rel_path(path, self.root).as_posix() for path in shown))

    def close(self) -> None:
        self._stop.set()
        self.live.close()
        self.server.shutdown()
        self.server.server_close()
        for thread in self._threads:
            thread.join()

    def __enter__(self) -> DevServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
