"""Toasts: lifetime, replacement and re-arming (from the real server's toasts, then from fixtures),
pause on hover and focus, Esc, close, action, position."""
from __future__ import annotations

import time

from playwright.sync_api import Page, expect

from fixtures import toast_fixture
from helpers import inject_toast, panel, record_toast_times, tid, toast_gone_at, toast_log


def paused_page(server, page: Page, open_page) -> Page:
    """The dashboard live on a page whose timers run only when the test moves Playwright's clock, so
    a toast's lifetime is measured exactly, in page time, with no sleep in the test."""
    page.clock.install()
    open_page(server, page)
    page.mouse.move(5, 5)
    # Half a second ahead: pausing at a time the page has already passed is an error, and a loaded
    # machine can take longer than a few milliseconds between the two calls.
    page.clock.pause_at(page.evaluate("Date.now()") / 1_000 + 0.5)  # seconds since 1970
    return page


def server_toast(server, page: Page, panel_id: str) -> dict:
    """Makes the server raise a success toast (error → loaded on a panel, forced through the debug
    API) and returns the page's log entry for it."""
    server.force(panel_id, {"state": "error", "error": {"kind": "serverError"}})
    page.clock.run_for(600)  # past any loading indicator the card still holds on screen
    # The page draws on its (paused) clock: on a loaded machine the event can come after those
    # 600 ms, so the clock moves on in small steps until the card is drawn, 900 ms at most.
    for _ in range(9):
        if panel(page, panel_id).get_attribute("data-view") == "error":
            break
        time.sleep(0.1)
        page.clock.run_for(100)
    expect(panel(page, panel_id)).to_have_attribute("data-view", "error")
    before = len(toast_log(page))
    server.force(panel_id, {"state": "loaded"})
    page.wait_for_function(
        "(before) => window.__toastLog.slice(before).some((e) => e.kind === 'shown' && e.style === 'success')", arg=before
    )
    return next(e for e in toast_log(page)[before:] if e["kind"] == "shown" and e["style"] == "success")


def test_server_toast_disappears_after_its_duration_and_not_before(server, page, open_page):
    page = paused_page(server, page, open_page)
    record_toast_times(page)
    shown = server_toast(server, page, "alpha")
    duration = shown["duration"]
    assert duration == server.state()["settings"]["toast"]["durationMs"]
    toast = page.locator(f"{tid('toast')}[data-toast-id='{shown['id']}']")
    page.clock.run_for(duration - 1)
    expect(toast).to_be_visible()
    page.clock.run_for(1)
    expect(toast).to_have_count(0)
    assert toast_gone_at(page, shown) - shown["at"] == duration


def test_newer_server_toast_replaces_the_older_and_rearms_the_timer(server, page, open_page):
    page = paused_page(server, page, open_page)
    record_toast_times(page)
    first = server_toast(server, page, "alpha")
    page.clock.run_for(first["duration"] // 2)
    second = server_toast(server, page, "beta")
    assert second["id"] != first["id"]
    toasts = page.locator(tid("toast"))
    expect(toasts).to_have_count(1)
    expect(toasts).to_have_attribute("data-toast-id", second["id"])
    # Past the first toast's end, the second is still there: the timer was re-armed.
    page.clock.run_for(second["duration"] - 1)
    expect(toasts).to_have_attribute("data-toast-id", second["id"])
    page.clock.run_for(1)
    expect(toasts).to_have_count(0)
    assert toast_gone_at(page, second) - second["at"] == second["duration"]


def test_fixture_toasts_replace_and_rearm_exactly(server, page, open_page):
    page = paused_page(server, page, open_page)
    record_toast_times(page)
    inject_toast(page, toast_fixture(id="a", message="First", durationMs=1_500, action=None))
    page.clock.run_for(800)
    inject_toast(page, toast_fixture(id="b", message="Second", style="error", durationMs=1_500, action=None))
    toast = page.locator(tid("toast"))
    expect(toast).to_have_count(1)
    expect(toast.locator(tid("toast-message"))).to_have_text("Second")
    page.clock.run_for(1_499)  # 2.3 s after the first: it would be gone, the second is not
    expect(toast.locator(tid("toast-message"))).to_have_text("Second")
    page.clock.run_for(1)
    expect(toast).to_have_count(0)
    shown_b = next(e for e in toast_log(page) if e["kind"] == "shown" and e["id"] == "b")
    assert toast_gone_at(page, shown_b) - shown_b["at"] == 1_500
    # The server updates a toast in place under the same id ("API: Timed out" → "API is back"):
    # redrawn and re-armed.
    inject_toast(page, toast_fixture(id="c", message="API: Timed out", style="error", durationMs=1_000, action=None))
    page.clock.run_for(600)
    inject_toast(page, toast_fixture(id="c", message="API is back", durationMs=1_000, action=None))
    expect(toast).to_have_count(1)
    expect(toast.locator(tid("toast-message"))).to_have_text("API is back")
    expect(toast).to_have_attribute("data-style", "success")
    page.clock.run_for(999)  # 1.6 s after the first: re-armed, still there
    expect(toast).to_have_count(1)
    page.clock.run_for(1)
    expect(toast).to_have_count(0)
    # The same toast again in a state document (a reconnect, another tab) is not news: not re-armed.
    inject_toast(page, toast_fixture(id="d", message="Once", durationMs=1_000, action=None))
    page.clock.run_for(600)
    page.evaluate(
        """async () => { const m = await import('/store.js');
                         m.store.applySnapshot({ ...m.store.toSnapshot(), toast: m.store.toast }, { authoritative: true }); }"""
    )
    page.clock.run_for(400)
    expect(toast).to_have_count(0)


def test_a_toast_without_a_duration_stays_until_dismissed(server, page, open_page):
    page = paused_page(server, page, open_page)
    toast = inject_toast(page, toast_fixture(id="forever", message="Stays", durationMs=0, action=None))
    page.clock.run_for(60_000)
    expect(toast).to_be_visible()
    expect(toast.locator(".toast-progress")).to_have_count(0)
    toast.locator(tid("toast-close")).click()
    expect(toast).to_have_count(0)


def test_toast_pauses_while_hovered_or_focused(server, page, open_page):
    page = paused_page(server, page, open_page)
    toast = inject_toast(page, toast_fixture(id="h", message="Hover me", durationMs=1_000, action=None))
    toast.hover()
    page.clock.run_for(1_500)
    expect(toast).to_be_visible()
    page.mouse.move(5, 5)
    page.clock.run_for(1_000)
    expect(toast).to_have_count(0)

    toast = inject_toast(page, toast_fixture(id="f", message="Focus me", durationMs=1_000, action=None))
    toast.locator(tid("toast-close")).focus()
    page.clock.run_for(1_500)
    expect(toast).to_be_visible()
    page.locator(tid("deck-title")).click()  # focus leaves the toast
    page.clock.run_for(1_000)
    expect(toast).to_have_count(0)


def test_toast_pauses_while_the_tab_is_hidden(server, page, open_page):
    page = paused_page(server, page, open_page)
    toast = inject_toast(page, toast_fixture(id="v", message="Hidden tab", durationMs=800, action=None))
    page.evaluate(
        """() => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        document.dispatchEvent(new Event('visibilitychange'));
      }"""
    )
    page.clock.run_for(1_300)
    expect(toast).to_be_visible()
    page.evaluate(
        """() => {
        delete document.hidden; delete document.visibilityState;
        document.dispatchEvent(new Event('visibilitychange'));
      }"""
    )
    page.clock.run_for(800)
    expect(toast).to_have_count(0)


def test_escape_and_close_button_dismiss(server, open_page):
    page = open_page(server)
    toast = inject_toast(page, toast_fixture(id="e1", message="Press Esc"))
    expect(toast).to_be_visible()
    page.keyboard.press("Escape")
    expect(toast).to_have_count(0)
    toast = inject_toast(page, toast_fixture(id="e2", message="Click close"))
    toast.locator(tid("toast-close")).click()
    expect(toast).to_have_count(0)


def test_toast_action_posts_the_recovery_option_and_dismisses(server, open_page):
    page = open_page(server)
    state = server.wait_panel("flaky", lambda p: p["phase"] == "error", timeout=20)  # a real error card
    option = next(o for o in state["latestValidError"]["options"] if o["role"] == "primary")
    toast = inject_toast(page, toast_fixture(id="act", panelId="flaky", action={"id": option["id"], "label": "Retry"}))
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/api/panels/flaky/recover")) as res:
        toast.locator(tid("toast-action")).click()
    assert res.value.request.post_data_json == {"option": option["id"]}
    assert res.value.status == 202
    expect(page.locator(f"{tid('toast')}[data-toast-id='act']")).to_have_count(0)


def test_toast_position_and_live_regions(server, open_page):
    page = open_page(server)
    inject_toast(page, toast_fixture(id="top", message="On top", position="top"))
    box = page.locator(tid("toast")).bounding_box()
    assert box and box["y"] < 200, box
    assert page.locator(tid("toast")).get_attribute("data-position") == "top"
    expect(page.locator(tid("live-polite"))).to_have_text("On top")
    inject_toast(page, toast_fixture(id="bottom", message="Something failed", style="error", position="bottom"))
    box = page.locator(tid("toast")).bounding_box()
    assert box and box["y"] > 600, box
    # Errors are announced assertively.
    expect(page.locator(tid("live-assertive"))).to_have_text("Something failed")


def test_toast_is_drawn_above_an_open_dialog(server, open_page):
    page = open_page(server)
    page.locator(tid("debug-open")).click()
    dialog = page.locator(tid("debug-dialog"))
    expect(dialog).to_be_visible()
    toast = inject_toast(page, toast_fixture(id="over", message="Above the dialog"))
    # The toast sits in the top layer above the modal dialog: it is the element hit at its centre,
    # and its close button can be clicked while the dialog stays open.
    box = toast.bounding_box()
    assert box
    hit = page.evaluate(
        "([x, y]) => { const el = document.elementFromPoint(x, y); return el && el.closest('[data-testid=toast]') !== null; }",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert hit, "the toast is covered by the dialog"
    toast.locator(tid("toast-close")).click()
    expect(toast).to_have_count(0)
    expect(dialog).to_be_visible()
