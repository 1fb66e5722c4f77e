"""What the class's pages share (a feedback page for every learner, feedback.py; the teacher's report, report.py).

Every page stands alone: the site's stylesheets (and the report's script) are inlined, so a page reads from a
file:// URL, an emailed attachment or a zip, with no network. They are rendered with the site's templates
(base.html) and the site's own case rendering (frontend/src/results.js): the report's bundled by the site's
bundler, a feedback page's drawn once, as HTML, by Node (`CaseDrawer`), since a feedback page carries no script.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import unicodedata
from functools import cache

import jinja2
from markupsafe import Markup

from loopcraft.course.cache import BuildCache
from loopcraft.course.errors import LoopcraftError
from loopcraft.course.project import INSTALL
from loopcraft.site.bundle import bundle
from loopcraft.site.render import make_environment, pygments_css, read_templates

# Bundles of the class's pages (frontend/src), not shipped with the site.
BUNDLES = ["report.js"]
STYLESHEETS = ["style.css", "class.css"]
# A feedback page's Content-Security-Policy: nothing may load or run, but its own inline styles (a <style> and the
# lines' style attributes) and data: images (its icon); no form, no <base>, no script of any kind.
FEEDBACK_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
# What would end an inline <style> or <script> early, or change how its text is read.
_ENDS = re.compile(rb"</(?:script|style)|<!--", re.IGNORECASE)


@cache
def environment() -> jinja2.Environment:
    templates = INSTALL / "templates"
    env = make_environment(templates, read_templates(templates))
    env.globals.update(site_root="", css=_inline_css(), feedback_policy=FEEDBACK_POLICY)
    return env


def _inline(data: bytes, what: str) -> Markup:
    if _ENDS.search(data):
        raise ValueError(f"{what} holds </script>, </style> or <!--, so it cannot be inlined")
    return Markup(data.decode("utf-8"))


@cache
def _inline_css() -> Markup:
    css = b"\n".join((INSTALL / "frontend/src" / name).read_bytes() for name in STYLESHEETS)
    return _inline(css + b"\n" + pygments_css().encode("utf-8"), "the stylesheets")


@cache
def script(name: str) -> Markup:
    return _inline(bundle(INSTALL, BuildCache(INSTALL), name, []), name)


class CaseDrawer:
    """Node, drawing the cases of feedback pages as the challenge page's results list does
    (frontend/feedback-pages.mjs): started once for every page of a class, one line in and one out a page. It reads
    nothing but the front end's modules (Node's permission model) and makes no code from text."""

    def __enter__(self) -> CaseDrawer:
        node, frontend = shutil.which("node"), INSTALL / "frontend"
        if node is None:
            raise LoopcraftError("node is not on PATH: the feedback pages are drawn with Node.js (20 or later)")
        command = [
            node,
            "--experimental-permission",
            f"--allow-fs-read={frontend}{os.sep}",
            "--disallow-code-generation-from-strings",
            "--no-warnings",
            str(frontend / "feedback-pages.mjs"),
        ]
        self._process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8"
        )
        return self

    def __call__(self, data: dict) -> list[Markup]:
        """Each challenge's rows, as HTML, of a page's data (feedback.page's: {"challenges": [{slug, cases}]})."""
        self._process.stdin.write(json.dumps(data, ensure_ascii=True) + "\n")
        self._process.stdin.flush()
        line = self._process.stdout.readline()
        if not line:
            self._process.wait()
            raise LoopcraftError(f"Node stopped drawing the feedback pages: {self._process.stderr.read()[-2000:]}")
        return [Markup(rows) for rows in json.loads(line)]

    def __exit__(self, *exc) -> None:
        self._process.stdin.close()
        self._process.stdout.close()
        self._process.wait()
        self._process.stderr.close()


# What a page's file name keeps of a name besides letters and digits (of any script): nothing a shell, a URL or a
# file system takes for syntax.
_PAGE_KEEPS = frozenset(" -_.,()")
_RESERVED = frozenset(["CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(10)), *(f"LPT{i}" for i in range(10))])
PAGE_CHARS = 80


def _readable(name: str) -> str:
    kept = "".join(c if c.isalnum() or c in _PAGE_KEEPS else "_" for c in unicodedata.normalize("NFC", name))
    kept = " ".join(kept.split())[:PAGE_CHARS].strip(" ._-") or "learner"
    return f"_{kept}" if kept.split(".")[0].upper() in _RESERVED else kept


def page_names(rows: list[dict]) -> dict[str, str]:
    """Each learner's feedback page in DIR/feedback/, by learner: named as people read them ("Doe, John (11).html",
    "田中 太郎.html": the name and the LMS id, if any, letters of any script kept, anything else "_"), and told apart
    from a name that reads the same, whatever its case ("Bob" and "bob" are one file on some systems), by " (2)",
    " (3)"... in the rows' order."""
    names, taken = {}, set()
    for row in rows:
        lms_id = row.get("lms_id") or ""
        base = _readable(row.get("name") or row["learner"]) + (f" ({_readable(lms_id)})" if lms_id else "")
        name, number = base, 2
        while name.casefold() in taken:
            name, number = f"{base} ({number})", number + 1
        taken.add(name.casefold())
        names[row["learner"]] = f"{name}.html"
    return names
