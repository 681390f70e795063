"""A ping panel as a person sees it: the address in its info, its round trips and loss as readings
in the footer (a measurement, drawn as the server sent it with the newest change), and the cards
its failures make."""
from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

from playwright.sync_api import expect

from helpers import inject_panel, panel, tid


def write_ping_deck(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    deck = folder / "deck.yaml"
    deck.write_text(
        "title: Pings\n"
        "statedeckPanel: false\n"
        "panels:\n"
        "  - { id: loopback, title: Loopback, ping: { host: 127.0.0.1, count: 2 }, refresh: 1s }\n"
        "  - { id: nowhere, title: Nowhere, ping: { host: no-such-host.invalid, count: 1 }, retry: none }\n")
    return deck


def test_a_ping_panel_shows_its_address_and_its_round_trips_and_loss(make_server, open_page, tmp_path):
    server = make_server(config=write_ping_deck(tmp_path / "deck"), debug=False)
    page = open_page(server)
    card = panel(page, "loopback")
    expect(card.locator(tid("info-summary"))).to_have_text("Reachable")
    expect(card.locator(tid("info-fields"))).to_contain_text("127.0.0.1")
    readings = card.locator(tid("readings"))
    expect(readings.locator("dt")).to_have_text(["Round trip (min / avg / max)", "Loss"])
    expect(readings.locator("dd").nth(1)).to_have_text("0 % (0 of 2)")
    expect(readings.locator("dd").nth(0)).to_have_text(re.compile(r"^[0-9.]+ ms / [0-9.]+ ms / [0-9.]+ ms$"))

    with urllib.request.urlopen(server.url + "/api/panels/loopback") as answer:
        state = json.load(answer)
    assert state["latestValidInfo"] == {"summary": "Reachable", "fields": [{"label": "Address", "value": "127.0.0.1"}]}
    assert [r["label"] for r in state["readings"]] == ["Round trip (min / avg / max)", "Loss"]
    assert len(state["history"]) == 3, "initial, loading, loaded: checks each second that differ only in readings are no change"

    nowhere = panel(page, "nowhere")
    expect(nowhere.locator(tid("error-card"))).to_contain_text("The name no-such-host.invalid does not resolve.")
    expect(nowhere.locator(tid("readings"))).to_be_empty()


def test_readings_are_drawn_as_sent_and_cleared_by_an_error(make_server, open_page, tmp_path):
    page = open_page(make_server(config=write_ping_deck(tmp_path / "deck"), debug=False))
    card = panel(page, "loopback")
    expect(card.locator(tid("readings")).locator("dt")).to_have_count(2)
    inject_panel(page, {"id": "loopback", "readings": [{"label": "Loss", "value": "33 % (1 of 3)"}]})
    expect(card.locator(tid("readings")).locator("dd")).to_have_text(["33 % (1 of 3)"])
    inject_panel(page, {"id": "loopback", "phase": "error", "readings": None,
                        "latestValidError": {"kind": "timeout", "title": "Timed out", "description": "No answer to 2 pings within 2 s.",
                                             "icon": "clock", "options": [], "showPreloader": False}})
    expect(card.locator(tid("readings"))).to_be_empty()
