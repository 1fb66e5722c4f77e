"""axe-core (npm, a dev dependency) run inside a page under test: never shipped with the site, injected here.

from tests.browser.axe import assert_no_violations
assert_no_violations(page)   # every axe rule (WCAG 2.x A/AA and best practices) on the page as it is now
assert_no_violations_in_either_theme(page)   # the same, with the system's colour scheme light, then dark
"""

from __future__ import annotations

from functools import cache

from playwright.sync_api import Page

from tests.helpers import ROOT

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


@cache
def _source() -> str:
    if not AXE.is_file():
        raise AssertionError(f"{AXE} is missing: run `npm ci` (axe-core is a dev dependency)")
    return AXE.read_text(encoding="utf-8")


def violations(page: Page) -> list[dict]:
    """axe's violations on the page as it is now (hidden parts are skipped, as axe does)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated, not added as a <script>: the site's Content-Security-Policy refuses inline scripts it does
        # not know, and DevTools' evaluation (what Playwright's evaluate is) is outside the page's policy.
        page.evaluate(_source() + "\n;true")
    return page.evaluate("""async () => {
        const { violations } = await axe.run(document, { resultTypes: ["violations"] });
        return violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => ({ target: n.target.join(" "), summary: n.failureSummary })) }));
    }""")


def assert_no_violations(page: Page, where: str = "") -> None:
    found = violations(page)
    if found:
        lines = [f"{len(found)} axe violation(s){' ' + where if where else ''} at {page.url}:"]
        for v in found:
            lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
            lines += [f"    {n['target']}: {n['summary']}".replace("\n", " ") for n in v["nodes"][:8]]
        raise AssertionError("\n".join(lines))


def assert_no_violations_in_either_theme(page: Page, where: str = "") -> None:
    """The page as it is now, in light and in dark: the system's colour scheme changed under it, as a learner's
    browser does. Every colour follows it at once (custom properties and media queries), so one walk through a
    page's states checks both themes; the page is left dark."""
    backgrounds = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        backgrounds.append(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        assert_no_violations(page, f"{where} in {scheme}".strip())
    assert backgrounds[0] != backgrounds[1], f"the page did not change theme with the system's: {backgrounds}"
