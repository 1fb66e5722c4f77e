"""What the class's pages share (a feedback page for every learner, feedback.py; the teacher's report, report.py).

Every page stands alone: the site's stylesheets and the page's script are inlined, so a page reads from a file://
URL, an emailed attachment or a zip, with no network. They are rendered with the site's templates (base.html)
and the site's own case rendering (frontend/src/results.js, bundled by the site's bundler).
"""

from __future__ import annotations

import re
from functools import cache

import jinja2
from markupsafe import Markup

from ..bundle import bundle
from ..cache import BuildCache
from ..printable import file_name
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


def page_name(learner_id: str) -> str:
    """The file name of a learner's feedback page in DIR/feedback/."""
    return f"{file_name(learner_id)}.html"
