"""`statedeck --replay FILE` against the live deck it came from: a fixture downloaded from a live
deck and replayed draws the same board; a replay takes no actions; and the moments the screenshot
tests replay (Tests/browser/moments/) are recorded here from real runs (the one of a cluster
mid-failover in test_cluster.py, which starts PostgreSQL)."""
from __future__ import annotations

import io
import json
import re
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from conftest import BIN
from helpers import MAX_DIFF_RATIO, OUTPUT_DIR, PIXEL_THRESHOLD, tid, wait_live, wait_revealed
from moments import ERROR_KINDS, MOMENTS_DIR, download, keep_or_compare, kind_panel, recorded, write, write_error_kinds_deck


def board(page: Page) -> bytes:
    """The board (summary and panels) as a screenshot, what follows the clock covered: each card's
    "since 10:42:03", which a page says against its own clock."""
    wait_revealed(page)
    page.mouse.move(0, 0)
    page.evaluate("() => { document.getElementById('toast-host').style.visibility = 'hidden'; }")
    return page.locator("main").screenshot(animations="disabled", caret="hide", mask=[page.locator(".updated")],
                                           mask_color="#888888")


def differing_ratio(a: bytes, b: bytes) -> float:
    """The share of pixels whose largest channel differs by more than the snapshot threshold."""
    from PIL import Image, ImageChops

    first, second = Image.open(io.BytesIO(a)).convert("RGBA"), Image.open(io.BytesIO(b)).convert("RGBA")
    assert first.size == second.size, f"{first.size} != {second.size}"
    channels = ImageChops.difference(first, second).split()
    peak = channels[0]
    for channel in channels[1:]:
        peak = ImageChops.lighter(peak, channel)
    return peak.point(lambda v: 255 if v > PIXEL_THRESHOLD else 0).histogram()[255] / (first.size[0] * first.size[1])


def open_board(new_context, problems, url: str) -> Page:
    page = problems.watch(new_context(reduced_motion="reduce").new_page())
    page.goto(url + "/")
    wait_live(page)
    return page


def test_a_replay_draws_the_board_of_the_moment_it_came_from(make_server, make_replay, new_context, problems, tmp_path):
    live = make_server(args=["--data", "none"], grouped=True)
    live.settle()
    live.force("beta", {"state": "error", "error": {"kind": "timeout"}})
    live.force("slow", {"state": "loading"})
    fixture, disposition = download(live)
    assert re.fullmatch(r'attachment; filename="statedeck-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z\.json"', disposition), disposition
    live_page = open_board(new_context, problems, live.url)
    expect(live_page.locator(tid("panel"))).to_have_count(4)
    live_png = board(live_page)

    frozen = make_replay(write(fixture, tmp_path / "moment.json"), debug=True)
    replay_page = open_board(new_context, problems, frozen.url)
    expect(replay_page.locator(tid("panel"))).to_have_count(4)
    # The header says what the board is: a frozen replay of which file, not a live deck.
    expect(live_page.locator(tid("connection-status"))).to_have_text("Live")
    pill = replay_page.locator(tid("connection-status"))
    expect(pill).to_have_text("Replay")
    expect(pill).to_have_attribute("title", re.compile(r"^A replay of moment\.json: the board at .+, frozen; nothing runs$"))
    replay_png = board(replay_page)
    ratio = differing_ratio(live_png, replay_png)
    if ratio > MAX_DIFF_RATIO:
        OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
        (OUTPUT_DIR / "replay-live.png").write_bytes(live_png)
        (OUTPUT_DIR / "replay-frozen.png").write_bytes(replay_png)
    assert ratio <= MAX_DIFF_RATIO, f"{ratio:.2%} of the board differs (see output/replay-live.png, replay-frozen.png)"


def test_a_replay_answers_actions_409_and_forces_debug_states(make_server, make_replay, tmp_path):
    live = make_server(args=["--data", "none"])
    live.settle()
    fixture, _ = download(live)
    frozen = make_replay(write(fixture, tmp_path / "moment.json"), debug=True)
    status, answer = frozen.request("POST", "/api/panels/alpha/retry")
    assert status == 409 and answer["error"]["code"] == "conflict", answer
    assert "this deck is a replay of" in answer["error"]["message"]
    forced = frozen.force("alpha", {"state": "error", "error": {"kind": "notFound"}})
    assert forced["latestValidError"]["kind"] == "notFound" and forced["latestInfo"]["summary"] == "Alpha is fine"
    assert frozen.state()["panels"][0]["latestValidError"]["kind"] == "notFound"


def test_a_bad_fixture_exits_2_naming_the_file_and_key(tmp_path):
    path = tmp_path / "moment.json"
    path.write_text(json.dumps({"format": "statedeck-fixture", "version": 1, "statedeck": "0.1.0"}))
    result = subprocess.run([str(BIN), "--replay", str(path)], capture_output=True, text=True, timeout=10)
    assert result.returncode == 2
    assert result.stderr == f"statedeck: {path}: at: is missing\n", result.stderr


def test_a_replay_serves_a_fixture_alone(tmp_path):
    fixture = MOMENTS_DIR / "incident-while-down.json"
    result = subprocess.run([str(BIN), "--replay", str(fixture), "--config", str(tmp_path / "deck.yaml")],
                            capture_output=True, text=True, timeout=10)
    assert result.returncode == 2
    assert "--replay serves a fixture alone: not with --config, --data, --cluster or --seed" in result.stderr, result.stderr


# ---- the moments the screenshot tests replay, recorded from real runs --------------------------


def test_record_every_error_kind(make_server, tmp_path):
    live = make_server(config=write_error_kinds_deck(tmp_path / "deck"), args=["--data", "none"])
    live.settle()
    assert live.state()["settings"]["errorKinds"] == ERROR_KINDS, "the catalogue changed: update moments.ERROR_KINDS"
    for kind in ERROR_KINDS:
        live.force(kind_panel(kind), {"state": "error", "error": {"kind": kind}})
    fixture, _ = download(live)
    keep_or_compare(recorded(fixture), "every-error-kind")


def test_record_an_incident_open_while_a_panel_is_down(make_server, tmp_path):
    # The flaky command finds its flag from the start: Beta is the one panel down.
    (tmp_path / "deck0").mkdir()
    (tmp_path / "deck0" / "flag").touch()
    live = make_server(args=["--data", "none"], grouped=True)
    live.settle()
    live.force("beta", {"state": "error", "error": {"kind": "unreachable"}})
    status, answer = live.request("POST", "/api/incidents", {
        "title": "Beta cannot be reached", "panels": ["beta"], "status": "investigating",
        "message": "Beta stopped answering; we are looking into it."})
    assert status == 201, answer
    fixture, _ = download(live)
    keep_or_compare(recorded(fixture), "incident-while-down")
