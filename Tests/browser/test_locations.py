"""A panel checked from several places (remote probes beside the server): the server's one-line
summary and a chip per location on the card and the compact line, drawn as sent and gone when the
locations are; and `statedeck probe` itself: its bad flags, and its reports into a real PostgreSQL."""
from __future__ import annotations

import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from conftest import BIN, REPO
from helpers import inject_panel, panel, tid
from polling import wait_for

TEMPORARY_POSTGRES = REPO / "scripts" / "temporary-postgres"
AT = "2026-11-25T10:42:00.000Z"
LOCATIONS = {
    "id": "alpha",
    "locations": [
        {"name": "local", "health": "up", "summary": "Alpha is fine", "since": AT, "uptime": 100},
        {"name": "eu-west", "health": "down", "summary": "Timed out", "since": AT, "uptime": 97.25},
        {"name": "us-east", "health": "noData", "summary": None, "since": AT, "uptime": None},
    ],
    "locationsSummary": "Down from eu-west only; no data from us-east",
}


def test_the_card_draws_the_servers_line_and_a_chip_per_location_then_none_when_they_go(server, open_page):
    page = open_page(server)
    card = panel(page, "alpha")
    expect(card.locator(tid("info"))).to_be_visible()
    expect(page.locator(tid("panel-locations"))).to_have_count(0)

    # A patch: only the locations change; the rest of the card stays.
    inject_panel(page, LOCATIONS)
    expect(card.locator(tid("locations-summary"))).to_have_text("Down from eu-west only; no data from us-east")
    chips = card.locator(tid("location-chip"))
    expect(chips).to_have_count(3)
    assert [c.get_attribute("data-location") for c in chips.all()] == ["local", "eu-west", "us-east"]
    assert [c.get_attribute("data-health") for c in chips.all()] == ["up", "down", "noData"]
    expect(chips.nth(1).locator(tid("location-uptime"))).to_have_text("97.25%")
    expect(chips.nth(2).locator(tid("location-uptime"))).to_have_count(0)
    expect(chips.nth(1)).to_have_accessible_name("eu-west: down, Timed out, since "
                                                 + page.evaluate("async (t) => (await import('/dom.js')).clockTime(t)", AT)
                                                 + ", 97.25% up")
    assert "no data" in (chips.nth(2).get_attribute("aria-label") or "")
    expect(card.locator(tid("info"))).to_contain_text("Alpha is fine")
    # The line sits above the body, inside the card.
    assert card.locator(tid("panel-locations")).bounding_box()["y"] < card.locator(tid("panel-body")).bounding_box()["y"]

    inject_panel(page, {"id": "alpha", "locations": None, "locationsSummary": None})
    expect(card.locator(tid("panel-locations"))).to_have_count(0)
    expect(card.locator(tid("info"))).to_contain_text("Alpha is fine")


def test_the_compact_line_says_the_servers_line_after_the_summary(server, page):
    page.goto(server.url + "/?density=compact")
    expect(page.locator(tid("connection-status"))).to_have_attribute("data-state", "open", timeout=15_000)
    row = page.locator(f"{tid('panel-row')}[data-panel-id='alpha']")
    expect(row.locator(tid("row-locations"))).to_have_text("")
    expect(row).to_have_accessible_name("Alpha: Up, Alpha is fine")

    page.evaluate("async (s) => { const m = await import('/store.js'); m.store.applyEvent('panel', s, null); }", LOCATIONS)
    expect(row.locator(tid("row-locations"))).to_have_text("Down from eu-west only; no data from us-east")
    expect(row.locator(tid("row-locations"))).to_have_attribute("data-disagree", "true")
    expect(row.locator(tid("row-summary"))).to_have_text("Alpha is fine")
    expect(row).to_have_accessible_name("Alpha: Up, Alpha is fine; Down from eu-west only; no data from us-east")
    assert row.bounding_box()["height"] <= 48


@pytest.mark.parametrize("args, says", [
    (["--location", "EU-West"], "--location may hold only a-z, 0-9"),
    (["--location", ""], "--location must not be empty"),
    (["--location", "local"], "the server's own place"),
    (["--location", "x" * 41], "at most 40 characters"),
    (["--location", "eu", "--heartbeat", "0"], "--heartbeat must be between 0.1 and 60"),
    (["--location", "eu", "--config"], "--config"),
])
def test_a_probe_with_a_bad_flag_exits_2_with_the_reason(args, says, tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text("title: T\npanels:\n  - { id: a, title: A, tcp: { host: 127.0.0.1, port: 9 } }\n")
    flags = ["--cluster", "postgres://probe:s3cret@127.0.0.1:1/db", "--config", str(deck)]
    result = subprocess.run([str(BIN), "probe", *flags, *args], capture_output=True, text=True, timeout=10)
    assert result.returncode == 2, result.stderr
    assert says in result.stderr
    assert "s3cret" not in result.stderr + result.stdout


def test_a_probe_whose_store_cannot_be_reached_exits_1_without_the_password(tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text("title: T\npanels:\n  - { id: a, title: A, tcp: { host: 127.0.0.1, port: 9 } }\n")
    result = subprocess.run([str(BIN), "probe", "--cluster", "postgres://probe:s3cret@127.0.0.1:1/db", "--config", str(deck),
                             "--location", "eu-west"], capture_output=True, text=True, timeout=10)
    assert result.returncode == 1, result.stderr
    assert "store" in result.stderr and "s3cret" not in result.stderr + result.stdout
    bad_store = subprocess.run([str(BIN), "probe", "--cluster", "mysql://probe:s3cret@h/db", "--config", str(deck),
                                "--location", "eu-west"], capture_output=True, text=True, timeout=10)
    assert bad_store.returncode == 2 and "postgres://" in bad_store.stderr and "s3cret" not in bad_store.stderr


def test_a_probe_reports_its_panels_under_its_location_with_a_heartbeat_and_stops_on_sigterm_within_2_s(tmp_path):
    # The server runs as nobody under root: its folder's parents must be open to it (pytest's are not).
    parent = Path(tempfile.mkdtemp(prefix="statedeck-probe-"))
    parent.chmod(0o755)
    folder = parent / "postgres"
    store = subprocess.run([str(TEMPORARY_POSTGRES), "start", str(folder)], check=True, capture_output=True,
                           text=True).stdout.strip()
    probe = None
    try:
        deck = tmp_path / "deck.yaml"
        (tmp_path / "status.txt").write_text("fine\n")
        deck.write_text("title: T\npanels:\n"
                        "  - { id: up, title: Up, file: { path: status.txt } }\n"
                        "  - { id: down, title: Down, tcp: { host: 127.0.0.1, port: 9 } }\n")
        probe = subprocess.Popen([str(BIN), "probe", "--cluster", store, "--config", str(deck), "--location", "eu-west",
                                  "--heartbeat", "0.2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert probe.stdout.readline().strip() == f"StateDeck probe eu-west: checking 2 panels from {deck}"

        def rows(sql: str) -> list[str]:
            out = subprocess.run(["psql", store, "-Atc", sql], check=True, capture_output=True, text=True).stdout
            return out.split()

        wait_for(lambda: rows("SELECT panel || ':' || health FROM statedeck_probe_results ORDER BY panel")
                 == ["down:down", "up:up"], 15, lambda: str(rows("SELECT * FROM statedeck_probe_results")))
        def last_seen() -> float:
            return float(rows("SELECT extract(epoch FROM last_seen) FROM statedeck_probes WHERE location = 'eu-west'")[0])

        # Two beats in a row, timed by the store: every --heartbeat 0.2 s, not the default 2 s.
        seen = last_seen()
        beat = wait_for(lambda: (now := last_seen()) != seen and now, 5, "the heartbeat never moved last_seen")
        next_beat = wait_for(lambda: (now := last_seen()) != beat and now, 5, "the heartbeat moved last_seen once")
        assert next_beat - beat < 1, (beat, next_beat)

        started = time.monotonic()
        probe.send_signal(signal.SIGTERM)
        assert probe.wait(timeout=5) == 0
        assert time.monotonic() - started < 2
    finally:
        if probe and probe.poll() is None:
            probe.kill()
        subprocess.run([str(TEMPORARY_POSTGRES), "stop", str(folder)], check=False)
        shutil.rmtree(parent, ignore_errors=True)
