"""axe-core (npm, a dev dependency) run inside a page under test: never shipped with the site, injected here.

from tests.browser.axe import assert_no_violations
assert_no_violations(page)   # every axe rule (WCAG 2.x A/AA and best practices) on the page as it is now
assert_no_violations_in_either_theme(page)   # the same in light, then axe's colour rules with the scheme dark
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


# The rules whose outcome a colour scheme can change: every colour follows the scheme (custom properties and media
# queries), nothing else does, so the other rules, run in light, hold in dark too and are not run again there.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def violations(page: Page, rules: list[str] | None = None) -> list[dict]:
    """axe's violations on the page as it is now (hidden parts are skipped, as axe does): of every rule, or of `rules`."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated, not added as a <script>: the site's Content-Security-Policy refuses inline scripts it does
        # not know, and DevTools' evaluation (what Playwright's evaluate is) is outside the page's policy.
        page.evaluate(_source() + "\n;true")
    return page.evaluate(
        """async (rules) => {
        const only = rules ? { runOnly: { type: "rule", values: rules } } : {};
        const { violations } = await axe.run(document, { resultTypes: ["violations"], ...only });
        return violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => ({ target: n.target.join(" "), summary: n.failureSummary })) }));
    }""",
        rules,
    )


def assert_no_violations(page: Page, where: str = "", rules: list[str] | None = None) -> None:
    found = violations(page, rules)
    if found:
        lines = [f"{len(found)} axe violation(s){' ' + where if where else ''} at {page.url}:"]
        for v in found:
            lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
            lines += [f"    {n['target']}: {n['summary']}".replace("\n", " ") for n in v["nodes"][:8]]
        raise AssertionError("\n".join(lines))


def assert_no_violations_in_either_theme(page: Page, where: str = "") -> None:
    """The page as it is now, in light and in dark: the system's colour scheme changed under it, as a learner's
    browser does. Every colour follows it at once (custom properties and media queries), so one walk through a
    page's states checks both themes: every rule in light, the colour rules (COLOUR_RULES) in dark; the page is
    left dark."""
    backgrounds = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        backgrounds.append(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        assert_no_violations(page, f"{where} in {scheme}".strip(), None if scheme == "light" else COLOUR_RULES)
    assert backgrounds[0] != backgrounds[1], f"the page did not change theme with the system's: {backgrounds}"
