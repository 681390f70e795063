"""Accessibility of the main page: axe-core (shipped by the axe-playwright-python wheel, so it
installs from PyPI with no network at run time) plus checks of our own: every button has an accessible
name, the live regions exist from page load, focus order follows the page, focus is visible, the
debug dialog traps focus, and the deck-wide timeline and a past moment's banner pass axe too."""
from __future__ import annotations

import re
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from fixtures import error_fixture, list_in_progress_fixture, loading_fixture, toast_fixture
from helpers import inject_panel, inject_toast, panel, tid, wait_revealed

# Colour contrast is judged by people, not by this test.
AXE_OPTIONS = {"rules": {"color-contrast": {"enabled": False}}, "resultTypes": ["violations"]}


def run_axe(page: Page, context: str | None = None) -> list[dict]:
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:  # pragma: no cover - requirements.txt installs it
        pytest.skip("axe-playwright-python is not installed")
    results = Axe().run(page, context=context, options=AXE_OPTIONS)
    return results.response["violations"]


def describe(violations: list[dict]) -> str:
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(n["html"][:160] for n in v["nodes"][:5])
        for v in violations
    )


def busy_page(page: Page) -> None:
    """Draws every kind of content the page has, so the checks see them all."""
    inject_panel(page, error_fixture())
    inject_panel(page, list_in_progress_fixture())
    inject_panel(page, loading_fixture("material"))
    inject_panel(page, loading_fixture("custom"))
    inject_toast(page, toast_fixture())


def test_axe_finds_no_violations(server, open_page):
    page = open_page(server)
    busy_page(page)
    wait_revealed(page)
    violations = run_axe(page)
    assert not violations, describe(violations)


def test_axe_finds_no_violations_in_the_debug_dialog(server, open_page):
    page = open_page(server)
    page.locator(tid("debug-open")).click()
    expect(page.locator(tid("debug-dialog"))).to_be_visible()
    violations = run_axe(page, context="[data-testid=debug-dialog]")
    assert not violations, describe(violations)


def test_every_button_has_an_accessible_name(server, open_page):
    page = open_page(server)
    busy_page(page)
    server.force("alpha", {"state": "error", "error": {"kind": "outOfSpace"}})
    expect(panel(page, "alpha")).to_have_attribute("data-view", "error")
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll('button, [role=button], summary, a[href], select, input, textarea')]
          .filter(el => {
            const labelledby = (el.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean)
              .map(id => document.getElementById(id)?.textContent || '').join('');
            const labels = el.labels ? [...el.labels].map(l => l.textContent).join('') : '';
            const name = (el.getAttribute('aria-label') || labelledby || labels || el.textContent || el.getAttribute('title') || '').trim();
            return !name;
          })
          .map(el => el.outerHTML.slice(0, 200))"""
    )
    assert not unnamed, "buttons without a name:\n" + "\n".join(unnamed)
    # The browser's own accessibility tree agrees: no unnamed button.
    tree = page.locator("body").aria_snapshot()
    assert not re.search(r"^\s*- button\s*(\[[^\]]*\])?:?\s*$", tree, re.M), tree


def test_live_regions_exist_from_page_load(server, page):
    with urllib.request.urlopen(server.url + "/") as res:
        html = res.read().decode()
    status = re.search(r"<div[^>]*data-testid=\"live-polite\"[^>]*>", html)
    alert = re.search(r"<div[^>]*data-testid=\"live-assertive\"[^>]*>", html)
    assert status and 'role="status"' in status.group(0), "no role=status region in index.html"
    assert alert and 'role="alert"' in alert.group(0), "no role=alert region in index.html"
    assert status and 'aria-live="polite"' in status.group(0), "no polite role=status region in index.html"
    assert alert and 'aria-live="assertive"' in alert.group(0), "no assertive role=alert region in index.html"
    page.goto(server.url + "/")
    region = page.locator(tid("live-polite"))
    expect(region).to_have_attribute("role", "status")
    # its host is shown (a popover in the top layer), so the region is in the accessibility tree
    assert page.locator(tid("toast-host")).evaluate("el => el.matches(':popover-open')")


def focus_walk(page: Page, steps: int, stop_on_wrap: bool = False) -> list[dict]:
    """Presses Tab `steps` times and describes each focused element (stopping when focus comes back
    to an element already visited, if asked)."""
    seen = []
    for _ in range(steps):
        page.keyboard.press("Tab")
        seen.append(
            page.evaluate(
                """() => {
                const el = document.activeElement;
                const panel = el.closest('[data-testid=panel]');
                const dialog = el.closest('dialog');
                const cs = getComputedStyle(el);
                const again = !!el.__walked; el.__walked = true;
                return { again, tag: el.tagName, testid: el.dataset.testid || '', text: (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40),
                         panel: panel ? [...document.querySelectorAll('[data-testid=panel]')].indexOf(panel) : -1,
                         inDialog: !!dialog, outline: cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0 };
              }"""
            )
        )
        if stop_on_wrap and (seen[-1]["again"] or seen[-1]["tag"] == "BODY"):
            seen.pop()
            break
    return seen


def test_axe_finds_no_violations_in_the_timeline_at_a_past_moment(server, open_page):
    page = open_page(server)
    page.locator(tid("travel-open")).click()
    expect(page.locator(tid("travel-scrubber"))).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(page.locator(tid("moment-banner"))).to_be_visible()
    expect(page.locator(tid("travel-change")).first).to_be_visible()
    for context in ("[data-testid=travel]", "[data-testid=moment-banner]"):
        violations = run_axe(page, context=context)
        assert not violations, describe(violations)


def test_focus_order_follows_the_page_and_focus_is_visible(server, open_page):
    page = open_page(server)
    server.force("beta", {"state": "error", "error": {"kind": "timeout"}})
    expect(panel(page, "beta")).to_have_attribute("data-view", "error")
    walk = focus_walk(page, 60, stop_on_wrap=True)
    assert walk[0]["testid"] == "" and walk[0]["tag"] == "A", walk[0]  # the skip link comes first
    header = [w for w in walk[: next(i for i, w in enumerate(walk) if w["panel"] >= 0)]]
    assert any(w["testid"] == "debug-open" for w in header), header
    panels_seen = [w["panel"] for w in walk if w["panel"] >= 0]
    assert panels_seen == sorted(panels_seen), f"focus went back to an earlier panel: {panels_seen}"
    assert len(set(panels_seen)) >= 3, panels_seen
    for w in walk:
        assert w["outline"], f"no visible focus on {w}"
    # The error card's buttons are reachable and work from the keyboard.
    primary = panel(page, "beta").locator(tid("error-primary"))
    primary.focus()
    with page.expect_request(lambda r: r.url.endswith("/api/panels/beta/recover")):
        page.keyboard.press("Enter")


def test_debug_dialog_traps_focus(server, open_page):
    page = open_page(server)
    opener = page.locator(tid("debug-open"))
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.locator(tid("debug-dialog"))
    expect(dialog).to_be_visible()
    forward = focus_walk(page, 30)
    assert all(w["inDialog"] for w in forward), [w for w in forward if not w["inDialog"]]
    backward = []
    for _ in range(30):
        page.keyboard.press("Shift+Tab")
        backward.append(page.evaluate("() => !!document.activeElement.closest('dialog')"))
    assert all(backward)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()
