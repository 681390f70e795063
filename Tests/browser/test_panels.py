"""Panels against the real server: first load, forced errors, recovery, item progress."""
from __future__ import annotations

import json

from playwright.sync_api import expect

from fixtures import panel_state, LIST_INFO
from conftest import flag_path
from helpers import inject_panel, panel, record_toast_times, tid

KNOWN_ICONS = {"alert", "wifi-off", "clock", "server", "wrench", "search", "lock", "file-warning", "terminal",
               "hard-drive", "download"}


def test_first_load_shows_the_skeleton_then_the_info(make_server, page):
    srv = make_server(slow_seconds=3)
    page.goto(srv.url + "/")
    slow = panel(page, "slow")
    # While the first load runs: the initial-loading presentation over the skeleton.
    expect(slow).to_have_attribute("data-view", "initial-loading", timeout=5_000)
    expect(slow.locator(tid("skeleton"))).to_be_visible()
    expect(slow.locator(tid("loading-indicator"))).to_be_visible(timeout=2_000)
    # Then the loaded view, and no skeleton any more.
    expect(slow).to_have_attribute("data-view", "loaded", timeout=20_000)
    expect(slow.locator(tid("info"))).to_be_visible()
    expect(slow.locator(tid("skeleton"))).to_have_count(0)
    expect(slow.locator(tid("loading"))).to_have_count(0)


def test_the_card_shows_the_newest_load_time_from_its_own_field(server, open_page):
    page = open_page(server)
    slow = panel(page, "slow")
    expect(slow).to_have_attribute("data-view", "loaded", timeout=20_000)
    load_ms = server.panel("slow")["loadMs"]
    assert isinstance(load_ms, int) and load_ms >= 1000, load_ms  # the command sleeps a second
    expect(slow.locator(tid("load-time"))).to_have_text(f"took {load_ms / 1000:.1f} s")
    assert "took" not in slow.locator(tid("info")).inner_text(), "the load time is not part of the info"
    # A change carries the newest load time; the card draws it with the change.
    inject_panel(page, {"id": "slow", "phase": "loaded", "loadMs": 7})
    expect(slow.locator(tid("load-time"))).to_have_text("took 7 ms")
    inject_panel(page, {"id": "slow", "phase": "initial", "latestValidInfo": None, "latestInfo": None,
                        "loadMs": None})
    expect(slow.locator(tid("load-time"))).to_have_text("")


def test_forced_error_shows_the_card_with_the_right_title_and_buttons(server, open_page):
    page = open_page(server)
    alpha = panel(page, "alpha")
    # Every kind the server's catalogue has, as the state document's settings list them.
    kinds = server.state()["settings"]["errorKinds"]
    assert {"noNetwork", "checkFailed", "pingMissed", "certificateUntrusted", "unknown"} <= set(kinds), kinds
    for kind in kinds:
        state = server.force("alpha", {"state": "error", "error": {"kind": kind}})
        card = state["latestValidError"]
        assert card and card["kind"] == kind, state
        view = alpha.locator(tid("error-card"))
        expect(view).to_have_attribute("data-kind", kind)
        expect(alpha).to_have_attribute("data-view", "error")
        expect(view.locator(tid("error-title"))).to_have_text(card["title"])
        if card.get("description"):
            expect(view.locator(tid("error-description"))).to_have_text(card["description"])
        icon = card["icon"] if card["icon"] in KNOWN_ICONS else "alert"
        expect(view.locator(f"{tid('error-icon')} svg")).to_have_attribute("data-icon", icon)
        options = card["options"]
        primary = next((o for o in options if o["role"] == "primary"), None)
        secondary = next((o for o in options if o["role"] in ("secondary", "cancel")), None)
        further = [o for o in options if o is not primary and o is not secondary]
        if primary:
            expect(view.locator(tid("error-primary"))).to_have_text(primary["label"])
        else:
            expect(view.locator(tid("error-primary"))).to_have_count(0)
        if secondary:
            expect(view.locator(tid("error-secondary"))).to_have_text(secondary["label"])
        else:
            expect(view.locator(tid("error-secondary"))).to_have_count(0)
        expect(view.locator(tid("error-option"))).to_have_text([o["label"] for o in further])
        if card.get("detail"):
            details = view.locator(tid("error-details"))
            expect(details).to_be_visible()
            expect(details.locator("pre")).to_be_hidden()
    # A debug-forced panel carries the visible "debug" badge.
    expect(alpha.locator(tid("debug-badge"))).to_be_visible()
    server.force("alpha", {"state": "live"})
    expect(alpha.locator(tid("debug-badge"))).to_have_count(0, timeout=10_000)


def test_primary_button_shows_the_preloader_then_the_info_and_a_success_toast(server, open_page):
    page = open_page(server)
    # "flaky" really fails (its command exits 1 until the flag file exists): a real error card.
    state = server.wait_panel("flaky", lambda p: p["phase"] == "error", timeout=20)
    primary = next(o for o in state["latestValidError"]["options"] if o["role"] == "primary")
    flaky = panel(page, "flaky")
    expect(flaky).to_have_attribute("data-view", "error")
    expect(flaky.locator(tid("error-primary"))).to_have_text(primary["label"])
    flag_path(server).touch()
    record_toast_times(page)

    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/api/panels/flaky/recover")) as req:
        flaky.locator(tid("error-primary")).click()
    assert json.loads(req.value.post_data or "{}") == {"option": primary["id"]}

    # The command takes a second: the card's preloader or the loading-after-error indicator shows.
    working = flaky.locator(f"{tid('error-preloader')}, {tid('loading-indicator')}")
    expect(working.first).to_be_visible(timeout=5_000)
    expect(flaky).to_have_attribute("data-view", "loaded", timeout=20_000)
    expect(flaky.locator(tid("info"))).to_be_visible()
    toast = page.locator(tid("toast"))
    expect(toast).to_have_attribute("data-style", "success", timeout=5_000)


def test_items_in_modifying_ids_show_a_spinner_in_place_of_their_actions(server, open_page):
    page = open_page(server)
    server.force("beta", {"state": "loaded", "info": LIST_INFO})
    beta = panel(page, "beta")
    expect(beta.locator(tid("item"))).to_have_count(3)
    server.force("beta", {"modifyingIds": ["reindex"]})
    busy = beta.locator(f"{tid('item')}[data-item-id='reindex']")
    expect(busy.locator(tid("item-progress"))).to_be_visible()
    expect(busy.locator(tid("item-action"))).to_have_count(0)
    idle = beta.locator(f"{tid('item')}[data-item-id='nightly']")
    expect(idle.locator(tid("item-action"))).to_have_text(["Run now"])
    server.force("beta", {"modifyingIds": []})
    expect(busy.locator(tid("item-action"))).to_have_text(["Cancel"])


def test_a_failed_call_shows_the_server_error_message_as_an_error_toast(server, open_page):
    page = open_page(server)
    # A panel the server does not know: the action call answers 404 in PROTOCOL's error shape.
    fx = inject_panel(page, panel_state("fx-unknown", "Ghost", ["loading", "loaded"], info=LIST_INFO))
    with page.expect_response(lambda r: "/api/panels/fx-unknown/items/nightly/actions/run" in r.url) as res:
        fx.locator(f"{tid('item')}[data-item-id='nightly'] {tid('item-action')}").click()
    assert res.value.status == 404
    body = res.value.json()
    toast = page.locator(tid("toast"))
    expect(toast).to_have_attribute("data-style", "error")
    expect(toast.locator(tid("toast-message"))).to_have_text(body["error"]["message"])


def test_refresh_button_posts_a_retry(server, open_page):
    page = open_page(server)
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/api/panels/alpha/retry")):
        panel(page, "alpha").locator(tid("panel-refresh")).click()
