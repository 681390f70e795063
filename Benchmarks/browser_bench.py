#!/usr/bin/env python3
"""Browser rendering under load: a StateDeck page in headless Chromium while the server changes
panel states at a steady rate. Run by Benchmarks/run.py in a Python that has Playwright.

    browser_bench.py --base-url http://127.0.0.1:PORT --panels 500 --prefix p --rate 200 \\
        --seconds 30 --chromium /usr/bin/chromium --out result.json

With --overview it measures the overview of a large deck instead (overview() below): the first
screen, the search, the main thread and the JS heap under changes, and the timeline requests.

Every change is a debug POST `{"state":"loaded","info":{"summary":"~SDB<run>:<seq>:<ns>~"}}`
to one panel (round robin), where ns is the wall-clock time the POST was sent: the page then
receives a `panel` event carrying that marker. Times in the page are wall-clock too
(performance.timeOrigin + performance.now()), on the same machine. A plain SSE client in this
script (a thread on GET /events) maps each event id to its marker, and its own receive times give
the server's share of the latency.

"DOM updated" is read from the page's hook when it has one:

    performance.mark("statedeck:applied", {detail: {eventId: <the SSE id, a number>}})

set right after the page has changed the DOM for that event (or for every event up to that id,
when it applies them in batches); the page sets it when opened with `?bench`, as this script does.
Without the hook, a MutationObserver notes when each marker's
text first enters the DOM (less exact: it needs the page to show the summary text, and it costs
a little main-thread time itself). The result names the mode used.

Frames: a requestAnimationFrame loop records frame intervals, and the main-thread work of each
frame (from the frame's rAF callback to a message posted from it, which runs once the frame's
style, layout and paint are done). CDP Performance.getMetrics gives the main thread's busy time.
"""

import argparse
import http.client
import json
import random
import re
import socket
import statistics
import sys
import threading
import time

from playwright.sync_api import sync_playwright

INIT_SCRIPT = r"""
(() => {
  const wall = () => performance.timeOrigin + performance.now();
  const bench = window.__bench = {dom: {}, frames: [], work: [], recording: false};
  // Frames: intervals, and work from rAF to after paint.
  const channel = new MessageChannel();
  let frameStart = 0;
  channel.port1.onmessage = () => { if (bench.recording) bench.work.push(performance.now() - frameStart); };
  let last = 0;
  const frame = (ts) => {
    if (bench.recording && last) bench.frames.push(ts - last);
    last = ts;
    frameStart = performance.now();
    channel.port2.postMessage(0);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  // Fallback "DOM updated": the first time a marker's text is in the DOM.
  bench.observeDom = () => {
    const pattern = /~SDB[0-9a-f]+:(\d+):\d+~/g;
    const seen = (text, t) => {
      if (!text || text.indexOf("~SDB") < 0) return;
      for (const m of text.matchAll(pattern)) if (!(m[1] in bench.dom)) bench.dom[m[1]] = t;
    };
    new MutationObserver((records) => {
      const t = wall();
      for (const r of records) {
        if (r.type === "characterData") seen(r.target.data, t);
        else for (const node of r.addedNodes) seen(node.textContent, t);
        if (r.type === "attributes") seen(r.target.getAttribute(r.attributeName), t);
      }
    }).observe(document, {subtree: true, childList: true, characterData: true});
  };
})();
"""

COLLECT_SCRIPT = r"""
() => {
  const marks = performance.getEntriesByName("statedeck:applied").map(
    (m) => [Number(m.detail && m.detail.eventId), performance.timeOrigin + m.startTime]);
  const b = window.__bench;
  return {dom: b.dom, frames: b.frames, work: b.work, marks: marks};
}
"""


class Subscriber(threading.Thread):
    """A plain SSE client: event id -> (sequence number, publish ns, receive ns)."""

    MARKER = re.compile(r"~SDB([0-9a-f]+):(\d+):(\d+)~")

    def __init__(self, host, port, run_id):
        super().__init__(daemon=True)
        self.run_id = run_id
        self.events = {}
        self.stopped = threading.Event()
        # Resume from the current state, as the page does: no snapshot (of 500 panels) to read.
        self.connection = http.client.HTTPConnection(host, port, timeout=5)
        self.connection.request("GET", "/api/state")
        last_id = json.loads(self.connection.getresponse().read())["lastEventId"]
        self.connection.request("GET", "/events", headers={"Accept": "text/event-stream",
                                                           "Last-Event-ID": str(last_id)})
        self.response = self.connection.getresponse()
        if self.response.status != 200:
            raise RuntimeError(f"GET /events answered {self.response.status}")
        self.connection.sock.settimeout(None)   # a quiet stream is no error

    def run(self):
        buffer, event_id = "", None
        while not self.stopped.is_set():
            try:
                chunk = self.response.read1(65536)
            except (OSError, ValueError, AttributeError, http.client.HTTPException):
                break   # the stream ended, or stop() shut it down under this read
            if not chunk:
                break
            received = time.time_ns()
            buffer += chunk.decode("utf-8", "replace")
            *lines, buffer = buffer.split("\n")
            for line in lines:
                if line.startswith("id:"):
                    event_id = int(line[3:].strip())
                elif line.startswith("data:") and event_id is not None:
                    m = self.MARKER.search(line)
                    if m and m.group(1) == self.run_id and event_id not in self.events:
                        self.events[event_id] = (int(m.group(2)), int(m.group(3)), received)

    def stop(self):
        self.stopped.set()
        try:
            self.connection.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.connection.close()


class Publisher(threading.Thread):
    """POSTs debug state changes at a steady rate on one keep-alive connection."""

    def __init__(self, host, port, panels, rate, seconds, run_id):
        super().__init__(daemon=True)
        self.host, self.port, self.panels, self.rate, self.seconds = host, port, panels, rate, seconds
        self.run_id = run_id
        self.sent = {}          # seq -> ns
        self.failed = 0
        self.elapsed = 0.0
        self.seq = 0
        self.done = False

    def post(self, connection, panel, seq):
        ns = time.time_ns()
        body = json.dumps({"state": "loaded", "info": {
            "summary": f"~SDB{self.run_id}:{seq}:{ns}~",
            "fields": [{"label": "sequence", "value": str(seq)}]}})
        connection.request("POST", f"/api/debug/panels/{panel}/state", body,
                           {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        return ns, response.status

    def publish(self, count, rate):
        """Sends `count` changes at `rate` per second, giving up 10 s after the last is due."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=5)
        start = time.monotonic()
        give_up = start + count / rate + 10
        for i in range(count):
            if time.monotonic() > give_up:
                break
            delay = start + i / rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            self.seq += 1
            panel = self.panels[self.seq % len(self.panels)]
            try:
                ns, status = self.post(connection, panel, self.seq)
                if 200 <= status < 300:
                    self.sent[self.seq] = ns
                else:
                    self.failed += 1
            except (OSError, http.client.HTTPException):
                self.failed += 1
                connection.close()
                connection = http.client.HTTPConnection(self.host, self.port, timeout=5)
        connection.close()
        return time.monotonic() - start

    def run(self):
        self.elapsed = self.publish(int(self.rate * self.seconds), self.rate)
        self.done = True


def percentile(values, q):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


FIRST_SCREEN_SCRIPT = r"""
(() => {
  // The first frame that starts with panel cards on the page: the frame before drew them.
  const first = window.__firstScreen = {at: null};
  const frame = () => {
    if (document.querySelector("[data-testid=panel]")) first.at = performance.now();
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
"""

# Where the first screen's time went, from Resource Timing (ms after navigation): the HTML, the modules
# app.js imports (every script but the debug tools' modules, which load later), and the state document.
FIRST_SCREEN_PARTS_SCRIPT = r"""
() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const resources = performance.getEntriesByType("resource");
  const modules = resources.filter((r) => r.initiatorType !== "fetch" && /\.js$/.test(r.name) && !/\/debug[-a-z]*\.js$/.test(r.name));
  const state = resources.find((r) => new URL(r.name).pathname === "/api/state");
  return {
    html_ms: nav.responseEnd,
    modules_ms: Math.max(...modules.map((r) => r.responseEnd)),
    state_requested_ms: state ? state.requestStart : null,
    state_answered_ms: state ? state.responseStart : null,
    state_received_ms: state ? state.responseEnd : null,
    state_bytes: state ? state.encodedBodySize : null,
  };
}
"""

SEARCH_SCRIPT = r"""
async (q) => {
  const input = document.querySelector("[data-testid=search]");
  const start = performance.now();
  input.value = q;
  input.dispatchEvent(new Event("input", {bubbles: true}));
  // Done once the frame after it has been laid out and painted: a message posted from that
  // frame's animation callback runs after its paint.
  await new Promise((done) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done();
    channel.port2.postMessage(0);
  }));
  return {ms: performance.now() - start,
          status: document.querySelector("[data-testid=overview-status]").textContent,
          cards: document.querySelectorAll("[data-testid=panel]").length};
}
"""

SCROLL_SCRIPT = r"""
async (steps) => {
  const height = document.documentElement.scrollHeight;
  for (let i = 1; i <= steps; i++) {
    window.scrollTo(0, (height * i) / steps);
    await new Promise((done) => setTimeout(done, 100));
  }
  window.scrollTo(0, 0);
  await new Promise((done) => setTimeout(done, 500));
  return height;
}
"""


def metrics(cdp):
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}


def overview(args, host, port, panels):
    """The overview of a large deck (10,000 panels): how long until the first screen of cards is
    drawn after navigation, how long a search takes to be drawn, how busy the main thread is and how
    large the JS heap grows while `--rate` panel changes a second arrive, and how many timeline
    (uptime) requests the page makes, after loading and after scrolling from top to bottom. With
    `--first-screen-only`, the first screen and where its time went, nothing after."""
    run_id = format(random.getrandbits(32), "x")
    uptime_requests = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            page.on("request", lambda r: uptime_requests.append(r.url) if "/uptime" in r.url else None)
            page.add_init_script(FIRST_SCREEN_SCRIPT)
            cdp = page.context.new_cdp_session(page)
            cdp.send("Performance.enable")
            page.goto(args.base_url + "/?bench", wait_until="commit", timeout=30000)
            # Polled from here: the page's CSP refuses wait_for_function's evaluated predicate.
            first_screen_ms = None
            deadline = time.monotonic() + 30
            while first_screen_ms is None and time.monotonic() < deadline:
                page.wait_for_timeout(50)
                first_screen_ms = page.evaluate("() => window.__firstScreen && window.__firstScreen.at")
            if first_screen_ms is None:
                raise RuntimeError("no panel was drawn within 30 s")
            cards_drawn = page.evaluate("document.querySelectorAll('[data-testid=panel]').length")
            parts = page.evaluate(FIRST_SCREEN_PARTS_SCRIPT)
            first_screen = {"mode": "overview", "panels": len(panels), "first_screen_ms": first_screen_ms,
                            "cards_in_first_screen": cards_drawn,
                            **{f"first_screen_{k}": v for k, v in parts.items()}}
            if args.first_screen_only:
                return first_screen
            page.wait_for_timeout(3000)
            uptime_after_load = len(uptime_requests)

            queries = [f"{args.prefix}{len(panels) // 2 + 7}", f"{args.prefix}12", "panel", "no such panel"]
            searches = []
            for _ in range(3):
                for q in queries:
                    searches.append({"query": q, **page.evaluate(SEARCH_SCRIPT, q)})
                    page.wait_for_timeout(200)
                    searches.append({"query": "", **page.evaluate(SEARCH_SCRIPT, "")})
                    page.wait_for_timeout(200)

            height = page.evaluate(SCROLL_SCRIPT, 20)
            page.wait_for_timeout(1000)
            uptime_after_scroll = len(uptime_requests)

            cdp.send("HeapProfiler.collectGarbage")
            heap_before = metrics(cdp)["JSHeapUsedSize"]
            before = metrics(cdp)
            publishers = [Publisher(host, port, panels[k::args.publishers], args.rate / args.publishers,
                                    args.seconds, run_id) for k in range(args.publishers)]
            started = time.monotonic()
            for publisher in publishers:
                publisher.start()
            heap_peak = heap_before
            while any(p.is_alive() for p in publishers) and time.monotonic() - started < args.seconds + 20:
                page.wait_for_timeout(1000)
                heap_peak = max(heap_peak, metrics(cdp)["JSHeapUsedSize"])
            churn_seconds = time.monotonic() - started
            after = metrics(cdp)
            page.wait_for_timeout(1000)
            cdp.send("HeapProfiler.collectGarbage")
            heap_after = metrics(cdp)["JSHeapUsedSize"]
            cards_after = page.evaluate("document.querySelectorAll('[data-testid=panel]').length")
        finally:
            browser.close()

    published = sum(len(p.sent) for p in publishers)
    elapsed = max((p.elapsed for p in publishers if p.done), default=churn_seconds)
    search_ms = [s["ms"] for s in searches]
    busy = after.get("TaskDuration", 0) - before.get("TaskDuration", 0)
    return {
        **first_screen,
        "search_p50_ms": percentile(search_ms, 0.5),
        "search_max_ms": max(search_ms),
        "searches": searches,
        "page_height_px": height,
        "uptime_requests_after_load": uptime_after_load,
        "uptime_requests_after_scroll": uptime_after_scroll,
        "rate": args.rate,
        "achieved_rate": published / elapsed if elapsed else 0,
        "publish_failed": sum(p.failed for p in publishers),
        "busy_pct": 100 * busy / churn_seconds if churn_seconds else None,
        "heap_mb_before_changes": heap_before / 2**20,
        "heap_mb_peak": heap_peak / 2**20,
        "heap_mb_after_changes": heap_after / 2**20,
        "cards_drawn_after_changes": cards_after,
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--base-url", required=True)
    p.add_argument("--panels", type=int, default=500)
    p.add_argument("--prefix", default="p")
    p.add_argument("--ids", help="comma-separated panel ids, instead of --panels and --prefix")
    p.add_argument("--rate", type=float, default=200)
    p.add_argument("--seconds", type=float, default=30)
    p.add_argument("--chromium", default="/usr/bin/chromium")
    p.add_argument("--out", required=True)
    p.add_argument("--overview", action="store_true",
                   help="measure the overview of a large deck (first screen, search, busy, heap)")
    p.add_argument("--publishers", type=int, default=4,
                   help="--overview: connections the changes are sent on, side by side")
    p.add_argument("--first-screen-only", action="store_true",
                   help="--overview: measure the first screen (and where its time went), nothing after it")
    args = p.parse_args()

    match = re.match(r"http://([^:/]+):(\d+)", args.base_url)
    host, port = match.group(1), int(match.group(2))
    panels = args.ids.split(",") if args.ids else [f"{args.prefix}{i:03d}" for i in range(args.panels)]
    if args.overview:
        with open(args.out, "w") as f:
            json.dump(overview(args, host, port, panels), f, indent=1)
        return
    run_id = format(random.getrandbits(32), "x")

    subscriber = Subscriber(host, port, run_id)
    subscriber.start()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            page.add_init_script(INIT_SCRIPT)
            cdp = page.context.new_cdp_session(page)
            cdp.send("Performance.enable")
            page.goto(args.base_url + "/?bench", wait_until="load", timeout=30000)
            page.wait_for_timeout(2000)   # snapshot applied, page settled

            # Probe: does the page set the "statedeck:applied" mark?
            probe = Publisher(host, port, panels, 20, 0.25, run_id)
            probe.publish(5, 20)
            page.wait_for_timeout(1000)
            has_hook = page.evaluate(
                "performance.getEntriesByName('statedeck:applied').length") > 0
            mode = "the page's statedeck:applied marks" if has_hook else "a MutationObserver"
            if not has_hook:
                page.evaluate("window.__bench.observeDom()")
            page.evaluate("performance.clearMarks('statedeck:applied'); window.__bench.dom = {};")

            before = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            page.evaluate("window.__bench.recording = true")
            publisher = Publisher(host, port, panels, args.rate, args.seconds, run_id)
            publisher.seq = probe.seq
            started = time.monotonic()
            publisher.start()
            publisher.join(args.seconds + 20)
            publish_seconds = time.monotonic() - started
            page.wait_for_timeout(2000)   # let the last events land
            page.evaluate("window.__bench.recording = false")
            wall = time.monotonic() - started
            after = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            data = page.evaluate(COLLECT_SCRIPT)
        finally:
            browser.close()
            subscriber.stop()

    sent = publisher.sent
    if not subscriber.events:
        print("browser_bench: the plain SSE client saw no marked event", file=sys.stderr)
    id_to_seq = {event_id: seq for event_id, (seq, _, _) in subscriber.events.items() if seq in sent}
    recv_latency = [(recv - ns) / 1e6 for seq, ns, recv in subscriber.events.values() if seq in sent]

    applied = {}   # seq -> wall ms when the DOM had it
    if has_hook:
        ids = sorted(id_to_seq)
        j = 0
        for event_id, t in sorted(data["marks"]):   # a mark covers every event up to its id
            while j < len(ids) and ids[j] <= event_id:
                applied.setdefault(id_to_seq[ids[j]], t)
                j += 1
    else:
        applied = {int(seq): t for seq, t in data["dom"].items() if int(seq) in sent}
    dom_latency = {seq: t - sent[seq] / 1e6 for seq, t in applied.items() if seq in sent}

    order = sorted(dom_latency)
    first_end = min(sent.values()) + 5e9 if sent else 0
    last_start = max(sent.values()) - 5e9 if sent else 0
    first = [dom_latency[s] for s in order if sent[s] <= first_end]
    last = [dom_latency[s] for s in order if sent[s] >= last_start]
    frames, work = data["frames"], data["work"]
    interval = statistics.median(frames) if frames else 16.7
    busy = after.get("TaskDuration", 0) - before.get("TaskDuration", 0)
    values = list(dom_latency.values())
    result = {
        "mode": mode,
        "published": len(sent),
        "publish_failed": publisher.failed,
        "publisher_finished": publisher.done,
        "achieved_rate": len(sent) / (publisher.elapsed if publisher.done else publish_seconds),
        "received_by_plain_client": len(recv_latency),
        "applied": len(dom_latency),
        "applied_fraction": len(dom_latency) / len(sent) if sent else 0,
        "dom_p50_ms": percentile(values, 0.50),
        "dom_p99_ms": percentile(values, 0.99),
        "dom_max_ms": max(values) if values else None,
        "recv_p50_ms": percentile(recv_latency, 0.50),
        "recv_p99_ms": percentile(recv_latency, 0.99),
        "first_window_p50_ms": percentile(first, 0.5) or 0,
        "last_window_p50_ms": percentile(last, 0.5) or 0,
        "frames": len(frames),
        "frame_p50_ms": percentile(frames, 0.50),
        "frame_p95_ms": percentile(frames, 0.95),
        "work_p95_ms": percentile(work, 0.95),
        "long_frames_pct": 100 * sum(f > 1.5 * interval for f in frames) / len(frames) if frames else None,
        "busy_pct": 100 * busy / wall if wall else None,
    }
    result["keeps_up"] = bool(
        sent and result["applied_fraction"] >= 0.999
        and result["last_window_p50_ms"] <= max(2 * result["first_window_p50_ms"],
                                                result["first_window_p50_ms"] + 10))
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
