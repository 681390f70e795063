"""Many tabs of one browser share one event stream (HTTP/1.1 allows 6 connections per host)."""
from __future__ import annotations

from playwright.sync_api import expect

from helpers import panel, tid, wait_live

TABS = 10


def test_ten_tabs_all_receive_a_forced_state_over_one_stream(server, new_context, problems):
    ctx = new_context()
    streams: list[str] = []
    ctx.on("request", lambda r: streams.append(r.url) if r.url.endswith("/events") else None)
    pages = []
    for _ in range(TABS):
        p = problems.watch(ctx.new_page())
        p.goto(server.url + "/")
        pages.append(p)
    for p in pages:
        wait_live(p)
    assert len(streams) == 1, f"{len(streams)} streams opened for {TABS} tabs"

    state = server.force("alpha", {"state": "error", "error": {"kind": "timeout"}})
    title = state["latestValidError"]["title"]
    for p in pages:
        view = panel(p, "alpha")
        expect(view).to_have_attribute("data-view", "error", timeout=10_000)
        expect(view.locator(tid("error-title"))).to_have_text(title)
        expect(view.locator(tid("debug-badge"))).to_be_visible()

    # The leader (the first tab) closes: another tab takes the lock and opens the one stream.
    pages[0].close()
    rest = pages[1:]
    server.force("beta", {"state": "loading"})
    for p in rest:
        expect(panel(p, "beta")).to_have_attribute("data-loading", "true", timeout=10_000)
    server.force("beta", {"state": "error", "error": {"kind": "notFound"}})
    for p in rest:
        expect(panel(p, "beta")).to_have_attribute("data-view", "error", timeout=10_000)
        expect(p.locator(tid("connection-status"))).to_have_attribute("data-state", "open")
    assert len(streams) == 2, streams

    # A tab opened now gets the current state at once.
    late = problems.watch(ctx.new_page())
    late.goto(server.url + "/")
    wait_live(late)
    expect(panel(late, "alpha")).to_have_attribute("data-view", "error")
    expect(panel(late, "beta")).to_have_attribute("data-view", "error")
    assert len(streams) == 2, streams
