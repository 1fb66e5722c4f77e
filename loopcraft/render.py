"""Render the site's pages in memory: Jinja2 contexts built from loaded exercises.

Nothing here writes files; `render_pages` returns {site-relative path: HTML} for the site writer. A page whose
inputs (the templates, the asset version, and what its context is made from) are in the build cache is taken
from there instead of being rendered again.
"""
from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import jinja2
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from markdown_it import MarkdownIt
from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer, get_lexer_by_name
from pygments.util import ClassNotFound

from grader.canonical import canonical_json, digest

from .cache import BuildCache
from .errors import BuildError
from .exercises import Exercise, Track

_FORMATTER = HtmlFormatter(cssclass="highlight", style="default")


def _highlight_fence(code: str, lang: str, _attrs) -> str:
    try:
        lexer = get_lexer_by_name(lang) if lang else None
    except ClassNotFound:
        lexer = None
    if lexer is None:
        return ""  # markdown-it then escapes the code itself
    # Starting with <pre tells markdown-it to use this as is; the class matches highlight.css.
    return f'<pre class="highlight"><code>{highlight(code, lexer, HtmlFormatter(nowrap=True))}</code></pre>'


# Authors write prose, not HTML: raw HTML in Markdown is shown as text.
_MARKDOWN = MarkdownIt("commonmark", {"html": False, "highlight": _highlight_fence}).enable("table")


def tojson_script(value) -> Markup:
    """JSON that is safe inside <script type="application/json">: no `</script>` or `<!--` can form."""
    text = json.dumps(value, ensure_ascii=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def read_templates(templates_dir: Path) -> dict[str, bytes]:
    """Every template file (but hidden ones, such as an editor's), read once, so that pages are rendered from the
    very bytes their cache key hashes."""
    return {path.relative_to(templates_dir).as_posix(): path.read_bytes()
            for path in sorted(templates_dir.rglob("*")) if path.is_file() and not path.name.startswith(".")}


class _CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept in the build cache, by name and source: compiling takes Jinja a good part of the
    time of a rebuild that renders only a page or two."""

    def __init__(self, cache: BuildCache):
        self.cache = cache

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.cache.get("template", self.cache.key("template", bucket.key, bucket.checksum))
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.cache.put("template", self.cache.key("template", bucket.key, bucket.checksum),
                       bucket.bytecode_to_string())


def make_environment(templates_dir: Path, templates: dict[str, bytes],
                     cache: BuildCache | None = None) -> jinja2.Environment:
    def load(name: str):
        if name not in templates:
            return None
        return templates[name].decode("utf-8"), str(templates_dir / name), lambda: True

    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(load),
        bytecode_cache=_CompiledTemplates(cache) if cache else None,
        autoescape=True,
        undefined=jinja2.StrictUndefined,  # a misspelt variable fails the build instead of rendering blank
    )
    env.filters["tojson_script"] = tojson_script
    return env


def pygments_css() -> str:
    """The stylesheet for `class="highlight"` blocks, written to assets/highlight.css."""
    return _FORMATTER.get_style_defs(".highlight")


def salt(ex: Exercise) -> str:
    """Per-exercise salt for hidden-case digests: stable across builds, and not guessable without the
    unpublished reference solution, so expected values cannot be precomputed by brute force per site."""
    return hashlib.sha256(f"{ex.track}/{ex.slug}\n{ex.solution_source}".encode("utf-8")).hexdigest()[:32]


def solution_key(ex_salt: str, expected_values: list) -> bytes:
    """The key of the published reference solution: SHA-256 of the salt and the canonical JSON list of every
    case's expected value, hidden ones included. A run that passes every case returns exactly these values,
    so the page can rebuild the key from the run's outcomes; nothing published gives it away before that."""
    return hashlib.sha256((ex_salt + canonical_json(expected_values)).encode("utf-8")).digest()


def published_cases(ex: Exercise) -> list:
    """The cases a page may carry in any form: all but the private ones."""
    return [case for case in ex.cases if not case.private]


def encrypt_solution(ex: Exercise, ex_salt: str) -> dict:
    """The reference solution, encrypted with AES-GCM under `solution_key` (of the published cases only: a run in
    the page never sees a private case), as base64 for the page."""
    key = solution_key(ex_salt, [case.expected for case in published_cases(ex)])
    plaintext = ex.solution_source.encode("utf-8")
    # Derived, not random, so that builds are reproducible; a different plaintext or key gives another nonce.
    iv = hashlib.sha256(b"loopcraft solution iv\0" + key + plaintext).digest()[:12]
    ciphertext = AESGCM(key).encrypt(iv, plaintext, None)
    return {"salt": ex_salt, "iv": base64.b64encode(iv).decode("ascii"),
            "ciphertext": base64.b64encode(ciphertext).decode("ascii")}


def challenge_url(ex: Exercise) -> str:
    """URL of a challenge page relative to the site root."""
    return f"{ex.track}/{ex.slug}/"


def challenge_path(ex: Exercise) -> str:
    return f"{ex.track}/{ex.slug}/index.html"


def index_context(tracks: list[Track]) -> dict:
    def card(ex: Exercise, number: int) -> dict:
        return {"slug": ex.slug, "track": ex.track, "number": number, "title": ex.title, "summary": ex.summary,
                "difficulty": ex.difficulty, "minutes": ex.minutes, "url": challenge_url(ex)}

    def parts(track: Track) -> list[dict]:
        numbers = {ex.slug: i for i, ex in enumerate(track.exercises, start=1)}
        return [{"title": part.title, "challenges": [card(ex, numbers[ex.slug]) for ex in part.exercises]}
                for part in track.parts]

    return {
        "site_root": "",
        "tracks": [
            {
                "slug": t.slug,
                "title": t.title,
                "summary": t.summary,
                "minutes": sum(ex.minutes for ex in t.exercises),
                "parts": parts(t),
                "challenges": [card(ex, i) for i, ex in enumerate(t.exercises, start=1)],
            }
            for t in tracks
        ],
    }


def challenge_inputs(track: Track, ex: Exercise, prev: Exercise | None, next_: Exercise | None) -> str:
    """Everything challenge_context reads, as text for the page's cache key: the whole exercise, and of the
    track and the neighbours only what the page shows (so that editing one challenge re-renders few pages)."""
    def link(other: Exercise | None) -> list | None:
        return [other.title, challenge_url(other)] if other else None

    def fields(value) -> list | str:
        return list(vars(value).values()) if dataclasses.is_dataclass(value) else str(value)  # Path, MISSING

    return json.dumps([track.slug, track.title, ex, link(prev), link(next_)], ensure_ascii=False, default=fields)


def challenge_context(track: Track, ex: Exercise, prev: Exercise | None, next_: Exercise | None) -> dict:
    # Reads nothing that challenge_inputs leaves out, or cached pages would miss a change.
    site_root = "../../"
    published = published_cases(ex)
    visible = [c for c in published if not c.hidden]
    ex_salt = salt(ex)

    def link(other: Exercise | None) -> dict | None:
        return {"title": other.title, "url": site_root + challenge_url(other)} if other else None

    def page_case(case) -> dict:
        data = {"name": case.name, "hidden": case.hidden, "args": case.args}
        if case.hidden:
            data.update(digest=digest(ex_salt, canonical_json(case.expected)), salt=ex_salt)
        else:
            # The page compares canonical strings; only Python writes them, so they match the worker's.
            data.update(expected=case.expected, expected_json=canonical_json(case.expected))
        return data

    return {
        "site_root": site_root,
        "track": {"slug": track.slug, "title": track.title},
        "ex": {
            "slug": ex.slug,
            "title": ex.title,
            "summary": ex.summary,
            "difficulty": ex.difficulty,
            "minutes": ex.minutes,
            "signature": ex.signature,
            "time_limit_seconds": ex.time_limit_seconds,
            "task_html": Markup(_MARKDOWN.render(ex.task)),
            "constraints_html": [Markup(_MARKDOWN.renderInline(c)) for c in ex.constraints],
            "hints_html": [Markup(_MARKDOWN.render(h)) for h in ex.hints],
            "sandbox_html": Markup(highlight(ex.sandbox_source, PythonLexer(), _FORMATTER)),
            "sandbox_source": ex.sandbox_source,
            "starter_source": ex.starter_source,
            "examples": [
                {
                    "name": c.name,
                    "input_text": "\n".join(f"{name} = {value!r}" for name, value in c.args.items()),
                    "expected_text": repr(c.expected),
                }
                for c in visible
            ],
            "hidden_count": len(published) - len(visible),
            "private_count": len(ex.cases) - len(published),
        },
        "prev": link(prev),
        "next": link(next_),
        "page_data": {
            "slug": ex.slug,
            "track": track.slug,
            "entry": ex.entry,
            "time_limit_seconds": ex.time_limit_seconds,
            "starter": ex.starter_source,
            "sandbox": ex.sandbox_source,
            "cases": [page_case(c) for c in published],
            "solution": encrypt_solution(ex, ex_salt),
        },
    }


def render_pages(templates_dir: Path, tracks: list[Track], asset_version: str,
                 cache: BuildCache | None = None) -> dict[str, str]:
    """Every page of the site, {path relative to the site root: HTML}. prev/next stay within a track."""
    templates = read_templates(templates_dir)
    env = make_environment(templates_dir, templates, cache)
    common = cache.key("templates", asset_version, *(x for item in templates.items() for x in item)) if cache else ""
    # {page: (template, the context's inputs as text, the context)}; the index's context is cheap, so it is its
    # own input, while a challenge's (Markdown, highlighting, encryption) is made only when the cache misses.
    index = index_context(tracks)
    jobs: dict[str, tuple[str, str, Callable[[], dict]]] = {
        "index.html": ("index.html", json.dumps(index, ensure_ascii=False), lambda: index)}
    for track in tracks:
        exs = track.exercises
        for i, ex in enumerate(exs):
            prev, next_ = exs[i - 1] if i else None, exs[i + 1] if i + 1 < len(exs) else None
            jobs[challenge_path(ex)] = ("challenge.html", challenge_inputs(track, ex, prev, next_),
                                        lambda t=track, e=ex, p=prev, n=next_: challenge_context(t, e, p, n))
    pages = {}
    for page, (template, inputs, context) in jobs.items():
        key = cache.key("page", common, page, template, inputs) if cache else ""
        if cache and (html := cache.get("page", key)) is not None:
            pages[page] = html.decode("utf-8")
            continue
        try:
            pages[page] = env.get_template(template).render(context(), asset_version=asset_version)
        except jinja2.TemplateSyntaxError as exc:
            raise BuildError(f"{exc.filename}:{exc.lineno}: template syntax error: {exc.message}") from exc
        except jinja2.TemplateError as exc:
            raise BuildError(f"rendering {page} with templates/{template}: {exc}") from exc
        if cache:
            cache.put("page", key, pages[page].encode("utf-8"))
    return pages
