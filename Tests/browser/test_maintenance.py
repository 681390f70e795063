"""Maintenance windows on the page: a window declared in the deck file shows on its panels' cards and
compact lines from the page's load; the header's Maintenance dialog starts one over a panel (the
server marks the card) and ends it."""
from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, expect

from helpers import panel, tid, wait_live

DECK = """title: Maintenance
statedeckPanel: false
panels:
  - id: db
    title: Database
    heartbeat: { period: 1h, grace: 5m, key: browser-maintenance-key-1 }
  - id: web
    title: Web
    heartbeat: { period: 1h, grace: 5m, key: browser-maintenance-key-2 }
maintenance:
  - reason: Database upgrade
    panels: [db]
    from: 2020-01-01T00:00:00Z
    to: 2099-01-01T04:00:00Z
"""

# The end in local time, its date before it when not today ("Jan 1 04:00" in en-US).
LINE = r"^Maintenance: {reason} \(until ([^()]+ )?\d\d:\d\d\)$"


def maintenance_deck(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    deck = folder / "deck.yaml"
    deck.write_text(DECK)
    return deck


def active(srv) -> list[dict]:
    with urllib.request.urlopen(f"{srv.url}/api/maintenance", timeout=10) as answer:
        return json.load(answer)["active"]


def test_a_declared_window_shows_on_its_card_and_its_compact_line(make_server, tmp_path, page: Page):
    srv = make_server(config=maintenance_deck(tmp_path / "deck"))
    page.goto(srv.url + "/")
    wait_live(page)
    line = panel(page, "db").locator(tid("maintenance-line"))
    expect(line).to_have_text(re.compile(LINE.format(reason="Database upgrade")))
    expect(panel(page, "web").locator(tid("maintenance-line"))).to_have_count(0)
    page.goto(srv.url + "/?density=compact")
    row = page.locator(f"{tid('panel-row')}[data-panel-id='db']")
    expect(row.locator(tid("row-maintenance"))).to_have_text(re.compile(LINE.format(reason="Database upgrade")))
    expect(row).to_have_attribute("aria-label", re.compile("; Maintenance: Database upgrade"))


def test_the_maintenance_dialog_starts_a_window_and_ends_it(make_server, tmp_path, page: Page):
    srv = make_server(config=maintenance_deck(tmp_path / "deck"))
    page.goto(srv.url + "/")
    wait_live(page)
    page.locator(tid("maintenance-open")).click()
    dialog = page.locator(tid("maintenance-dialog"))
    expect(dialog).to_be_visible()
    expect(dialog.locator(tid("maintenance-active"))).to_have_count(1)
    dialog.locator(tid("maintenance-minutes")).fill("45")
    dialog.locator(tid("maintenance-reason")).fill("Certificate swap")
    dialog.locator(tid("maintenance-start")).click()
    expect(dialog.locator(tid("maintenance-problem"))).to_have_text("Pick at least one panel or group.")

    dialog.locator(f"{tid('maintenance-panel')}[value='web']").check()
    dialog.locator(tid("maintenance-start")).click()
    expect(dialog.locator(tid("maintenance-active"))).to_have_count(2)
    started = next(w for w in active(srv) if w["source"] == "api")
    assert started["panels"] == ["web"] and started["reason"] == "Certificate swap"
    expect(panel(page, "web").locator(tid("maintenance-line"))).to_have_text(re.compile(LINE.format(reason="Certificate swap")))

    dialog.locator(f"{tid('maintenance-active')}[data-maintenance-id='{started['id']}'] {tid('maintenance-end')}").click()
    expect(dialog.locator(tid("maintenance-active"))).to_have_count(1)
    expect(panel(page, "web").locator(tid("maintenance-line"))).to_have_count(0)
    assert [w["id"] for w in active(srv)] == ["file-1"]
    dialog.locator(tid("maintenance-close")).click()
    expect(dialog).to_be_hidden()


def test_a_slot_mostly_under_maintenance_has_its_own_colour_and_says_how_long(make_server, tmp_path, page: Page):
    srv = make_server(config=maintenance_deck(tmp_path / "deck"))
    page.goto(srv.url + "/")
    wait_live(page)
    slot = {"from": "2026-11-27T10:00:00.000Z", "to": "2026-11-27T10:16:00.000Z", "state": "maintenance",
            "upMs": 60_000, "downMs": 0, "loadingMs": 0, "maintenanceMs": 900_000, "loads": 1, "failures": 0}
    words = page.evaluate(
        "async (slot) => { const t = await import('/timeline-text.js'); return [t.slotStateText(slot.state), ...t.slotFacts(slot)]; }",
        slot)
    assert words[0] == "Maintenance"
    assert words[1] == "Up 1 min, under maintenance 15 min"
    colours = page.evaluate("""() => ["up", "down", "maintenance"].map((state) => {
        const el = document.createElement("button");
        el.className = "slot";
        el.dataset.state = state;
        document.body.append(el);
        const colour = getComputedStyle(el).backgroundColor;
        el.remove();
        return colour;
    })""")
    assert len(set(colours)) == 3, colours
