"""Time travel on the page, against the real server keeping its history: the header's History
opens the deck-wide timeline, whose keys move the whole board to a past moment (a panel down then
shows down, though it is up live); the address carries the moment, and the same address in another
page shows it too, without a stream; every action is disabled there with one reason; each card's
timeline ends at the moment, with the health of then, and at now again once live; "What
changed" lists the hour before the moment; while the timeline is open it marks the changes the
server records as they come; Back to live and Escape return to the live board; a
history younger than the strip's span is drawn from its oldest instant, so no part of the strip is a
moment the server refuses; and a moment older than the history (or no time at all) is refused with
the server's own message."""
from __future__ import annotations

import datetime as dt
import re
from urllib.parse import parse_qs, quote, urlparse

import pytest
from playwright.sync_api import Page, expect

from conftest import flag_path
from helpers import panel, tid, wait_live
from polling import wait_for

PAST = "This is a past moment"


def changes(srv) -> list[dict]:
    status, page = srv.request("GET", "/api/changes?limit=500")
    assert status == 200, page
    return page["changes"]


def oldest_kept(srv) -> str:
    """The oldest instant the server rebuilds a moment for, as `GET /api/changes` names it."""
    status, page = srv.request("GET", "/api/changes?limit=1")
    assert status == 200 and page["oldest"], page
    return page["oldest"]


def moment_label(page: Page, at: str) -> str:
    return page.evaluate("async (t) => (await import('/travel-url.js')).momentLabel(t)", at)


def flaky_change(srv, health: str) -> dict | None:
    """The newest recorded change of "flaky" to `health`."""
    found = [c for c in changes(srv) if c["panel"] == "flaky" and c["to"]["health"] == health]
    return found[-1] if found else None


@pytest.fixture
def recovered(make_server):
    """The test deck's "flaky" recorded down, then up (its flag made and a retry run): the server
    and the change that took it down."""
    srv = make_server()
    srv.settle()
    down = wait_for(lambda: flaky_change(srv, "down"), timeout=20)
    flag_path(srv).touch()
    status, answer = srv.request("POST", "/api/panels/flaky/retry")
    assert status == 202, answer
    wait_for(lambda: flaky_change(srv, "up"), timeout=20)
    return srv, down


def presses_back_to(srv, at: str) -> int:
    """How many ← from the live board reach `at`: each press steps to the previous distinct
    instant a change was recorded at."""
    return len({c["at"] for c in changes(srv) if c["at"] >= at})


def epoch_ms(iso: str) -> int:
    return round(dt.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)


def at_in(url: str) -> str | None:
    return parse_qs(urlparse(url).query).get("at", [None])[0]


def expect_past(page: Page, at: str) -> None:
    """The board at `at`: the banner says so, "flaky" is down and its actions are disabled."""
    banner = page.locator(tid("moment-banner"))
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("You are looking at")
    expect(page.locator(tid("moment-at"))).to_have_attribute("datetime", at)
    flaky = panel(page, "flaky")
    expect(flaky.locator(tid("error-card"))).to_be_visible()
    primary = flaky.locator(tid("error-primary"))
    expect(primary).to_be_disabled()
    expect(primary).to_have_attribute("title", PAST)


def expect_live(page: Page) -> None:
    expect(page.locator(tid("moment-banner"))).to_be_hidden()
    expect(panel(page, "flaky").locator(tid("error-card"))).to_have_count(0)
    assert at_in(page.url) is None


def test_stepping_the_timeline_moves_the_board_and_the_address_shares_it(recovered, open_page, new_context):
    srv, down = recovered
    page = open_page(srv)
    expect_live(page)
    page.locator(tid("travel-open")).click()
    scrubber = page.locator(tid("travel-scrubber"))
    expect(scrubber).to_be_focused()
    expect(page.locator(tid("travel-mark")).first).to_be_attached()
    for _ in range(presses_back_to(srv, down["at"])):
        page.keyboard.press("ArrowLeft")
    expect_past(page, down["at"])
    assert at_in(page.url) == down["at"]
    expect(scrubber).to_have_attribute("aria-valuenow", str(epoch_ms(down["at"])))
    # What changed: the hour up to the moment, nearest first, so the change that took "flaky" down
    # heads the list; and the moment as a fixture.
    nearest = page.locator(tid("travel-change")).first
    expect(nearest).to_have_attribute("data-panel", "flaky")
    expect(nearest).to_have_attribute("data-at", down["at"])
    listed = page.locator(tid("travel-change")).evaluate_all("items => items.map(i => i.dataset.at)")
    assert listed == sorted(listed, reverse=True), listed
    expect(page.locator(tid("travel-export"))).to_have_attribute("href", f"/api/state?at={quote(down['at'], safe='')}&format=fixture")

    # The address, opened elsewhere, shows the same moment, and opens no stream.
    other = new_context().new_page()
    streams: list[str] = []
    other.on("request", lambda r: streams.append(r.url) if urlparse(r.url).path == "/events" else None)
    other.goto(page.url)
    expect_past(other, down["at"])
    assert streams == []
    other.locator(tid("moment-live")).click()
    wait_live(other)
    expect_live(other)

    # → past the newest change, then Escape: live again, the actions given back.
    page.keyboard.press("ArrowRight")
    expect(page.locator(tid("moment-at"))).not_to_have_attribute("datetime", down["at"])
    page.keyboard.press("Escape")
    expect_live(page)
    expect(page.locator(tid("travel-label"))).to_have_text("Live")


def test_the_open_strip_marks_a_change_as_it_comes_and_steps_to_it(recovered, open_page):
    srv, _ = recovered
    page = open_page(srv)
    page.locator(tid("travel-open")).click()
    scrubber = page.locator(tid("travel-scrubber"))
    down_marks = page.locator(f"{tid('travel-mark')}[data-health='down']")
    downs = len([c for c in changes(srv) if c["to"]["health"] == "down"])
    expect(down_marks).to_have_count(downs)
    live_end = int(scrubber.get_attribute("aria-valuemax") or 0)

    # "alpha" forced down while the strip stays open: the server records the change, and the strip
    # marks it soon, without being opened again; its end is now, and the live scrubber stays there.
    srv.force("alpha", {"state": "error"})
    alpha_down = wait_for(lambda: next((c for c in changes(srv) if c["panel"] == "alpha" and c["to"]["health"] == "down"), None), timeout=10)
    expect(down_marks).to_have_count(downs + 1, timeout=6000)
    high = int(scrubber.get_attribute("aria-valuemax") or 0)
    assert high > live_end
    expect(scrubber).to_have_attribute("aria-valuenow", str(high))
    expect(page.locator(tid("travel-label"))).to_have_text("Live")

    # ← from live: the change just marked, the newest.
    assert changes(srv)[-1]["at"] == alpha_down["at"]
    scrubber.focus()
    page.keyboard.press("ArrowLeft")
    expect(page.locator(tid("moment-at"))).to_have_attribute("datetime", alpha_down["at"])
    expect(scrubber).to_have_attribute("aria-valuenow", str(epoch_ms(alpha_down["at"])))

    # At that past moment, "beta" forced down: marked too, the strip's end moves on, and the
    # scrubber and the board stay on the moment chosen.
    srv.force("beta", {"state": "error"})
    expect(down_marks).to_have_count(downs + 2, timeout=6000)
    assert int(scrubber.get_attribute("aria-valuemax") or 0) > high
    expect(scrubber).to_have_attribute("aria-valuenow", str(epoch_ms(alpha_down["at"])))
    expect(page.locator(tid("moment-at"))).to_have_attribute("datetime", alpha_down["at"])
    assert at_in(page.url) == alpha_down["at"]

    # Closed, the strip reads nothing more, however the deck changes.
    page.locator(tid("travel-open")).click()
    expect(page.locator(tid("travel"))).to_be_hidden()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if urlparse(r.url).path == "/api/changes" else None)
    srv.force("slow", {"state": "error"})
    wait_for(lambda: any(c["panel"] == "slow" and c["to"]["health"] == "down" for c in changes(srv)), timeout=10)
    page.wait_for_timeout(3000)
    assert asked == []


def test_picking_a_change_moves_the_board_and_back_to_live_returns(recovered, open_page):
    srv, down = recovered
    status, incident = srv.request("POST", "/api/incidents", {"title": "Flaky flakes", "panels": ["flaky"], "message": "Looking"})
    assert status == 201, incident
    page = open_page(srv)
    page.locator(tid("travel-open")).click()
    # The open incident is marked on the strip. This history is younger than either span: both
    # start at its oldest instant, and say since when.
    expect(page.locator(tid("travel-incident"))).to_have_attribute("title", "Flaky flakes")
    scrubber = page.locator(tid("travel-scrubber"))
    oldest = oldest_kept(srv)
    expect(scrubber).to_have_attribute("aria-valuemin", str(epoch_ms(oldest)))
    since = page.locator(tid("travel-since"))
    expect(since).to_have_text(f"since {moment_label(page, oldest)}")
    page.locator(tid("travel-span-7d")).click()
    expect(page.locator(tid("travel-span-7d"))).to_have_attribute("aria-pressed", "true")
    expect(scrubber).to_have_attribute("aria-valuemin", str(epoch_ms(oldest)))
    expect(since).to_be_visible()
    scrubber.focus()
    page.keyboard.press("End")
    expect(page.locator(tid("moment-at"))).to_have_attribute("datetime", changes(srv)[-1]["at"])
    page.locator(f"{tid('travel-change')}[data-at='{down['at']}'][data-panel='flaky'] button").click()
    expect_past(page, down["at"])
    page.locator(tid("travel-scrubber")).focus()
    page.keyboard.press("Home")
    expect(page.locator(tid("moment-at"))).to_have_attribute("datetime", oldest)
    page.locator(tid("moment-live")).click()
    expect_live(page)


@pytest.mark.parametrize("at", ["2000-01-01T00:00:00.000Z", "yesterday"])
def test_a_moment_older_than_the_history_shows_the_servers_message(recovered, page, at):
    srv, _ = recovered
    status, answer = srv.request("GET", f"/api/state?at={at}")
    assert status == 400, answer
    page.goto(f"{srv.url}/?at={at}")
    banner = page.locator(tid("moment-banner"))
    expect(banner).to_have_attribute("data-kind", "failed")
    expect(banner).to_contain_text(answer["error"]["message"])
    expect(page.locator(tid("empty"))).to_be_hidden()
    page.locator(tid("moment-live")).click()
    wait_live(page)
    expect_live(page)


def test_dragging_the_scrubber_asks_once_it_rests(recovered, open_page):
    srv, _ = recovered
    page = open_page(srv)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if urlparse(r.url).path == "/api/state" and "at=" in r.url else None)
    page.locator(tid("travel-open")).click()
    expect(page.locator(tid("travel-mark")).first).to_be_attached()
    track = page.locator(tid("travel-track"))
    # Hovering waits until the track is visible and stable, and measures it then: a box read
    # earlier may be stale by the press on a loaded machine.
    size = track.bounding_box()
    assert size
    track.hover(position={"x": size["width"] * 0.2, "y": size["height"] / 2})
    page.mouse.down()
    box = track.bounding_box()
    assert box
    y = box["y"] + box["height"] / 2
    for step in range(1, 21):
        page.mouse.move(box["x"] + box["width"] * (0.2 + 0.02 * step), y)
    page.mouse.up()
    # The strip spans this new server's history: the moment 60 % into it is asked for, and shown.
    expect(page.locator(tid("moment-banner"))).to_have_attribute("data-kind", "past")
    scrubber = page.locator(tid("travel-scrubber"))
    low, high = (int(scrubber.get_attribute(a) or 0) for a in ("aria-valuemin", "aria-valuemax"))
    now = int(scrubber.get_attribute("aria-valuenow") or 0)
    assert abs((now - low) / (high - low) - 0.6) < 0.01
    assert epoch_ms(at_in(page.url) or "") == now
    # The release asks; moves in between ask only when the scrubber rests.
    assert 1 <= len(asked) <= 3, asked


def test_a_moment_nobody_watched_says_so(make_server, page):
    srv = make_server()
    srv.settle()
    wait_for(lambda: changes(srv), timeout=20)
    srv.stop()
    gap = dt.datetime.now(dt.timezone.utc)
    srv.restart()
    srv.settle()
    at = gap.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    page.goto(f"{srv.url}/?at={at}")
    banner = page.locator(tid("moment-banner"))
    expect(banner).to_have_attribute("data-kind", "unwatched")
    expect(banner).to_contain_text("StateDeck was not running then; the board as it last was")
    expect(panel(page, "alpha")).to_be_visible()


def test_a_history_younger_than_the_span_fills_the_strip_and_every_end_is_served(make_server, open_page):
    srv = make_server()
    srv.settle()
    wait_for(lambda: len({c["at"] for c in changes(srv)}) >= 2, timeout=20)
    oldest = oldest_kept(srv)
    page = open_page(srv)
    page.locator(tid("travel-open")).click()
    scrubber = page.locator(tid("travel-scrubber"))
    expect(scrubber).to_have_attribute("aria-valuemin", str(epoch_ms(oldest)))
    expect(page.locator(tid("travel-since"))).to_have_text(f"since {moment_label(page, oldest)}")
    # The first changes were kept as the history began: their marks start at the strip's left
    # end, not crammed against its right one among the latest.
    at = page.locator(tid("travel-mark")).evaluate_all("(marks) => marks.map((m) => Number(m.style.getPropertyValue('--at')))")
    assert min(at) < 0.05 and max(at) - min(at) > 0.1, at

    # Home: the oldest moment kept, shown.
    scrubber.focus()
    page.keyboard.press("Home")
    banner = page.locator(tid("moment-banner"))
    expect(page.locator(tid("moment-at"))).to_have_attribute("datetime", oldest)
    expect(banner).to_have_attribute("data-kind", "past")
    expect(scrubber).to_have_attribute("aria-valuenow", str(epoch_ms(oldest)))

    # A drag released left of the strip: its left end, the oldest moment kept, shown.
    box = page.locator(tid("travel-track")).bounding_box()
    assert box
    y = box["y"] + box["height"] / 2
    page.keyboard.press("End")
    expect(page.locator(tid("moment-at"))).not_to_have_attribute("datetime", oldest)
    page.mouse.move(box["x"] + box["width"] / 2, y)
    page.mouse.down()
    page.mouse.move(box["x"] - 40, y)
    page.mouse.up()
    expect(page.locator(tid("moment-at"))).to_have_attribute("datetime", oldest)
    expect(banner).to_have_attribute("data-kind", "past")

    # A click at the strip's left end: a moment a few milliseconds after the oldest, shown.
    scrubber.focus()
    page.keyboard.press("End")
    expect(page.locator(tid("moment-at"))).not_to_have_attribute("datetime", oldest)
    end = page.locator(tid("moment-at")).get_attribute("datetime")
    page.mouse.click(box["x"] + 1, y)
    page.wait_for_function("(end) => new URLSearchParams(location.search).get('at') !== end", arg=end)
    clicked = at_in(page.evaluate("location.href")) or ""
    high = int(scrubber.get_attribute("aria-valuemax") or 0)
    assert epoch_ms(oldest) <= epoch_ms(clicked) < epoch_ms(oldest) + (high - epoch_ms(oldest)) * 0.05, clicked
    expect(page.locator(tid("moment-at"))).to_have_attribute("datetime", clicked)
    expect(banner).to_have_attribute("data-kind", "past")


def history_of(panel_id: str, to: str):
    """Matches the page's request for `panel_id`'s stored changes up to `to`."""

    def match(request) -> bool:
        url = urlparse(request.url)
        return url.path == f"/api/panels/{panel_id}/history" and parse_qs(url.query).get("to", [None])[0] == to

    return match


def uptime_of(panel_id: str, to: str | None):
    """Matches the page's request for `panel_id`'s timeline ending at `to` (None: at now)."""

    def match(request) -> bool:
        url = urlparse(request.url)
        return url.path == f"/api/panels/{panel_id}/uptime" and parse_qs(url.query).get("to", [None])[0] == to

    return match


def axis_label(page: Page, at: str) -> str:
    """How a timeline's axis names the instant `at`."""
    return page.evaluate("async (t) => (await import('/timeline-text.js')).momentText(Date.parse(t), Date.parse(t))", at)


def test_on_a_past_moment_each_timeline_ends_there_with_the_health_of_then(recovered, open_page, new_context):
    srv, down = recovered
    status, live = srv.request("GET", "/api/panels/flaky/uptime")
    assert status == 200 and live["current"]["state"] == "up", live

    # Opened at the moment "flaky" went down: its timeline ends there, and says it is down since.
    other = new_context().new_page()
    with other.expect_request(uptime_of("flaky", down["at"])):
        other.goto(f"{srv.url}/?at={down['at']}")
    expect_past(other, down["at"])
    flaky = panel(other, "flaky")
    expect(flaky.locator(tid("current-health"))).to_have_text(re.compile(r"^Down since "))
    expect(flaky.locator(tid("timeline-end"))).to_have_text(axis_label(other, down["at"]))
    expect(flaky.locator(tid("timeline-strip"))).to_have_attribute("aria-label", re.compile(r"^\S+ \S+ up to .+: "))
    # Its history, opened there, ends at the moment too.
    with other.expect_request(history_of("flaky", down["at"])):
        flaky.locator(tid("history-open")).click()
    expect(other.locator(tid("history-dialog"))).to_be_visible()
    other.keyboard.press("Escape")

    # Stepping back to it from the live board asks again for that moment; live again, for now.
    page = open_page(srv)
    expect(panel(page, "flaky").locator(tid("timeline-end"))).to_have_text("now")
    page.locator(tid("travel-open")).click()
    expect(page.locator(tid("travel-mark")).first).to_be_attached()
    flaky = panel(page, "flaky")
    with page.expect_request(uptime_of("flaky", down["at"])):
        for _ in range(presses_back_to(srv, down["at"])):
            page.keyboard.press("ArrowLeft")
        # A timeline is asked for only while its card is on screen, below the open strip.
        flaky.scroll_into_view_if_needed()
    expect(flaky.locator(tid("current-health"))).to_have_text(re.compile(r"^Down since "))
    with page.expect_request(uptime_of("flaky", None)):
        page.locator(tid("moment-live")).click()
    expect_live(page)
    expect(flaky.locator(tid("current-health"))).to_have_text(re.compile(r"^Up for "))
    expect(flaky.locator(tid("timeline-end"))).to_have_text("now")
    expect(flaky.locator(tid("timeline-strip"))).to_have_attribute("aria-label", re.compile(r"^Last "))
