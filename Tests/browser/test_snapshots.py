"""Screenshot tests: components drawn from fixed configurations and compared
with Tests/browser/reference/*.png within a small tolerance.

Update the references after an intended visual change (then look at them and commit them):
    UPDATE_SNAPSHOTS=1 Tests/browser/run.sh -k snapshot
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from fixtures import LOADING_KINDS, error_fixture, list_in_progress_fixture, loading_fixture, toast_fixture
from helpers import compare_snapshot, inject_panel, inject_toast, tid, wait_live, wait_revealed



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
