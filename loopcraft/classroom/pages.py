"""What the class's pages share (a feedback page for every learner, feedback.py; the teacher's report, report.py).

Every page stands alone: the site's stylesheets and the page's script are inlined, so a page reads from a file://
URL, an emailed attachment or a zip, with no network. They are rendered with the site's templates (base.html)
and the site's own case rendering (frontend/src/results.js, bundled by the site's bundler).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

import jinja2
from markupsafe import Markup

from ..bundle import bundle
from ..cache import BuildCache
from ..project import INSTALL
from ..render import make_environment, pygments_css, read_templates

# Bundles of the class's pages (frontend/src), not shipped with the site.
BUNDLES = ["feedback.js", "report.js"]
STYLESHEETS = ["style.css", "class.css"]
# What would end an inline <style> or <script> early, or change how its text is read.
_ENDS = re.compile(rb"</(?:script|style)|<!--", re.IGNORECASE)


@cache
def environment() -> jinja2.Environment:
    templates = INSTALL / "templates"
    env = make_environment(templates, read_templates(templates))
    env.globals.update(site_root="", css=_inline_css())
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
