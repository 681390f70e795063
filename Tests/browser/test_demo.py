"""The built-in demo deck (no --config): every scenario panel is on the page, drawn from real
server state, and says what it demonstrates and that its data is simulated; its one real panel
(StateDeck's own health) loads. The panels that depend on the demo's Postgres name it while it is
down; its nightly maintenance window is the deck's next; the backup job is a heartbeat whose ping
URL the start-up prints and which a ping turns up."""
from __future__ import annotations

import re
import urllib.request
from datetime import datetime, timedelta, timezone

from playwright.sync_api import expect

from helpers import panel, tid, wait_live
from polling import wait_for

# The real panel: StateDeck's own health, read in the process.
REAL = "statedeck"
# The heartbeat panel: whoever runs the demo pings it.
HEARTBEAT = "backup"
# The panels that depend on Postgres.
DEPENDENTS = ("profile", "rating")

# Panel id → what it demonstrates: the value of its "Demonstrates" field, before " · simulated".
SCENARIOS = {
    "postgres": "Dependencies and maintenance windows",
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

    # The deck is exactly the real panel, the heartbeat and the scenarios, each drawn with the
    # server's title.
    panels = {p["id"]: p for p in srv.state()["panels"]}
    assert set(panels) == {REAL, HEARTBEAT, *SCENARIOS}
    for panel_id, state in panels.items():
        expect(panel(page, panel_id), SCENARIOS.get(panel_id, panel_id)).to_be_visible()
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


def test_the_panels_that_depend_on_postgres_name_it_while_it_is_down(make_server, new_context):
    srv = make_server(config="demo")
    page = new_context().new_page()
    page.goto(srv.url + "/")
    wait_live(page)
    for dependent in DEPENDENTS:
        state = srv.wait_panel(dependent, lambda p: p["phase"] == "loaded", timeout=20)
        assert state["health"] == "up" and state["probableCauses"] == []

    # The simulated database is down while its panel shows an error, a forced one too: its
    # dependents are checked again at once, fail, and name it.
    srv.force("postgres", {"state": "error", "error": {"kind": "unreachable"}})
    for dependent in DEPENDENTS:
        state = srv.wait_panel(dependent, lambda p: p["probableCauses"] == ["postgres"], timeout=10)
        assert state["health"] == "down"
        assert "can't reach its database" in state["latestValidError"]["failureReason"]
        expect(panel(page, dependent).locator(tid("probable-cause"))).to_have_text("Probably because Postgres is down")
    # However many other demo panels fail meanwhile, two fail because of Postgres.
    expect(page.locator(tid("count-failing"))).to_have_text(re.compile(r"^\d+ failing, 2 because of them$"))

    # Back up, it takes them up with it.
    srv.force("postgres", {"state": "live"})
    for dependent in DEPENDENTS:
        srv.wait_panel(dependent, lambda p: p["health"] == "up" and p["probableCauses"] == [], timeout=10)
        expect(panel(page, dependent).locator(tid("panel-notes"))).to_be_hidden()
    expect(page.locator(tid("count-because"))).to_have_text("")


def test_postgres_nightly_maintenance_window_is_the_decks_next(make_server):
    srv = make_server(config="demo")
    maintenance = srv.state()["maintenance"]
    assert srv.request("GET", "/api/maintenance") == (200, maintenance)
    [window] = maintenance["next"]
    assert {k: window[k] for k in ("id", "reason", "panels", "source")} == {
        "id": "nightly-vacuum", "reason": "Nightly vacuum", "panels": ["postgres"], "source": "deck"}
    # 03:00 every day in the machine's time zone, for 30 minutes; the next one within a day.
    assert window["schedule"].startswith("0 3 * * * ("), window
    start, end = (datetime.fromisoformat(window[k].replace("Z", "+00:00")) for k in ("from", "until"))
    assert end - start == timedelta(minutes=30)
    now = datetime.now(timezone.utc)
    assert now < start <= now + timedelta(days=1), window
    # Postgres's card says when.
    info = srv.wait_panel("postgres", lambda p: p["latestValidInfo"] is not None, timeout=20)["latestValidInfo"]
    fields = {f["label"]: f["value"] for f in info["fields"]}
    assert fields["Nightly maintenance"] == f"{window['schedule']}, 30 min"


def printed_ping_url(srv) -> str:
    """The backup job's ping URL from the server's latest start-up output."""
    def printed() -> str | None:
        lines = [line for line in srv.log_lines if line.startswith("[out]   backup: ")]
        return lines[-1] if lines else None

    line = wait_for(printed, 10, "the start-up printed no ping URL for the backup job")
    match = re.fullmatch(r"\[out\]   backup: (http://\S+) \(every 2 min, grace 30 s\)", line)
    assert match, line
    return match.group(1)


def test_the_backup_job_is_a_heartbeat_whose_ping_url_the_start_up_prints(make_server):
    srv = make_server(config="demo")
    url = printed_ping_url(srv)
    assert "[out] Heartbeats: each job pings its URL (curl -fsS -m 10 --retry 3 URL), /start as it begins," in srv.log_lines
    state = srv.panel(HEARTBEAT)
    assert state["health"] == "unknown" and state["phase"] == "initial"
    assert state["heartbeat"]["hasPingURL"] is True and "pingPath" not in state["heartbeat"]
    status, ping = srv.request("GET", f"/api/panels/{HEARTBEAT}/ping")
    assert status == 200 and url == srv.url + ping["pingPath"]

    request = urllib.request.Request(url, data=b"backed up 42 MB", method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200
    srv.wait_panel(HEARTBEAT, lambda p: p["health"] == "up" and p["latestValidInfo"]["summary"] == "backed up 42 MB")

    # The key is kept with the demo's history: the job's URL holds across a restart.
    srv.stop()
    srv.log_lines.clear()
    srv.restart()
    assert printed_ping_url(srv) == url


def test_the_printed_ping_url_carries_no_token_and_needs_none(make_server, tmp_path):
    token = tmp_path / "token"
    token.write_text("a-token-of-the-demo-0123456789\n")
    token.chmod(0o600)
    srv = make_server(config="demo", args=["--token-file", str(token)])
    assert any(line.startswith("[out] StateDeck serving on ") and "?token=" in line for line in srv.log_lines)
    url = printed_ping_url(srv)
    assert "token" not in url
    with urllib.request.urlopen(urllib.request.Request(url, data=b"", method="POST"), timeout=10) as answer:
        assert answer.status == 200
