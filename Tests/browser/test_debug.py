"""Debug controls: the dialog (triple-click, header button, panel button) and their absence without --debug."""
from __future__ import annotations

import json

from playwright.sync_api import expect

from helpers import panel, tid, wait_live


def test_triple_click_on_a_panel_opens_the_debug_dialog(server, open_page):
    page = open_page(server)
    beta = panel(page, "beta")
    dialog = page.locator(tid("debug-dialog"))
    expect(dialog).to_be_hidden()
    beta.locator(".panel-footer").click(click_count=3)
    expect(dialog).to_be_visible()
    expect(dialog.locator(tid("debug-panel"))).to_have_value("beta")

    # Force an error of a chosen kind from the dialog.
    dialog.locator(tid("debug-error-kind")).select_option("outOfSpace")
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/api/debug/panels/beta/state")) as req:
        dialog.locator(tid("debug-error")).click()
    assert json.loads(req.value.post_data or "{}") == {"state": "error", "error": {"kind": "outOfSpace"}}
    expect(beta.locator(tid("error-card"))).to_have_attribute("data-kind", "outOfSpace")
    expect(beta.locator(tid("debug-badge"))).to_be_visible()
    expect(dialog.locator(tid("debug-current"))).to_contain_text("error")

    # Loading, reset, modifying ids and live are sent the same way.
    for testid, body in [
        ("debug-loading", {"state": "loading"}),
        ("debug-reset", {"state": "reset"}),
        ("debug-loaded", {"state": "loaded"}),
        ("debug-live", {"state": "live"}),
    ]:
        with page.expect_request(lambda r: r.url.endswith("/api/debug/panels/beta/state")) as req:
            dialog.locator(tid(testid)).click()
        assert json.loads(req.value.post_data or "{}") == body
    dialog.locator(tid("debug-modifying")).fill("x, y")
    with page.expect_request(lambda r: r.url.endswith("/api/debug/panels/beta/state")) as req:
        dialog.locator(tid("debug-modifying-apply")).click()
    assert json.loads(req.value.post_data or "{}") == {"modifyingIds": ["x", "y"]}

    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def test_triple_click_on_a_control_does_not_open_the_dialog(server, open_page):
    page = open_page(server)
    server.force("alpha", {"state": "error", "error": {"kind": "unknown"}})
    alpha = panel(page, "alpha")
    expect(alpha.locator(tid("error-card"))).to_be_visible()
    alpha.locator(".panel-title").click(click_count=2)
    expect(page.locator(tid("debug-dialog"))).to_be_hidden()
    alpha.locator(tid("debug-badge")).click(click_count=3)
    expect(page.locator(tid("debug-dialog"))).to_be_visible()
    page.keyboard.press("Escape")
    details = alpha.locator(f"{tid('error-details')} summary")
    if details.count():
        details.click(click_count=3)
        expect(page.locator(tid("debug-dialog"))).to_be_hidden()


def test_debug_dialog_from_the_keyboard(server, open_page):
    page = open_page(server)
    opener = panel(page, "alpha").locator(tid("panel-debug"))
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.locator(tid("debug-dialog"))
    expect(dialog).to_be_visible()
    expect(dialog.locator(tid("debug-panel"))).to_be_focused()
    expect(dialog.locator(tid("debug-panel"))).to_have_value("alpha")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()


def test_without_debug_no_debug_control_exists(make_server, page):
    srv = make_server(debug=False)
    page.goto(srv.url + "/")
    wait_live(page)
    assert srv.state()["debug"] is False
    expect(page.locator("[data-testid^='debug']")).to_have_count(0)
    expect(page.locator(tid("panel-debug"))).to_have_count(0)
    expect(page.locator("dialog")).to_have_count(0)
    panel(page, "alpha").locator(".panel-footer").click(click_count=3)
    expect(page.locator("dialog")).to_have_count(0)
    assert page.evaluate("document.body.dataset.debug") is None
    # The server refuses the debug routes too.
    status, body = srv.request("POST", "/api/debug/panels/alpha/state", {"state": "loading"})
    assert status == 403 and body["error"]["code"] == "forbidden"


def test_debug_controls_come_once_their_module_loads_after_a_failed_load(server, page, open_page):
    # The server went away while the page loaded debug.js (a browser keeps a failed module import):
    # the page reports no problem, and loads the module again with the state it gets back.
    aborted = []

    def first_load_fails(route):
        if aborted:
            route.continue_()
        else:
            aborted.append(route.request.url)
            route.abort()

    page.route("**/debug.js*", first_load_fails)
    open_page(server)
    expect(panel(page, "alpha").locator(tid("panel-debug"))).to_have_count(0)
    assert aborted
    server.kill()
    expect(page.locator(tid("connection-banner"))).to_be_visible(timeout=5_000)
    server.restart()
    expect(page.locator(tid("connection-banner"))).to_be_hidden(timeout=20_000)
    expect(panel(page, "alpha").locator(tid("panel-debug"))).to_be_visible()
