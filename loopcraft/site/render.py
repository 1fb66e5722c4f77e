"""Render the site's pages in memory: Jinja2 contexts built from loaded exercises.

Nothing here writes files; `render_pages` returns {site-relative path: HTML} for the site writer. A page whose
inputs (the templates, the asset version, and what its context is made from) are in the build cache is taken
from there instead of being rendered again.
"""

from __future__ import annotations

import ast
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
from pygments.filter import simplefilter
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer, get_lexer_by_name
from pygments.token import Error, Generic
from pygments.util import ClassNotFound

from grader.canonical import canonical_json, digest
from loopcraft.authoring.lessons import (
    LAB_ENTRY,
    LAB_SANDBOX,
    LAB_TIME_LIMIT,
    LIVE_ENTRY,
    LIVE_SANDBOX,
    LIVE_TIME_LIMIT,
    LessonRun,
)
from loopcraft.course.cache import BuildCache
from loopcraft.course.cases import call_shown, case_key, expectation_text, expected_text, hidden_expectation, salt
from loopcraft.course.course import MISSING, Case, Exercise, Lesson, Track
from loopcraft.course.errors import BuildError
from loopcraft.running.grading import request_case

_FORMATTER = HtmlFormatter(cssclass="highlight", style="default")


@simplefilter
def _placeholders(_self, _lexer, stream, _options):
    """What the lexer cannot read in an author's code block is a placeholder of the prose's (`<value>`, `...` in
    JSON): shown in italics (Generic.Emph), not in the error style, red and boxed, of a syntax error."""
    for kind, value in stream:
        yield (Generic.Emph if kind in Error else kind), value


def _highlight_fence(code: str, lang: str, _attrs) -> str:
    try:
        lexer = get_lexer_by_name(lang) if lang else None
    except ClassNotFound:
        lexer = None
    if lexer is None:
        return ""  # markdown-it then escapes the code itself
    lexer.add_filter(_placeholders())
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
    return {
        path.relative_to(templates_dir).as_posix(): path.read_bytes()
        for path in sorted(templates_dir.rglob("*"))
        if path.is_file() and not path.name.startswith(".")
    }


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
        self.cache.put("template", self.cache.key("template", bucket.key, bucket.checksum), bucket.bytecode_to_string())


def make_environment(
    templates_dir: Path, templates: dict[str, bytes], cache: BuildCache | None = None
) -> jinja2.Environment:
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
    """The stylesheet for `class="highlight"` blocks, written to assets/highlight.css: light, and dark when
    the system asks for it (unless the learner chose light) or the learner chose dark (see style.css)."""
    dark = HtmlFormatter(style="github-dark")
    return "\n".join(
        [
            _FORMATTER.get_style_defs(".highlight"),
            "@media (prefers-color-scheme: dark) {",
            dark.get_style_defs(':root:not([data-theme="light"]) .highlight'),
            "}",
            dark.get_style_defs(':root[data-theme="dark"] .highlight'),
        ]
    )


def solution_key(ex_salt: str, cases: list[Case]) -> bytes:
    """The key of the published reference solution: SHA-256 of the salt and the JSON list of every case's
    expectation text (loopcraft/course/cases.py: what it expects, of every kind), hidden ones included. A run that passes
    every case gives exactly these, so the page can rebuild the key from the run's outcomes (frontend/src/
    solution.js); nothing published gives it away before that."""
    texts = ",".join(expectation_text(case) for case in cases)
    return hashlib.sha256(f"{ex_salt}[{texts}]".encode()).digest()


def published_cases(ex: Exercise) -> list:
    """The cases a page may carry in any form: all but the private ones."""
    return [case for case in ex.cases if not case.private]


def encrypt_solution(ex: Exercise, ex_salt: str) -> dict:
    """The reference solution, encrypted with AES-GCM under `solution_key` (of the published cases only: a run in
    the page never sees a private case), as base64 for the page."""
    key = solution_key(ex_salt, published_cases(ex))
    return {"salt": ex_salt, **_encrypt(key, ex.solution_source)}


def _encrypt(key: bytes, text: str) -> dict:
    """{iv, ciphertext} of AES-GCM, base64, for the page's WebCrypto (frontend/src/solution.js `decrypt`)."""
    plaintext = text.encode("utf-8")
    # Derived, not random, so that builds are reproducible; a different plaintext or key gives another nonce.
    iv = hashlib.sha256(b"loopcraft solution iv\0" + key + plaintext).digest()[:12]
    ciphertext = AESGCM(key).encrypt(iv, plaintext, None)
    return {"iv": base64.b64encode(iv).decode("ascii"), "ciphertext": base64.b64encode(ciphertext).decode("ascii")}


def challenge_url(ex: Exercise | Lesson) -> str:
    """URL of a challenge or lesson page relative to the site root."""
    return f"{ex.track}/{ex.slug}/"


def lab_url(track: Track) -> str:
    return f"{track.slug}/lab/"


LAB_TITLE = "The loop lab"
LAB_SUMMARY = "Four model habits against three loop designs, run live in your browser, and your own loop beside them."
LAB_MINUTES = 10
LAB_LOOP_ENTRY = "run_agent"  # what the lab calls in the learner's code (grader/lab.py)


@dataclasses.dataclass(frozen=True)
class LabItem:
    """The loop lab as the last item of its course (after the track's lessons and challenges): what the index's
    card, the previous page's "Up next" and the progress need of it. Its slug is `lab`, its page's folder."""

    track: str
    title: str = LAB_TITLE
    slug: str = "lab"
    kind: str = "lab"


def course_items(track: Track) -> list:
    """The numbered course: the track's lessons and challenges in order, then its lab when it has one."""
    return [*track.items, LabItem(track.slug)] if track.lab else list(track.items)


def kind_numbers(track: Track) -> dict[str, int]:
    """Each lesson's and challenge's number among its own kind, in course order: "challenge 4" is the course's
    fourth challenge, whatever lessons come between (numbered across both, a course of 13 challenges had a
    "Challenge 19")."""
    numbers, counts = {}, {Lesson: 0, Exercise: 0}
    for item in track.items:
        counts[type(item)] += 1
        numbers[item.slug] = counts[type(item)]
    return numbers


def lab_loops(track: Track) -> list[Exercise]:
    """The challenges whose saved code the lab can run as a fourth column: those the track's YAML names, and every
    other one written against the lab's sandbox as `run_agent` (the lab calls run_agent(task, script, max_steps)),
    in course order."""
    named = set(track.lab.loops)
    return [
        ex
        for ex in track.exercises
        if ex.slug in named or (ex.entry == LAB_LOOP_ENTRY and ex.sandbox_source == track.lab.world)
    ]


def challenge_path(ex: Exercise) -> str:
    return f"{ex.track}/{ex.slug}/index.html"


def index_context(tracks: list[Track]) -> dict:
    def card(item: Exercise | Lesson | LabItem, number: int | None) -> dict:
        if isinstance(item, LabItem):
            return {
                "slug": item.slug,
                "track": item.track,
                "number": None,
                "title": item.title,
                "summary": LAB_SUMMARY,
                "kind": "lab",
                "difficulty": None,
                "minutes": LAB_MINUTES,
                "url": challenge_url(item),
                "private": 0,
            }
        lesson = isinstance(item, Lesson)
        return {
            "slug": item.slug,
            "track": item.track,
            "number": number,
            "title": item.title,
            "summary": item.summary,
            "kind": "lesson" if lesson else "challenge",
            "difficulty": item.level if lesson else item.difficulty,
            "minutes": item.minutes,
            "url": challenge_url(item),
            # Cases only the instructor's grader runs: a "Solved" card says how many (index.js).
            "private": 0 if lesson else len(item.cases) - len(published_cases(item)),
        }

    def parts(track: Track) -> list[dict]:
        numbers = kind_numbers(track)
        listed = [
            {"title": part.title, "challenges": [card(item, numbers[item.slug]) for item in part.items]}
            for part in track.parts
        ]
        # The lab closes the course: the last item of its last part.
        if track.lab:
            listed[-1]["challenges"].append(card(LabItem(track.slug), None))
        return listed

    return {
        "site_root": "",
        "tracks": [
            {
                "slug": t.slug,
                "title": t.title,
                "summary": t.summary,
                "minutes": sum(item.minutes for item in t.items) + (LAB_MINUTES if t.lab else 0),
                "parts": parts(t),
                "challenges": [card(item, kind_numbers(t).get(item.slug)) for item in course_items(t)],
                "lessons": len(t.lessons),
                "lab": {"url": lab_url(t)} if t.lab else None,
            }
            for t in tracks
        ],
    }


def positional_parameters(signature: str) -> list[str]:
    """The names a call to `signature` (`run_agent(task, script, max_steps=5) -> dict`, and any prose after it) can
    give by position, in order: how "Try your own scenario" (frontend/src/scenario.js) names a positional argument.
    No name when the signature does not start as Python's: the learner then names every argument."""
    depth, head, signature = 0, None, signature.strip().removeprefix("def ")
    for at, char in enumerate(signature):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == ")" and depth == 0:
            head = signature[: at + 1]
            break
    try:
        (function,) = ast.parse(f"def {head}: pass").body
    except (SyntaxError, ValueError):
        return []
    return [arg.arg for arg in function.args.posonlyargs + function.args.args]


def inputs_text(inputs) -> str:
    """A page's inputs object as text, for its cache key: every field, nested dataclasses (the exercise and its
    cases) and paths included."""

    def fields(value) -> list | dict | str:
        if isinstance(value, Case):  # its values may be sets and have keys JSON has not
            return {**case_key(value, ""), "line": value.line}
        return list(vars(value).values()) if dataclasses.is_dataclass(value) else str(value)  # Path, MISSING

    return json.dumps(inputs, ensure_ascii=False, default=fields)


@dataclasses.dataclass(frozen=True)
class ChallengeInputs:
    """All a challenge page is made from. Its context is built from this object alone and its cache key is this
    object as text (inputs_text), so the key covers whatever the page shows. Of the track and the neighbours it
    keeps only what the page shows, so that editing one challenge re-renders few pages."""

    track_slug: str
    track_title: str
    ex: Exercise
    prev: tuple[str, str] | None  # (title, URL from the site root) of the previous challenge in the track
    next: tuple[str, str] | None
    builds_on: tuple[str, int, str] | None = None  # (slug, number in the course, title) of the challenge it starts from
    mistakes: tuple = ()  # the known mistakes the page may carry (page_mistakes)


def page_mistakes(catalogue, ex: Exercise) -> tuple:
    """What a page may carry of a challenge's known mistakes (loopcraft/authoring/mistakes.py `Catalogue`): each one's hint and
    fingerprints of the published cases it fails. A fingerprint that is the expected value of a hidden or private case
    (a wrong value on one case can be the right one of another) stays out, as would that value's digest: the page
    would hold it in plain text, or as the digest a hidden case has."""
    if catalogue is None:
        return ()
    published = {case.name for case in published_cases(ex)}
    secret = {canonical_json(case.expected) for case in ex.cases if case.hidden and case.expected is not MISSING}
    digests = {digest(catalogue.salt, value) for value in secret}
    # A visible case's fingerprint holds what the wrong solution printed (mistakes.did), which may be a hidden case's
    # expected text.
    secret_text = {json.dumps(case.stdout) for case in ex.cases if case.hidden and case.stdout is not None}
    shown = []
    for mistake in catalogue.known:
        cases = {
            name: case
            for name, case in mistake["cases"].items()
            if name in published
            and case.get("value") not in secret
            and case.get("digest") not in digests
            and not (case.get("printed") and case.get("value", "").partition("\nprinted ")[2] in secret_text)
        }
        if cases:
            shown.append({"hint": mistake["hint"], "cases": cases})
    return tuple(shown)


def challenge_inputs(
    track: Track, ex: Exercise, prev: Exercise | None, next_: Exercise | None, catalogue=None
) -> ChallengeInputs:
    def link(other: Exercise | None) -> tuple[str, str] | None:
        return (other.title, challenge_url(other)) if other else None

    builds_on = None
    if ex.builds_on:  # an earlier challenge of the track (loading checked it)
        item = next(x for x in track.items if x.slug == ex.builds_on.slug)
        builds_on = (item.slug, kind_numbers(track)[item.slug], item.title)
    mistakes = page_mistakes(catalogue, ex)
    return ChallengeInputs(track.slug, track.title, ex, link(prev), link(next_), builds_on, mistakes)


def challenge_context(inputs: ChallengeInputs) -> dict:
    ex = inputs.ex
    site_root = "../../"
    published = published_cases(ex)
    visible = [c for c in published if not c.hidden]
    ex_salt = salt(ex)

    def link(other: tuple[str, str] | None) -> dict | None:
        return {"title": other[0], "url": site_root + other[1]} if other else None

    # "Start from my code for challenge N" (app.js, start-from.js): only a challenge that builds on another has it.
    builds_on = dict(zip(("slug", "number", "title"), inputs.builds_on, strict=True)) if inputs.builds_on else None

    def page_case(case) -> dict:
        # As the host sends a case to the Node runner (grading.request_case), but a hidden case's expectation in the
        # hidden form: its digest. The page compares value texts; only Python writes them, so they match the worker's.
        data = request_case(case, ex.entry)
        if case.hidden:
            data["expect"] = hidden_expectation(case, ex_salt)
        return data

    return {
        "site_root": site_root,
        "track": {"slug": inputs.track_slug, "title": inputs.track_title},
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
            "examples": [
                {"name": c.name, "input_text": call_shown(c, ex.entry), "expected_text": expected_text(c)}
                for c in visible
            ],
            "hidden_count": len(published) - len(visible),
            "private_count": len(ex.cases) - len(published),
            "builds_on": builds_on,
        },
        "prev": link(inputs.prev),
        "next": link(inputs.next),
        "page_data": {
            "slug": ex.slug,
            "track": inputs.track_slug,
            "entry": ex.entry,
            "parameters": positional_parameters(ex.signature),
            "entry_kind": ex.entry_kind,
            "time_limit_seconds": ex.time_limit_seconds,
            "starter": ex.starter_source,
            "sandbox": ex.sandbox_source,
            "cases": [page_case(c) for c in published],
            "private_count": len(ex.cases) - len(published),
            "solution": encrypt_solution(ex, ex_salt),
        }
        | ({"builds_on": builds_on} if builds_on else {})
        | ({"mistakes": list(inputs.mistakes)} if inputs.mistakes else {}),
    }


_CALLOUTS = {"Note:": "note", "Watch out:": "warning"}


def _lesson_markdown() -> MarkdownIt:
    """Markdown of a lesson: `python live` fences become live blocks (env["blocks"] holds their build-time
    runs, in order), and a quote that starts with "Note:" or "Watch out:" becomes a callout."""
    md = MarkdownIt("commonmark", {"html": False, "highlight": _highlight_fence}).enable("table")

    def fence(renderer, tokens, idx, options, env):
        token = tokens[idx]
        if not token.info.strip().startswith("python live"):
            return renderer.fence(tokens, idx, options, env)
        number = env["count"] = env.get("count", -1) + 1
        run: dict = env["blocks"][number]
        env["codes"].append(token.content)
        return str(
            _LIVE_BLOCK.render(
                number=number,
                code=Markup(highlight(token.content, PythonLexer(), HtmlFormatter(nowrap=True))),
                run=run,
                raises=token.info.strip().endswith("raises"),
            )
        )

    def blockquote_open(renderer, tokens, idx, options, env):
        inline = tokens[idx + 2] if idx + 2 < len(tokens) else None
        for start, kind in _CALLOUTS.items():
            if inline is not None and inline.type == "inline" and inline.content.startswith(start):
                return f'<aside class="callout callout-{kind}" role="note">\n'
        return renderer.renderToken(tokens, idx, options, env)

    def blockquote_close(renderer, tokens, idx, options, env):
        depth, i = 0, idx
        while i >= 0:  # find the opening token: a callout closes as an aside
            depth += {"blockquote_close": 1, "blockquote_open": -1}.get(tokens[i].type, 0)
            if depth == 0:
                break
            i -= 1
        return (
            "</aside>\n"
            if blockquote_open(renderer, tokens, i, options, env).startswith("<aside")
            else renderer.renderToken(tokens, idx, options, env)
        )

    md.add_render_rule("fence", fence)
    md.add_render_rule("blockquote_open", blockquote_open)
    md.add_render_rule("blockquote_close", blockquote_close)
    return md


_LESSON_MARKDOWN = _lesson_markdown()
_LIVE_BLOCK = jinja2.Template(
    """\
<figure class="live-block" data-testid="live-block" data-block="{{ number }}">
  <figcaption class="live-head"><span class="live-title">Live Python{% if raises %} <span class="live-raises">raises on purpose</span>{% endif %}</span>
    <span class="live-actions"><button type="button" class="button button-primary" data-testid="run" disabled>Run</button>
    <button type="button" class="button live-stop" data-testid="stop" disabled>Stop</button>
    <button type="button" class="button" data-testid="reset">Reset</button></span></figcaption>
  <div class="live-editor" data-editor><pre class="highlight"><code>{{ code }}</code></pre></div>
  <div class="live-output" data-testid="output" aria-live="polite" data-state="recorded">
    <p class="live-note">Output recorded when this page was built. Run executes the code in your browser; nothing is sent to a server.</p>
    {% if run.output %}<pre class="live-printed">{{ run.output }}</pre>{% endif %}
    {% if run.value is not none %}<pre class="live-value">{{ run.value }}</pre>{% endif %}
    {% if run.error %}<pre class="live-error">{{ run.error }}</pre>{% endif %}
    {% if not run.output and run.value is none and not run.error %}<p class="live-empty">(no output)</p>{% endif %}
  </div>
</figure>
""",
    autoescape=True,
    undefined=jinja2.StrictUndefined,
)


def _question_salt(lesson: Lesson, number: int) -> str:
    return hashlib.sha256(
        f"{lesson.track}/{lesson.slug}#{number}\n{lesson.questions[number].prompt}\n{lesson.body}".encode()
    ).hexdigest()[:32]


def _question(lesson: Lesson, number: int, answer: str | None) -> tuple[dict, dict]:
    """(what the template shows, what the page checks with): the right options only as a salted digest, and
    each option's feedback encrypted under a key made from the salt and the option's number, so neither
    is plain in the page before the learner answers. The feedback carries whether its option is a right one,
    so that a right tick in a multiple answer that is not yet whole is shown as right (lesson.js)."""
    q = lesson.questions[number]
    q_salt = _question_salt(lesson, number)
    if q.kind == "output":
        options = [(o.text, o.feedback, False) for o in q.options]
        # The right output goes in at a place fixed by the salt, so it is not always first or last.
        at = int(q_salt[:8], 16) % (len(options) + 1)
        options.insert(at, (answer.rstrip("\n"), q.explanation, True))
    else:
        options = [(o.text, o.feedback, o.correct) for o in q.options]
    right = [i for i, (_, _, correct) in enumerate(options) if correct]
    shown = {
        "number": number,
        "kind": q.kind,
        "prompt_html": Markup(_MARKDOWN.renderInline(q.prompt)),
        "code_html": Markup(highlight(q.code, PythonLexer(), _FORMATTER)) if q.code else None,
        "options": [{"text": text, "html": Markup(_MARKDOWN.renderInline(text))} for text, _, _ in options],
    }
    check = {
        "kind": q.kind,
        "salt": q_salt,
        "digest": digest(q_salt, canonical_json(right)),
        "feedback": [
            _encrypt(
                hashlib.sha256(f"{q_salt}:{i}".encode()).digest(), json.dumps({"text": feedback, "right": correct})
            )
            for i, (_, feedback, correct) in enumerate(options)
        ],
    }
    return shown, check


def _position(track: Track, item) -> dict:
    """Where an item sits in its course: its number among its kind (of how many), and its part."""
    part = next(p for p, part in enumerate(track.parts, start=1) if any(x is item for x in part.items))
    return {
        "number": kind_numbers(track)[item.slug],
        "total": sum(isinstance(x, type(item)) for x in track.items),
        "part": part,
        "parts": len(track.parts),
        "part_title": track.parts[part - 1].title,
    }


@dataclasses.dataclass(frozen=True)
class LessonInputs:
    """All a lesson page is made from (see ChallengeInputs): its context is built from this alone."""

    track_slug: str
    track_title: str
    lesson: Lesson
    prev: tuple[str, str, str] | None  # (title, URL from the site root, kind) of the previous item of the course
    next: tuple[str, str, str] | None
    position: dict
    run: LessonRun


def lesson_inputs(track: Track, lesson: Lesson, prev, next_, run: LessonRun) -> LessonInputs:
    def link(other) -> tuple[str, str, str] | None:
        kind = "lesson" if isinstance(other, Lesson) else "lab" if isinstance(other, LabItem) else "challenge"
        return (other.title, challenge_url(other), kind) if other else None

    return LessonInputs(track.slug, track.title, lesson, link(prev), link(next_), _position(track, lesson), run)


def lesson_context(inputs: LessonInputs) -> dict:
    site_root = "../../"
    lesson, run = inputs.lesson, inputs.run
    env = {"blocks": [b.to_dict() for b in run.blocks], "codes": []}
    body_html = Markup(_LESSON_MARKDOWN.render(lesson.body, env))
    questions = [_question(lesson, i, answer) for i, answer in enumerate(run.answers)]

    def link(other: tuple[str, str, str] | None) -> dict | None:
        return {"title": other[0], "url": site_root + other[1], "kind": other[2]} if other else None

    return {
        "site_root": site_root,
        "track": {"slug": inputs.track_slug, "title": inputs.track_title},
        "lesson": {
            "slug": lesson.slug,
            "title": lesson.title,
            "summary": lesson.summary,
            "level": lesson.level,
            "minutes": lesson.minutes,
            "body_html": body_html,
            "questions": [q for q, _ in questions],
        },
        "position": inputs.position,
        "prev": link(inputs.prev),
        "next": link(inputs.next),
        "page_data": {
            "slug": lesson.slug,
            "track": inputs.track_slug,
            "time_limit_seconds": LIVE_TIME_LIMIT,
            "live": {"sandbox": LIVE_SANDBOX, "entry": LIVE_ENTRY},
            "blocks": [{"code": code} for code in env["codes"]],
            "questions": [check for _, check in questions],
        },
    }


def lab_context(track: Track) -> dict:
    site_root = "../../"
    last = track.items[-1]
    kind = "lesson" if isinstance(last, Lesson) else "challenge"
    return {
        "site_root": site_root,
        "track": {"slug": track.slug, "title": track.title},
        "prev": {"title": last.title, "url": site_root + challenge_url(last), "kind": kind},
        "page_data": {
            "track": track.slug,
            "slug": "lab",
            "time_limit_seconds": LAB_TIME_LIMIT,
            "world": track.lab.world,
            "sandbox": LAB_SANDBOX,
            "entry": LAB_ENTRY,
            "loops": [{"slug": ex.slug, "title": ex.title} for ex in lab_loops(track)],
        },
    }


def render_pages(
    templates_dir: Path,
    tracks: list[Track],
    asset_version: str,
    cache: BuildCache | None = None,
    lesson_runs: dict[tuple[str, str], LessonRun] | None = None,
    catalogues: dict | None = None,
) -> dict[str, str]:
    """Every page of the site, {path relative to the site root: HTML}. prev/next stay within a track. `catalogues`:
    each challenge's known mistakes by (track, slug) (loopcraft/authoring/mistakes.py; none when the build did not verify)."""
    templates = read_templates(templates_dir)
    env = make_environment(templates_dir, templates, cache)
    common = cache.key("templates", asset_version, *(x for item in templates.items() for x in item)) if cache else ""
    # {page: (template, the context's inputs as text, the context)}; the index's context is cheap, so it is its
    # own input, while a challenge's (Markdown, highlighting, encryption) is made only when the cache misses.
    index = index_context(tracks)
    jobs: dict[str, tuple[str, str, Callable[[], dict]]] = {
        "index.html": ("index.html", inputs_text(index), lambda: index),
        # Served for any unknown address, at any depth: its links start from the host's root.
        "404.html": ("404.html", "/", lambda: {"site_root": "/"}),
    }
    for track in tracks:
        items = track.items
        course = course_items(track)  # the lab, when there is one, follows the last challenge
        for i, ex in enumerate(items):
            prev, next_ = items[i - 1] if i else None, course[i + 1] if i + 1 < len(course) else None
            if isinstance(ex, Lesson):
                inputs = lesson_inputs(track, ex, prev, next_, (lesson_runs or {})[(track.slug, ex.slug)])
                jobs[challenge_path(ex)] = ("lesson.html", inputs_text(inputs), lambda c=inputs: lesson_context(c))
            else:
                inputs = challenge_inputs(track, ex, prev, next_, (catalogues or {}).get((track.slug, ex.slug)))
                jobs[challenge_path(ex)] = (
                    "challenge.html",
                    inputs_text(inputs),
                    lambda c=inputs: challenge_context(c),
                )
        if track.lab:
            lab = lab_context(track)
            jobs[f"{lab_url(track)}index.html"] = ("lab.html", inputs_text(lab), lambda c=lab: c)
    pages = {}
    for page, (template, text, context) in jobs.items():
        key = cache.key("page", common, page, template, text) if cache else ""
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
