"""Time on the page, against the real server keeping its history in a temporary folder: each card's
timeline strip, up ratios, load-time sparkline and health now, drawn from the server's uptime report;
what a slot tells on hover and on keyboard focus; the history dialog (opened by its button and by its
own address, paged with "Older", its range choosing what is asked for); the "from before restart"
badge across a restart with the browser open; the deck-level notice of a disk that fills up (a small
tmpfs the test mounts); and no timeline at all when the server keeps no history."""
from __future__ import annotations

import datetime as dt
import math
import re
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Page, expect

from helpers import SmallDisk, churn_deck, panel, tid, wait_live
from polling import wait_for

DECK = """title: History tests
panels:
  - id: good
    title: Good
    command: { run: ["true"] }
    refresh: manual
  - id: bad
    title: Bad
    command: { run: ["false"] }
    refresh: manual
"""


@pytest.fixture
def history_server(make_server, tmp_path):
    """Two command panels that load once: "good" succeeds, "bad" fails (not retried by itself)."""
    deck = tmp_path / "history-deck.yaml"
    deck.write_text(DECK)
    srv = make_server(config=deck)
    srv.settle()
    # The store takes changes in about every second: wait until both first loads are in its tallies.
    wait_for(lambda: all(newest_slot(srv, p)["loads"] >= 1 for p in ("good", "bad")))
    return srv


def newest_slot(srv, panel_id: str) -> dict:
    status, report = srv.request("GET", f"/api/panels/{panel_id}/uptime")
    assert status == 200, report
    return report["slots"][-1]


# ---- the page's wording of the server's numbers -------------------------------------------------


def ratio_text(ratio: float | None) -> str:
    """An up ratio as the page writes it: cut (never rounded up) to two decimals, "—" without data."""
    if ratio is None:
        return "—"
    hundredths = math.floor(ratio * 10_000 + 1e-6)
    return f"{hundredths / 100:.2f}".rstrip("0").rstrip(".") + " %"


def load_time_text(ms: float) -> str:
    if ms < 1000:
        return f"{round(ms)} ms"
    return f"{ms / 1000:.{1 if ms < 10_000 else 0}f} s"


def failures_text(n: int) -> str:
    return "no failures" if n == 0 else f"{n} failure" if n == 1 else f"{n} failures"


def clock_pattern(iso: str) -> str:
    """The page's "10:42 AM" (en-US, UTC in these tests) for an ISO time, as a regex."""
    t = dt.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    return rf"{t.hour % 12 or 12}:{t.minute:02d}\s{'AM' if t.hour < 12 else 'PM'}"


def sparkline_runs(report: dict) -> int:
    """The stretches of consecutive slots with an average load time: one polyline each."""
    runs, inside = 0, False
    for slot in report["slots"]:
        timed = "avgMs" in slot
        runs += timed and not inside
        inside = timed
    return runs


def query_of(url: str) -> dict[str, list[str]]:
    return parse_qs(urlparse(url).query)


def parse_iso(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def is_uptime(panel_id: str):
    return lambda r: urlparse(r.url).path == f"/api/panels/{panel_id}/uptime"


def is_history(panel_id: str):
    return lambda r: urlparse(r.url).path == f"/api/panels/{panel_id}/history"


def open_with_report(page: Page, srv, panel_id: str) -> dict:
    """Opens the page and returns the uptime report it was sent for `panel_id`."""
    with page.expect_response(is_uptime(panel_id)) as res:
        page.goto(srv.url + "/")
    wait_live(page)
    assert res.value.status == 200, res.value.text()
    return res.value.json()


# ---- the card ------------------------------------------------------------------------------------


def test_the_strip_and_uptime_are_drawn_from_the_servers_report(history_server, page):
    srv = history_server
    history = srv.state()["settings"]["history"]
    assert history and history["timelineSlots"] > 0, history
    with page.expect_response(is_uptime("bad")) as res:
        page.goto(srv.url + "/")
    wait_live(page)
    # The page asks for what the server's settings say.
    query = query_of(res.value.url)
    assert query["slots"] == [str(history["timelineSlots"])]
    assert history["timelineSpanMs"] == 86_400_000 and query["span"] == ["24h"], (history, query)
    report = res.value.json()

    bad = panel(page, "bad")
    slots = bad.locator(tid("timeline-slot"))
    expect(slots).to_have_count(len(report["slots"]))
    drawn = slots.evaluate_all("els => els.map((e) => [e.dataset.state, e.dataset.from, e.dataset.to])")
    assert drawn == [[s["state"], s["from"], s["to"]] for s in report["slots"]]
    assert report["slots"][-1]["state"] in ("down", "degraded") and report["slots"][-1]["failures"] >= 1, report["slots"][-1]

    failures = sum(s["failures"] for s in report["slots"])
    expect(bad.locator(tid("timeline-strip"))).to_have_accessible_name(
        f"Last 24 h: {ratio_text(report['24h'])} up, {failures_text(failures)}"
    )
    for key in ("24h", "7d", "30d"):
        expect(bad.locator(f"{tid('uptime-' + key)} dd")).to_have_text(ratio_text(report[key]))
    assert report["current"]["state"] == "down", report["current"]
    expect(bad.locator(tid("current-health"))).to_have_text(
        re.compile(rf"^Down since {clock_pattern(report['current']['since'])} \(\d+ s\)$")
    )
    # One polyline per stretch of timed slots; none without any.
    runs = sparkline_runs(report)
    assert runs >= 1, "the failed load was timed"
    expect(bad.locator(tid("sparkline-run"))).to_have_count(runs)

    # "Up for 3 s" ticks on the page.
    health = panel(page, "good").locator(tid("current-health"))
    expect(health).to_have_text(re.compile(r"^Up for \d+ s$"))
    first = health.text_content()
    expect(health).not_to_have_text(first or "", timeout=3_000)


def test_a_slot_tells_what_happened_then_on_hover_and_on_keyboard_focus(history_server, page):
    report = open_with_report(page, history_server, "bad")
    bad = panel(page, "bad")
    slots = bad.locator(tid("timeline-slot"))
    expect(slots).to_have_count(len(report["slots"]))
    newest_index = len(report["slots"]) - 1
    newest = report["slots"][-1]
    tip = bad.locator(tid("timeline-tooltip"))
    expect(tip).to_be_hidden()

    # Hover.
    slots.nth(newest_index).hover()
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("Down")
    loads = f"{newest['loads']} load" + ("" if newest["loads"] == 1 else "s")
    expect(tip).to_contain_text(f"{loads}, {failures_text(newest['failures'])}")
    expect(tip).to_contain_text(f"Avg {load_time_text(newest['avgMs'])}")
    page.mouse.move(0, 0)
    expect(tip).to_be_hidden()

    # Keyboard: the strip is one tab stop, at the newest slot.
    expect(bad.locator(f"{tid('timeline-slot')}[tabindex='0']")).to_have_count(1)
    bad.locator(tid("error-secondary")).focus()
    page.keyboard.press("Tab")
    last = slots.nth(newest_index)
    expect(last).to_be_focused()
    expect(tip).to_be_visible()
    expect(last).to_have_accessible_name(re.compile(r"\d:\d{2}.*: Down$"))
    expect(last).to_have_accessible_description(re.compile(rf"{loads}, {failures_text(newest['failures'])}"))

    page.keyboard.press("ArrowLeft")
    previous = slots.nth(newest_index - 1)
    expect(previous).to_be_focused()
    expect(previous).to_have_attribute("tabindex", "0")
    expect(last).to_have_attribute("tabindex", "-1")
    label = {"up": "Up", "down": "Down", "degraded": "Up and down", "loading": "Loading", "none": "No data"}
    expect(tip).to_contain_text(label[report["slots"][newest_index - 1]["state"]])
    page.keyboard.press("Home")
    expect(slots.first).to_be_focused()
    page.keyboard.press("End")
    expect(last).to_be_focused()

    # Escape hides the tooltip and keeps focus; Tab leaves the strip, Shift+Tab comes back to it.
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()
    expect(last).to_be_focused()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.testid") != "timeline-slot"
    expect(tip).to_be_hidden()
    page.keyboard.press("Shift+Tab")
    expect(last).to_be_focused()
    expect(tip).to_be_visible()


def test_axe_finds_no_violations_in_the_timelines_and_the_history_dialog(history_server, page):
    from test_accessibility import describe, run_axe

    open_with_report(page, history_server, "bad")
    bad = panel(page, "bad")
    expect(bad.locator(tid("timeline-slot")).first).to_be_attached()
    bad.locator(tid("timeline-slot")).last.hover()
    expect(bad.locator(tid("timeline-tooltip"))).to_be_visible()
    violations = run_axe(page)
    assert not violations, describe(violations)
    bad.locator(tid("history-open")).click()
    dialog = page.locator(tid("history-dialog"))
    expect(dialog.locator(tid("history-entry")).first).to_be_visible()
    expect(dialog.locator(f"{tid('history-timeline')} {tid('timeline-slot')}").first).to_be_attached()
    violations = run_axe(page, context="[data-testid=history-dialog]")
    assert not violations, describe(violations)


# ---- the history dialog ---------------------------------------------------------------------------


def test_the_history_dialog_opens_from_its_button_and_from_its_address(history_server, page):
    srv = history_server
    page.goto(srv.url + "/")
    wait_live(page)
    bad = panel(page, "bad")
    opener = bad.locator(tid("history-open"))
    expect(opener).to_be_visible()
    expect(opener).to_have_accessible_name("History of Bad")

    with page.expect_response(is_history("bad")) as res:
        opener.click()
    dialog = page.locator(tid("history-dialog"))
    expect(dialog).to_be_visible()
    expect(dialog).to_have_accessible_name("History of Bad")
    expect(page).to_have_url(srv.url + "/#history=bad")
    entries = res.value.json()["entries"]
    assert entries and entries[0]["state"] == "error", entries
    rows = dialog.locator(tid("history-entry"))
    expect(rows).to_have_count(len(entries))
    newest = rows.first
    expect(newest).to_have_attribute("data-state", "error")
    expect(newest.locator(tid("history-entry-state"))).to_have_text("Failed")
    expect(newest.locator("time")).to_have_attribute("datetime", entries[0]["at"])
    card = srv.panel("bad")["latestError"]
    expect(newest.locator(tid("history-entry-title"))).to_have_text(card["title"])
    expect(newest.locator(tid("history-entry-summary"))).to_have_text(entries[0]["summary"])
    expect(newest.locator(tid("history-entry-facts"))).to_have_text(
        f"took {load_time_text(entries[0]['durationMs'])} · {entries[0]['errorKind']}"
    )
    # The dialog draws the panel's timeline for the range too.
    expect(dialog.locator(f"{tid('history-timeline')} {tid('timeline-slot')}").first).to_be_attached()

    # Escape closes it, takes the address back and gives focus back to the button.
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page).to_have_url(srv.url + "/")
    expect(opener).to_be_focused()

    # Its address opens it on a page load.
    page.goto("about:blank")
    page.goto(srv.url + "/#history=good")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_accessible_name("History of Good")
    expect(dialog.locator(tid("history-entry")).first).to_have_attribute("data-state", "loaded")
    # Focus goes back to the card's History button once the card shows it (its timeline came).
    good_opener = panel(page, "good").locator(tid("history-open"))
    expect(good_opener).to_be_attached()
    page.wait_for_function(
        "() => !document.querySelector(\"[data-panel-id='good'] [data-testid='history-open']\").hidden")
    dialog.locator(tid("history-close")).click()
    expect(dialog).to_be_hidden()
    expect(page).to_have_url(srv.url + "/")
    expect(good_opener).to_be_focused()

    # The browser's Back closes what the button opened.
    panel(page, "bad").locator(tid("history-open")).click()
    expect(dialog).to_be_visible()
    page.go_back()
    expect(dialog).to_be_hidden()
    expect(page).to_have_url(srv.url + "/")


def test_a_slot_of_the_card_opens_the_history_of_its_time(history_server, page):
    report = open_with_report(page, history_server, "bad")
    bad = panel(page, "bad")
    slots = bad.locator(tid("timeline-slot"))
    expect(slots).to_have_count(len(report["slots"]))
    slot = report["slots"][-1]
    with page.expect_request(lambda r: is_uptime("bad")(r) and "to=" in r.url) as up, \
            page.expect_request(is_history("bad")) as hist:
        slots.last.click()
    dialog = page.locator(tid("history-dialog"))
    expect(dialog).to_be_visible()
    expect(dialog.locator(tid("history-range"))).to_have_value("custom")
    h = query_of(hist.value.url)
    assert parse_iso(h["from"][0]) == parse_iso(slot["from"]) and parse_iso(h["to"][0]) == parse_iso(slot["to"]), (h, slot)
    assert parse_iso(query_of(up.value.url)["to"][0]) == parse_iso(slot["to"])
    expect(dialog.locator(tid("history-entry")).first).to_have_attribute("data-state", "error")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(bad.locator(tid("history-open"))).to_be_focused()


def test_older_pages_through_the_stored_changes(history_server, page):
    srv = history_server
    # Forced states are stored changes too (marked debug): more than one page of them.
    for i in range(60):
        srv.force("good", {"state": "error" if i % 2 else "loaded"})
    srv.force("good", {"state": "live"})

    def stored():
        status, doc = srv.request("GET", "/api/panels/good/history?limit=500")
        assert status == 200, doc
        return len(doc["entries"]) > 60 and len(doc["entries"])

    total = wait_for(stored)

    page.goto(srv.url + "/")
    wait_live(page)
    with page.expect_response(is_history("good")) as res:
        panel(page, "good").locator(tid("history-open")).click()
    dialog = page.locator(tid("history-dialog"))
    first = res.value.json()
    page_size = int(query_of(res.value.url)["limit"][0])
    assert len(first["entries"]) == page_size < total and first["next"], (page_size, total, first["next"])
    rows = dialog.locator(tid("history-entry"))
    expect(rows).to_have_count(page_size)
    expect(dialog.locator(f"{tid('history-entry')} .badge-debug").first).to_be_visible()
    older = dialog.locator(tid("history-older"))
    expect(older).to_be_visible()

    with page.expect_response(lambda r: is_history("good")(r) and "cursor=" in r.url) as res2:
        older.click()
    query = query_of(res2.value.url)
    assert query["cursor"] == [first["next"]]
    assert query["from"] == query_of(res.value.url)["from"]
    second = res2.value.json()
    expect(rows).to_have_count(page_size + len(second["entries"]))
    if second["next"] is None:
        expect(older).to_be_hidden()
        # "Older" is gone: focus goes to the first change it brought.
        expect(rows.nth(page_size)).to_be_focused()
    times = rows.locator("time").evaluate_all("els => els.map((e) => Date.parse(e.getAttribute('datetime')))")
    assert times == sorted(times, reverse=True), "the list is not newest first"


def test_the_range_chooses_what_the_dialog_asks_for(history_server, page):
    srv = history_server
    page.goto(srv.url + "/")
    wait_live(page)
    with page.expect_request(is_uptime("good")) as first_uptime:
        panel(page, "good").locator(tid("history-open")).click()
    dialog = page.locator(tid("history-dialog"))
    expect(dialog).to_be_visible()
    assert query_of(first_uptime.value.url)["span"] == ["24h"]
    range_select = dialog.locator(tid("history-range"))
    expect(range_select).to_have_accessible_name("Range")
    expect(range_select).to_be_focused()

    # A preset: the last hour, up to now.
    with page.expect_request(is_uptime("good")) as up, page.expect_request(is_history("good")) as hist:
        range_select.select_option("1h")
    q = query_of(up.value.url)
    assert q["span"] == ["1h"] and "to" not in q, q
    slots = int(q["slots"][0])
    h = query_of(hist.value.url)
    asked_from = parse_iso(h["from"][0])
    now = dt.datetime.now(dt.timezone.utc)
    assert abs((now - asked_from).total_seconds() - 3600) < 30, (now, asked_from)
    assert "to" not in h and "cursor" not in h, h
    expect(dialog.locator(f"{tid('history-timeline')} {tid('timeline-slot')}")).to_have_count(slots)

    with page.expect_request(is_uptime("good")) as up:
        range_select.select_option("7d")
    assert query_of(up.value.url)["span"] == ["7d"]
    expect(dialog.locator(f"{tid('history-timeline')} {tid('timeline-strip')}")).to_have_accessible_name(
        re.compile(r"^Last 7 d: ")
    )

    # Custom: two datetime-local inputs (the browser runs in UTC here).
    range_select.select_option("custom")
    start, end = dialog.locator(tid("history-start")), dialog.locator(tid("history-end"))
    expect(start).to_be_visible()
    expect(start).to_have_accessible_name("From")
    expect(end).to_have_accessible_name("To")
    to = (now - dt.timedelta(hours=1)).replace(second=0, microsecond=0)
    frm = to - dt.timedelta(hours=2)
    # The wrong way round is refused, and nothing is asked for.
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/panels/good/" in r.url else None)
    start.fill(to.strftime("%Y-%m-%dT%H:%M"))
    end.fill(frm.strftime("%Y-%m-%dT%H:%M"))
    dialog.locator(tid("history-apply")).click()
    expect(dialog.locator(tid("history-custom-error"))).to_have_text("The start must come before the end.")
    expect(start).to_have_attribute("aria-invalid", "true")
    assert asked == []
    start.fill(frm.strftime("%Y-%m-%dT%H:%M"))
    end.fill(to.strftime("%Y-%m-%dT%H:%M"))
    with page.expect_request(is_uptime("good")) as up, page.expect_request(is_history("good")) as hist:
        dialog.locator(tid("history-apply")).click()
    q = query_of(up.value.url)
    assert q["span"] == ["2h"], q
    assert parse_iso(q["to"][0]) == to, q
    h = query_of(hist.value.url)
    assert parse_iso(h["from"][0]) == frm and parse_iso(h["to"][0]) == to, h
    expect(dialog.locator(tid("history-custom-error"))).to_have_text("")
    expect(start).not_to_have_attribute("aria-invalid", "true")


# ---- restart, notice, history off ------------------------------------------------------------------


def test_after_a_restart_the_panel_shows_what_it_stored_marked_until_its_first_new_load_ends(make_server, tmp_path, page):
    word = tmp_path / "word"
    word.write_text("before restart")
    deck = tmp_path / "restart-deck.yaml"
    # Each load takes a while, so the restored state is on screen long enough to be seen.
    deck.write_text(
        "title: Restart\npanels:\n  - id: steady\n    title: Steady\n"
        f'    command: {{ run: ["sh", "-c", "sleep 4; cat {word}"], timeout: 20s }}\n'
        "    refresh: manual\n"
    )
    srv = make_server(config=deck)
    srv.wait_panel("steady", lambda p: p["phase"] == "loaded" and not p["isLoading"], timeout=20)
    page.goto(srv.url + "/")
    wait_live(page)
    steady = panel(page, "steady")
    info = steady.locator(tid("info"))
    expect(info).to_contain_text("before restart")
    expect(steady.locator(tid("restored-badge"))).to_have_count(0)
    expect(steady).to_have_attribute("data-restored", "false")

    word.write_text("after restart")
    srv.stop()
    srv.restart()
    restored = srv.panel("steady")
    assert restored["restored"] is True, restored
    assert "before restart" in restored["latestInfo"]["text"], restored

    # The open page draws the stored state at once, marked, while the first new load runs.
    badge = steady.locator(tid("restored-badge"))
    expect(badge).to_be_visible(timeout=4_000)
    expect(badge).to_have_text(re.compile("from before restart", re.I))
    expect(badge).to_have_attribute("title", re.compile("before the server restarted"))
    expect(info).to_contain_text("before restart")
    # The first load since the restart ends: the mark goes, the new result shows.
    expect(badge).to_have_count(0, timeout=15_000)
    expect(steady).to_have_attribute("data-restored", "false")
    expect(info).to_contain_text("after restart")


def test_the_time_the_server_was_stopped_is_a_gap_and_a_health_across_it_is_known_since_the_start(history_server, page):
    srv = history_server
    srv.stop()
    time.sleep(2)   # the time stopped is what the test measures: the gap must be at least this long
    srv.restart()
    srv.wait_panel("bad", lambda p: p["phase"] == "error" and not p["restored"], timeout=15)
    status, report = srv.request("GET", "/api/panels/bad/uptime")
    assert status == 200, report
    current = report["current"]
    assert current["state"] == "down" and current["watchedSince"] > current["since"], current
    gap = report["unwatched"][-1]
    assert gap["to"] == current["watchedSince"], report["unwatched"]
    stopped_ms = (dt.datetime.fromisoformat(gap["to"].replace("Z", "+00:00"))
                  - dt.datetime.fromisoformat(gap["from"].replace("Z", "+00:00"))).total_seconds() * 1000
    assert 2_000 <= stopped_ms < 6_000, gap

    page.goto(srv.url + "/")
    wait_live(page)
    bad = panel(page, "bad")
    expect(bad.locator(tid("current-health"))).to_have_text(re.compile(
        rf"^Down for at least \d+ s \(not watched {clock_pattern(gap['from'])}–{clock_pattern(gap['to'])}\)$"))
    slots = bad.locator(tid("timeline-slot"))
    gap_slots = slots.evaluate_all(
        "els => els.filter((e) => e.dataset.unwatched === 'true').map((e) => [e.dataset.from, e.dataset.to])")
    assert gap_slots and all(start < gap["to"] and gap["from"] < end for start, end in gap_slots), gap_slots


def test_a_full_disk_shows_the_notice_above_the_panels_until_there_is_room(make_server, tmp_path, page):
    disk = SmallDisk(tmp_path / "disk")
    try:
        srv = make_server(config=churn_deck(tmp_path, panels=30), args=["--data", str(disk.folder / "data")])
        page.goto(srv.url + "/")
        wait_live(page)
        banner = page.locator(tid("deck-notice"))
        expect(banner).to_have_attribute("role", "alert")
        expect(banner.locator(tid("error-card"))).to_have_count(0)

        disk.fill()
        card = banner.locator(tid("error-card"))
        expect(card).to_be_visible(timeout=15_000)
        expect(card).to_have_attribute("data-kind", "outOfSpace")
        expect(card.locator(tid("error-title"))).to_have_text("Out of space")
        expect(card.locator(tid("error-description"))).to_contain_text(str(disk.folder / "data"))
        expect(card.locator(tid("error-details"))).to_be_visible()
        # It stands above the panels, and has no buttons (no route runs a deck-level option).
        assert card.bounding_box()["y"] < panel(page, "p0").bounding_box()["y"]
        expect(card.locator("button")).to_have_count(0)
        # Serving and streaming go on: panels keep changing under the notice.
        before = panel(page, "p0").locator(tid("info")).inner_text()
        expect(panel(page, "p0").locator(tid("info"))).not_to_have_text(before, timeout=10_000)

        disk.free()
        expect(banner.locator(tid("error-card"))).to_have_count(0, timeout=15_000)
    finally:
        disk.unmount()


def test_without_history_no_timeline_is_drawn_and_none_is_asked_for(make_server, tmp_path, page):
    deck = tmp_path / "history-deck.yaml"
    deck.write_text(DECK)
    srv = make_server(config=deck, args=["--data", "none"])
    srv.settle()
    assert srv.state()["settings"]["history"] is None
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.startswith(srv.url + "/api/panels/") else None)
    page.goto(srv.url + "/")
    wait_live(page)
    for panel_id in ("good", "bad"):
        p = panel(page, panel_id)
        expect(p).to_have_attribute("data-phase", re.compile("loaded|error"))
        expect(p.locator(tid("panel-history"))).to_be_hidden()
        expect(p.locator(tid("history-open"))).to_be_hidden()
    assert asked == [], asked
