"""Screenshot tests: components drawn from fixed configurations and compared
with Tests/browser/reference/*.png within a small tolerance.

Update the references after an intended visual change (then look at them and commit them):
    UPDATE_SNAPSHOTS=1 Tests/browser/run.sh -k snapshot
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from fixtures import LOADING_KINDS, error_fixture, list_in_progress_fixture, loading_fixture, toast_fixture
from helpers import compare_snapshot, inject_panel, inject_toast, tid, wait_live, wait_revealed
from moments import ERROR_KINDS, MOMENTS_DIR, many_panels, write



@pytest.fixture
def snap_page(server, new_context, problems):
    """A page with fixed rendering settings: 1280×900 at 1×, light, reduced motion, UTC, en-US."""

    def make(color_scheme: str = "light") -> Page:
        ctx = new_context(color_scheme=color_scheme, reduced_motion="reduce")
        page = problems.watch(ctx.new_page())
        page.goto(server.url + "/")
        wait_live(page)
        page.mouse.move(0, 0)
        return page

    return make


def only(view: Locator) -> Locator:
    """Hides every other panel, so the fixture panel sits first in the grid, at the same place on
    every run whatever the server's own panels look like, and hides the toasts, which the server's
    panels may raise over it at any moment."""
    view.page.evaluate(
        """(id) => { for (const p of document.querySelectorAll('[data-testid=panel]'))
                       p.style.display = p.dataset.panelId === id ? '' : 'none';
                     document.getElementById('toast-host').style.visibility = 'hidden'; }""",
        view.get_attribute("data-panel-id"),
    )
    return view


def shoot(target: Locator, name: str) -> None:
    wait_revealed(target.page)
    png = target.screenshot(animations="disabled", caret="hide")
    compare_snapshot(png, name)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_snapshot_error_card(snap_page, scheme):
    page = snap_page(scheme)
    view = only(inject_panel(page, error_fixture()))
    expect(view.locator(tid("error-card"))).to_be_visible()
    shoot(view, f"error-card-{scheme}")


@pytest.mark.parametrize("kind", LOADING_KINDS)
def test_snapshot_loading_presentation(snap_page, kind):
    page = snap_page()
    view = only(inject_panel(page, loading_fixture(kind)))
    expect(view.locator(tid("loading"))).to_have_attribute("data-presentation", kind)
    shoot(view, f"loading-{kind}")


def test_snapshot_toast(snap_page):
    page = snap_page()
    toast = inject_toast(page, toast_fixture())
    expect(toast).to_be_visible()
    shoot(toast, "toast-success")


def test_snapshot_list_with_an_item_in_progress(snap_page):
    page = snap_page()
    view = only(inject_panel(page, list_in_progress_fixture()))
    expect(view.locator(tid("item-progress"))).to_be_visible()
    shoot(view, "list-item-in-progress")


# ---- the overview: a real deck without history (no timeline, whose slots follow the clock) -----------


@pytest.fixture
def overview_page(make_server, new_context, problems):
    """overview_page(path) → a page at `path` of the test deck, its panels in two groups, the server
    keeping no history; rendered as snap_page renders, the toasts hidden."""
    srv = make_server(args=["--data", "none"], grouped=True)
    srv.settle()

    def make(path: str = "/") -> Page:
        page = problems.watch(new_context(reduced_motion="reduce").new_page())
        page.goto(srv.url + path)
        expect(page.locator(tid("connection-status"))).to_have_attribute("data-state", "open")
        expect(page.locator("[data-nav]").first).to_be_attached()
        page.mouse.move(0, 0)
        page.evaluate("() => { document.getElementById('toast-host').style.visibility = 'hidden'; }")
        return page

    make.server = srv
    return make


def shoot_overview(target: Locator, name: str) -> None:
    """A screenshot with what follows the clock covered: each card's "since 10:42:03", and the slow
    command's row."""
    page = target.page
    wait_revealed(page)
    clocked = [page.locator(".updated"), page.locator(f"[data-panel-id='slow'] {tid('row-summary')}")]
    png = target.screenshot(animations="disabled", caret="hide", mask=clocked, mask_color="#888888")
    compare_snapshot(png, name)


def test_snapshot_summary_bar(overview_page):
    page = overview_page()
    overview_page.server.force("beta", {"state": "error", "error": {"kind": "timeout"}})
    expect(page.locator(tid("count-pinned"))).to_be_visible()
    shoot_overview(page.locator(tid("summary")), "overview-summary")


def test_snapshot_grouped_deck(overview_page):
    page = overview_page("/?collapsed=commands")
    expect(page.locator(tid("panel-row"))).to_have_count(1)
    expect(page.locator(tid("panel"))).to_have_count(2)
    shoot_overview(page.locator(tid("panels")), "overview-groups")


def test_snapshot_compact_view(overview_page):
    page = overview_page("/?density=compact&sort=problems")
    expect(page.locator(tid("panel-row"))).to_have_count(4)
    shoot_overview(page.locator(tid("panels")), "overview-compact")


def test_snapshot_filtered_search(overview_page):
    page = overview_page("/?q=beta")
    expect(page.locator(tid("panel"))).to_have_count(1)
    shoot_overview(page.locator("main"), "overview-search")


# ---- moments hard to reach, replayed from fixtures (Tests/browser/moments/, moments.py) -----------


@pytest.fixture
def moment_page(make_replay, new_context, problems):
    """moment_page(fixture_path, path="/") → a page of `statedeck --replay fixture_path`, rendered as
    snap_page renders, the toasts hidden."""

    def make(fixture: Path, path: str = "/") -> Page:
        srv = make_replay(fixture)
        page = problems.watch(new_context(reduced_motion="reduce").new_page())
        page.goto(srv.url + path)
        expect(page.locator(tid("connection-status"))).to_have_attribute("data-state", "open", timeout=60_000)
        expect(page.locator("[data-nav]").first).to_be_attached(timeout=60_000)
        page.mouse.move(0, 0)
        page.evaluate("() => { document.getElementById('toast-host').style.visibility = 'hidden'; }")
        return page

    return make


def shoot_moment(target: Locator | Page, name: str) -> None:
    """A screenshot of an element, or of a page's viewport, with each card's "since 10:42:03"
    covered: a moment's instants are fixed, but the recorded ones are recorded again now and then."""
    page = target if isinstance(target, Page) else target.page
    wait_revealed(page)
    png = target.screenshot(animations="disabled", caret="hide", mask=[page.locator(".updated")], mask_color="#888888")
    compare_snapshot(png, name)


def test_snapshot_every_error_kind(moment_page):
    page = moment_page(MOMENTS_DIR / "every-error-kind.json")
    expect(page.locator(tid("error-card"))).to_have_count(len(ERROR_KINDS))
    shoot_moment(page.locator(tid("panels")), "moment-every-error-kind")


def test_snapshot_an_incident_open_while_a_panel_is_down(moment_page):
    page = moment_page(MOMENTS_DIR / "incident-while-down.json")
    expect(page.locator(f"[data-panel-id='beta'] {tid('error-card')}")).to_be_visible()
    shoot_moment(page, "moment-incident-while-down")


def test_snapshot_an_incident_open_while_a_panel_is_down_after_the_leader_is_killed(moment_page):
    page = moment_page(MOMENTS_DIR / "incident-mid-failover.json")
    expect(page.locator(f"[data-panel-id='flaky'] {tid('error-card')}")).to_be_visible()
    shoot_moment(page, "moment-incident-mid-failover")

def test_snapshot_ten_thousand_panels_three_hundred_down(moment_page, tmp_path):
    recorded = json.loads((MOMENTS_DIR / "every-error-kind.json").read_text())
    fixture = write(many_panels(recorded, count=10_000, failing=300), tmp_path / "many.json")
    page = moment_page(fixture, "/?density=compact&sort=problems")
    expect(page.locator(tid("count-failing"))).to_contain_text("300", timeout=60_000)
    shoot_moment(page.locator(tid("summary")), "moment-10000-panels-summary")
    shoot_moment(page, "moment-10000-panels-compact")
