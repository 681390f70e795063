"""The event-stream client (Public/stream.js) in the browser: the SSE parser, the backoff and the
silence watchdog."""
from __future__ import annotations

import time

from playwright.sync_api import expect

from helpers import tid, wait_live


def test_parser_follows_the_event_stream_format(server, open_page):
    page = open_page(server)
    events = page.evaluate(
        """async () => {
        const { EventStreamParser } = await import('/stream.js');
        const out = [], comments = [], retries = [];
        const p = new EventStreamParser({ onEvent: (e) => out.push(e), onComment: (c) => comments.push(c),
                                          onRetry: (ms) => retries.push(ms) });
        // chunk boundaries in awkward places, CRLF split across chunks, multi-line data, comments
        for (const chunk of ['retry: 2000\\n\\n: ping\\n', '\\nid: 7\\nevent: pan', 'el\\ndata: {"a":\\r', '\\ndata: 1}\\r\\n\\r\\n',
                             'data: no type\\n\\n', 'id: 9\\n\\n', 'event: toast\\ndata:x\\n\\n'])
          p.feed(chunk);
        return { out, comments, retries };
      }"""
    )
    assert events["retries"] == [2000]
    assert events["comments"] == ["ping"]
    assert events["out"] == [
        {"type": "panel", "data": '{"a":\n1}', "lastEventId": "7", "hasId": True},
        {"type": "message", "data": "no type", "lastEventId": "7", "hasId": False},
        {"type": "toast", "data": "x", "lastEventId": "9", "hasId": False},
    ]


def test_backoff_grows_is_capped_and_jittered(server, open_page):
    page = open_page(server)
    delays = page.evaluate(
        """async () => {
        const { backoffDelay } = await import('/stream.js');
        const mid = () => 0.5, low = () => 0, high = () => 0.999999;
        return { mid: [1, 2, 3, 4, 5, 6, 10].map((a) => backoffDelay(a, mid)),
                 low: backoffDelay(1, low), high: backoffDelay(1, high), capHigh: backoffDelay(20, high) };
      }"""
    )
    assert delays["mid"] == [500, 1000, 2000, 4000, 8000, 10000, 10000]
    assert delays["low"] == 350 and 645 <= delays["high"] <= 650
    assert delays["capHigh"] == 10000


def test_a_silent_stream_is_treated_as_dead(server, open_page):
    page = open_page(server)
    # /silent never answers: no byte arrives, so the watchdog must give up on it.
    page.route("**/silent", lambda route: None)
    states = page.evaluate(
        """async () => {
        const { createEventStream } = await import('/stream.js');
        const seen = [];
        const s = createEventStream({ url: '/silent', silenceMs: () => 400, onEvent: () => {}, onStatus: (st) => seen.push({ ...st }) });
        const t0 = performance.now();
        s.start();
        await new Promise((r) => setTimeout(r, 700));
        s.stop();
        const down = seen.find((x) => x.status === 'down');
        return { down, after: down ? down.downSince : null, t0 };
      }"""
    )
    assert states["down"] and states["down"]["attempt"] == 1, states


def test_reconnect_now_in_another_tab_reaches_the_leader(server, new_context, problems):
    ctx = new_context()
    leader = problems.watch(ctx.new_page())
    leader.goto(server.url + "/")
    wait_live(leader)
    follower = problems.watch(ctx.new_page())
    follower.goto(server.url + "/")
    wait_live(follower)
    stream_requests: list[float] = []
    ctx.on("request", lambda r: stream_requests.append(time.monotonic()) if r.url.endswith("/events") else None)
    server.kill()
    for p in (leader, follower):
        expect(p.locator(tid("connection-banner"))).to_be_visible(timeout=5_000)
    # Wait for the 4th failed attempt: the next one is then 4 s ± 30 % away, so a reconnection
    # within a second of the click is the click's doing.
    expect(follower.locator(tid("connection-detail"))).to_contain_text("attempt 4", timeout=15_000)
    server.restart()
    clicked = time.monotonic()
    follower.locator(tid("reconnect-now")).click()
    for p in (leader, follower):
        expect(p.locator(tid("connection-banner"))).to_be_hidden(timeout=2_000)
    assert any(clicked <= t <= clicked + 1.0 for t in stream_requests), (clicked, stream_requests)
