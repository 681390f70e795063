"""The built-in demo deck (no --config): every scenario panel is on the page, drawn from real
server state, and says what it demonstrates and that its data is simulated; its one real panel
(StateDeck's own health) loads."""
from __future__ import annotations

from playwright.sync_api import expect

from helpers import panel, tid, wait_live
from polling import wait_for

# The real panel: StateDeck's own health, read in the process.
REAL = "statedeck"

# Panel id → what it demonstrates: the value of its "Demonstrates" field, before " · simulated".
SCENARIOS = {
    "photo": "Download states and their errors",
    "rating": "Toasts from an action's outcome",
    "connection": "Universal error view: no network",
    "backend": "Universal error view: server maintenance",
    "orders": "Universal error view: server error",
    "app-version": "Universal error view: update available",
    "app-version-required": "Universal error view: update required",
    "feed": "Retries with back-off",
    "storage": "Recovery options on the error card",
    "quick": "Minimum loading time",
    "profile": "Redacted placeholder while loading",
    "pokemon": "Per-item spinner while an action runs",
    "loading-material": "Loading presentation: material",
    "loading-horizontal": "Loading presentation: horizontal",
    "loading-vertical": "Loading presentation: vertical",
    "loading-over": "Loading presentation: over content",
    "loading-custom": "Loading presentation: custom",
}


def demonstrates(info: dict) -> str | None:
    """The value of the "Demonstrates" field of `info`, or None when it has none."""
    return next((f["value"] for f in info.get("fields") or [] if f["label"] == "Demonstrates"), None)


def recover(srv, state: dict) -> None:
    """Presses the error card's primary button (else its first that is not Dismiss), as a person
    would to bring the panel back; a press while one is still running answers 409 and is ignored."""
    card = state["latestValidError"]
    if not card or state["isLoading"]:
        return
    options = card["options"]
    choice = next((o for o in options if o["role"] == "primary"), None) \
        or next((o for o in options if o["id"] != "cancel"), None)
    if choice:
        srv.request("POST", f"/api/panels/{state['id']}/recover", {"option": choice["id"]})


def test_every_scenario_panel_is_on_the_page_and_says_what_it_demonstrates(make_server, new_context):
    srv = make_server(config="demo")
    page = new_context().new_page()
    page.goto(srv.url + "/")
    wait_live(page)
    expect(page.locator(tid("deck-title"))).to_contain_text("demo")

    # The deck is exactly the real panel and the scenarios, each drawn with the server's title.
    panels = {p["id"]: p for p in srv.state()["panels"]}
    assert set(panels) == {REAL, *SCENARIOS}
    for panel_id, state in panels.items():
        expect(panel(page, panel_id), SCENARIOS.get(panel_id, REAL)).to_be_visible()
        expect(panel(page, panel_id)).to_contain_text(state["title"])

    # Each scenario, once it shows info (brought back through its own error card when it starts
    # failing), says in the server's state and on the page what it demonstrates, and that its
    # data is simulated.
    waiting = dict(SCENARIOS)

    def all_shown() -> bool:
        for panel_id, what in list(waiting.items()):
            state = srv.panel(panel_id)
            if state["latestValidInfo"] is None:
                recover(srv, state)
                continue
            shown = demonstrates(state["latestValidInfo"])
            assert shown == f"{what} · simulated", f"{panel_id}: {state['latestValidInfo']}"
            expect(panel(page, panel_id).locator(tid("info")), what).to_contain_text(shown)
            del waiting[panel_id]
        return not waiting

    wait_for(all_shown, 90, lambda: f"never showed info: {sorted(waiting)}", every=0.3)

    # The real panel loads from the server itself.
    state = srv.wait_panel(REAL, lambda p: p["phase"] == "loaded", timeout=20)
    health = state["latestValidInfo"]
    assert health["summary"] == f"Serving at {srv.url}/"
    fields = {f["label"]: f["value"] for f in health["fields"]}
    assert fields["Memory"].endswith(" MiB resident") and float(fields["Memory"].split()[0]) > 1
    assert "Up for" in fields
    assert demonstrates(health) is None
    # Read again with this page's stream open.
    assert srv.request("POST", f"/api/panels/{REAL}/retry")[0] == 202
    srv.wait_panel(REAL, lambda p: any(f["label"] == "Open streams" and int(f["value"]) >= 1
                                       for f in p["latestValidInfo"]["fields"]), timeout=10)


def test_the_error_scenarios_draw_the_servers_card_with_their_own_buttons(make_server, new_context):
    srv = make_server(config="demo")
    page = new_context().new_page()
    page.goto(srv.url + "/")
    wait_live(page)
    # Storage fails until its Free space recovery ran.
    state = srv.wait_panel("storage", lambda p: p["phase"] == "error", timeout=20)
    assert state["latestValidError"]["kind"] == "outOfSpace"
    card = panel(page, "storage").locator(tid("error-card"))
    expect(card).to_have_attribute("data-kind", "outOfSpace")
    expect(card).to_contain_text("Out of space")
    expect(card).to_contain_text("Free space")
    expect(card).to_contain_text("Buy more space")
