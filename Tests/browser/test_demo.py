"""The built-in demo deck (no --config): every seed scenario is on the page, drawn from real
server state, and its one real panel (StateDeck's own health) loads."""
from __future__ import annotations

from playwright.sync_api import expect

from helpers import panel, tid, wait_live

# Panel id → the seed article whose idea it shows.
SCENARIOS = {
    "statedeck": "real: the dashboard's own health",
    "photo": "001 photo download",
    "rating": "000 rating a movie",
    "connection": "002 no network",
    "backend": "002 backend maintenance",
    "orders": "002 server error",
    "app-version": "002 update available",
    "app-version-required": "002 update required",
    "feed": "003 feed answering 500",
    "storage": "003 out of space",
    "quick": "003 minimum request time",
    "profile": "004 redacted placeholder",
    "pokemon": "004 list with Remove",
    "loading-material": "004 material", "loading-horizontal": "004 horizontal",
    "loading-vertical": "004 vertical", "loading-over": "004 over content", "loading-custom": "004 custom",
}


def test_the_demo_deck_shows_every_seed_scenario(make_server, new_context):
    srv = make_server(config="demo")
    page = new_context().new_page()
    page.goto(srv.url + "/")
    wait_live(page)
    expect(page.locator(tid("deck-title"))).to_contain_text("demo")
    for panel_id in SCENARIOS:
        expect(panel(page, panel_id), SCENARIOS[panel_id]).to_be_visible()
    # The real panel loads from the server itself.
    state = srv.wait_panel("statedeck", lambda p: p["phase"] == "loaded", timeout=20)
    health = state["latestValidInfo"]
    assert health["summary"] == f"Serving at {srv.url}/"
    fields = {f["label"]: f["value"] for f in health["fields"]}
    assert fields["Memory"].endswith(" MiB resident") and float(fields["Memory"].split()[0]) > 1
    assert "Up for" in fields
    # Read again with this page's stream open.
    assert srv.request("POST", "/api/panels/statedeck/retry")[0] == 202
    srv.wait_panel("statedeck", lambda p: any(f["label"] == "Open streams" and int(f["value"]) >= 1
                                              for f in p["latestValidInfo"]["fields"]), timeout=10)
    # The error scenarios draw the server's card with their own buttons.
    srv.wait_panel("storage", lambda p: p["phase"] == "error", timeout=20)
    card = panel(page, "storage").locator(tid("error-card"))
    expect(card).to_contain_text("Out of space")
    expect(card).to_contain_text("Free space")
    expect(card).to_contain_text("Buy more space")
    # Simulated data says so.
    assert any(f["value"].startswith("simulated")
               for f in srv.wait_panel("profile", lambda p: p["phase"] == "loaded", timeout=20)
               ["latestValidInfo"]["fields"])
