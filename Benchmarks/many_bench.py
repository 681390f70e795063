"""Many panels (`make bench`, `--only many`): StateDeck checking N http panels on a refresh
schedule against a local nginx, side by side with the floor (Benchmarks/curl-multi-floor.c: one
thread on libcurl's multi interface making the same requests on the same schedule).

nginx answers every panel's own path, /p/<i>, with a small JSON body and logs when each request
came, so both contenders are observed from outside, the same way: CPU per check (the process's
CPU over a window ÷ the checks nginx saw in it), threads, RSS, checks per second, how late each
check came and whether checks bunch up. For StateDeck it also counts the bytes an SSE client
reads: per panel change and per panel of the initial snapshot.

Called by run.py, whose process tracking, servers and report it uses."""
from __future__ import annotations

import http.client
import json
import os
import re
import resource
import select
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

# Targets (BENCHMARKS.md, "Many panels").
CPU_RATIO_TARGET = 3.0          # StateDeck's CPU per check ÷ the floor's
THREADS_TARGET = 16             # at 10,000 panels
RSS_TARGET_MB = 150             # megabytes, 10^6 bytes
LATENESS_P99_TARGET_MS = 1000
EVENT_BYTES_TARGET = 300        # per panel change
SNAPSHOT_PANEL_BYTES_TARGET = 500

# Bunching is judged over windows of this many seconds.
BUNCH_WINDOW = 0.1
# Threads and RSS are sampled this often (seconds), and nginx's log read as often.
SAMPLE_EVERY = 0.1
# Panels whose refresh is asked for by hand when counting event bytes.
RETRIED_PANELS = 20
# The body nginx answers on every panel's path: a small health document.
HEALTH_BODY = '{"status":"ok","version":"1.4.2","uptime":86400}'

# One worker (nginx's own CPU stays small and its log in one order), room for StateDeck's
# connections, and an access log of when each check came: $msec is when the request was
# logged, so the arrival is $msec - $request_time. A buffered log (flushed each second) keeps
# nginx's writes off the critical path; the harness reads it after each flush. The parts are
# formatted by run.start_nginx (dir, port), hence the doubled braces.
NGINX_HEAD = """
worker_processes 1;
events {{ worker_connections 20000; }}
http {{
    log_format checks '$msec $request_time $uri $status $connection_requests';
    access_log {dir}/access.log checks buffer=256k flush=1s;
    keepalive_timeout 75s;
"""
NGINX_TAIL = """
    server {{
        listen 127.0.0.1:{port} backlog=4096;
        location /p/ {{
            default_type application/json;
            return 200 '""" + HEALTH_BODY.replace("{", "{{").replace("}", "}}") + """';
        }}
        location / {{ return 404; }}
    }}
}}
"""


def nginx_template(run) -> str:
    return run.NGINX_COMMON + NGINX_HEAD + run.NGINX_TEMP_PATHS + NGINX_TAIL


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else None


def peak_in_window(times, width):
    """The most of the sorted `times` that fall within any span of `width` seconds."""
    best, first = 0, 0
    for last, t in enumerate(times):
        while t - times[first] >= width:
            first += 1
        best = max(best, last - first + 1)
    return best


def raise_open_files():
    """In the child before exec: as many open files as the hard limit allows (more when root may
    raise it), since StateDeck may hold a connection per panel that is loading."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    for wanted in (max(hard, 65536), hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
            return
        except (ValueError, OSError):
            continue


def process_status(pid):
    """(threads, VmRSS in KiB) of a running process."""
    threads = rss = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("Threads:"):
                threads = int(line.split()[1])
            elif line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    return threads, rss


def http_deck(folder: Path, panels: int, port: int, refresh: float) -> Path:
    """`panels` http panels p0 … p<N-1>, each with its own path on nginx."""
    deck = {"title": f"Many panels ({panels} http panels every {refresh:g} s)",
            "panels": [{"id": f"p{i}", "title": f"Service {i}",
                        "http": {"url": f"http://127.0.0.1:{port}/p/{i}"},
                        "refresh": f"{refresh:g}s"} for i in range(panels)]}
    path = folder / f"deck-{panels}-{refresh:g}s.json"
    path.write_text(json.dumps(deck))
    return path


class AccessLog:
    """nginx's access log, read as it grows: (arrival, panel index, connection's request number,
    status) for every request on /p/<i>."""

    LINE = re.compile(rb"^(\d+\.\d+) (\d+\.\d+) /p/(\d+) (\d+) (\d+)$")

    def __init__(self, path: Path):
        self.path, self.offset, self.partial = path, 0, b""

    def read_new(self):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                chunk = f.read()
        except FileNotFoundError:
            return []
        self.offset += len(chunk)
        lines = (self.partial + chunk).split(b"\n")
        self.partial = lines.pop()
        out = []
        for line in lines:
            match = self.LINE.match(line)
            if match:
                out.append((float(match.group(1)) - float(match.group(2)), int(match.group(3)),
                            int(match.group(5)), int(match.group(4))))
        return out

    def reset(self):
        """Empties the log between contenders (nginx appends, so it writes at the new end)."""
        os.truncate(self.path, 0) if self.path.exists() else None
        self.offset, self.partial = 0, b""


# --------------------------------------------------------------------------- SSE bytes

class EventReader:
    """A plain SSE client of /events on its own socket (select bounds every wait; a timeout on
    http.client's buffered reader would leave it mid-chunk): each event's type and data bytes."""

    def __init__(self, port: int, timeout: float):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.sock.setblocking(False)
        self.raw = bytearray()      # as received
        self.buffer = bytearray()   # the body, de-chunked
        self.scanned = 0            # where to look for the next blank line
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in self.raw:
            if not self._receive(deadline):
                raise RuntimeError("no answer to GET /events")
        head, _, rest = bytes(self.raw).partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(f"/events answered {head.splitlines()[0]!r}")
        self.chunked = b"transfer-encoding: chunked" in head.lower()
        self.raw = bytearray(rest)
        self._decode()

    def _receive(self, deadline):
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([self.sock], [], [], remaining)[0]:
            return False
        data = self.sock.recv(1 << 20)
        if not data:
            raise StreamDropped()
        self.raw += data
        return True

    def _decode(self):
        if not self.chunked:
            self.buffer += self.raw
            self.raw.clear()
            return
        while True:
            line_end = self.raw.find(b"\r\n")
            if line_end < 0:
                return
            size = int(bytes(self.raw[:line_end]).split(b";")[0], 16)
            if len(self.raw) < line_end + 2 + size + 2:
                return
            self.buffer += self.raw[line_end + 2:line_end + 2 + size]
            del self.raw[:line_end + 2 + size + 2]

    def next_event(self, deadline: float):
        """(type, data bytes) of the next event, None when the deadline passed first. Comment
        lines (`: ping`) are skipped."""
        while True:
            end = self.buffer.find(b"\n\n", max(0, self.scanned - 1))
            if end < 0:
                self.scanned = len(self.buffer)
                if not self._receive(deadline):
                    return None
                self._decode()
                continue
            block = bytes(self.buffer[:end])
            del self.buffer[:end + 2]
            self.scanned = 0
            kind, data = "message", []
            for line in block.split(b"\n"):
                field, _, value = line.partition(b":")
                value = value[1:] if value.startswith(b" ") else value
                if field == b"event":
                    kind = value.decode()
                elif field == b"data":
                    data.append(value)
            if data:
                return kind, b"\n".join(data)

    def close(self):
        self.sock.close()


class StreamDropped(Exception):
    """The server ended the event stream (it drops a page that falls 256 KiB behind)."""


def event_bytes(run, port: int, panels: int, attempts: int = 3):
    """`read_events`, again on a new stream (and other panels) when the server drops one: the
    number dropped is reported. When no stream lasted until its snapshot was read, the snapshot
    is sized from GET /api/state, the same document (docs/PROTOCOL.md)."""
    out = {"streams_dropped": 0, "snapshot_from_api_state": 0}
    for attempt in range(attempts):
        partial = {}
        try:
            out.update(read_events(run, port, panels, attempt, partial))
            return out
        except StreamDropped:
            out["streams_dropped"] += 1
            run.log(f"  the event stream ended or stalled {'after' if partial else 'before'} its snapshot")
            for key, v in partial.items():
                out.setdefault(key, v)
    if "snapshot_bytes" not in out:
        _, state = run.http("GET", f"http://127.0.0.1:{port}/api/state", timeout=60)
        out.update(snapshot_sizes(state, panels), snapshot_from_api_state=1)
    return out


def snapshot_sizes(snapshot: bytes, panels: int):
    try:
        counted = len(json.loads(snapshot)["panels"])
    except (ValueError, KeyError, TypeError):
        counted = panels
    return {"snapshot_bytes": len(snapshot), "snapshot_panels": counted,
            "snapshot_bytes_per_panel": len(snapshot) / max(1, counted)}


def read_events(run, port: int, panels: int, attempt: int, partial: dict):
    """Bytes an SSE client reads: the snapshot's data per panel, then the data of every panel
    event that follows a refresh asked for by hand on RETRIED_PANELS panels spread over the deck
    (loading, then loaded). A panel event is any event but `snapshot`, `toast` and `notice`,
    whatever its name (`panel` today; a compact format may name its patches otherwise).
    `partial` gets the snapshot's sizes as soon as they are known."""
    try:
        reader = EventReader(port, timeout=60)
    except RuntimeError as error:
        raise StreamDropped() from error
    try:
        deadline = time.monotonic() + 60
        while True:
            event = reader.next_event(deadline)
            if event is None:
                raise StreamDropped()
            if event[0] == "snapshot":
                break
        partial.update(snapshot_sizes(event[1], panels))
        # Another attempt asks other panels: a panel's manual loads are at least 1 s apart.
        retried = [f"p{(i * panels // RETRIED_PANELS + attempt) % panels}"
                   for i in range(min(RETRIED_PANELS, panels))]
        # Asked for on a thread, so that the stream is read meanwhile: a page that falls 256 KiB
        # behind is dropped, and a busy deck sends that much in a second.
        refused = []

        def ask():
            for panel in retried:
                try:
                    status, _ = run.http("POST", f"http://127.0.0.1:{port}/api/panels/{panel}/retry")
                except OSError as error:
                    status = error
                if status != 202:
                    refused.append(f"{panel}: {status}")

        asking = threading.Thread(target=ask, daemon=True)
        asking.start()
        # Each retried panel sends loading, then its result after the minimum loading time
        # (500 ms): read until every one was named twice, then one second more for stragglers,
        # 20 s at most. Scheduled refreshes of other panels send events meanwhile too.
        sizes, own_sizes, kinds, named = [], [], defaultdict(int), defaultdict(int)
        stop_at = time.monotonic() + 20
        all_named = False
        while True:
            event = reader.next_event(stop_at)
            if event is None:
                break
            kind, data = event
            kinds[kind] += 1
            if kind in ("snapshot", "toast", "notice"):
                continue
            sizes.append(len(data))
            names_retried = False
            for panel in retried:
                if f'"{panel}"'.encode() in data:
                    named[panel] += 1
                    names_retried = True
            if names_retried:
                own_sizes.append(len(data))
            if not all_named and all(named[p] >= 2 for p in retried):
                all_named = True
                stop_at = min(stop_at, time.monotonic() + 1.0)
        # An event that names no panel by its id (a compact format may use another key) is
        # counted with the rest: then the mean over every panel event stands for the change.
        change = own_sizes or sizes
        asking.join(timeout=30)
        if refused:
            run.log(f"  retries refused: {', '.join(refused)}")
        return {**partial, "change_events": len(change),
                "change_event_bytes_mean": statistics.mean(change) if change else None,
                "change_event_bytes_min": min(change) if change else None,
                "change_event_bytes_max": max(change) if change else None,
                "change_events_named_by_id": bool(own_sizes),
                "panel_events": len(sizes),
                "panel_event_bytes_mean": statistics.mean(sizes) if sizes else None,
                "retried_panels_named_twice": sum(1 for p in retried if named[p] >= 2),
                "event_types": dict(kinds)}
    finally:
        reader.close()


# --------------------------------------------------------------------------- contenders

class StateDeckContender:
    name = "StateDeck"

    def __init__(self, run, binary, deck: Path):
        self.run, self.binary, self.deck = run, binary, deck
        self.server = None

    def start(self):
        self.server = self.run.start_statedeck(self.binary, config=str(self.deck), debug=False,
                                               preexec=raise_open_files)
        return self.server.proc.pid

    def mark(self):
        wall = time.time()
        return wall, self.run.cpu_seconds(self.server.proc.pid)

    def after_window(self, panels):
        try:
            return event_bytes(self.run, self.server.port, panels)
        except (OSError, RuntimeError, http.client.HTTPException) as error:
            self.run.log(f"  event bytes not measured: {error}")
            return {"event_bytes_error": str(error)}

    def stop(self):
        if self.server:
            self.server.stop()
            self.server = None


class FloorContender:
    name = "floor (libcurl multi, one thread)"

    def __init__(self, run, binary: Path, nginx_port: int, panels: int, refresh: float, max_seconds: float):
        self.run, self.binary = run, binary
        self.argv = [binary, "--url-prefix", f"http://127.0.0.1:{nginx_port}/p/", "--n", panels,
                     "--interval", f"{refresh:g}", "--max-seconds", f"{max_seconds:.0f}"]
        self.proc = self.reader = None

    def start(self):
        self.proc = self.run.PROCS.start(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         text=True)
        self.reader = self.run.LineReader(self.proc.stdout)
        self.reader.wait_for(r"^floor started", 10, "the floor's start line")
        return self.proc.pid

    def mark(self):
        # The floor reads its own CPU clock (nanoseconds): over a short window it spends a few
        # clock ticks of /proc's 10 ms, too coarse to divide by the checks.
        self.proc.stdin.write("mark\n")
        self.proc.stdin.flush()
        # Up to a minute: on a starved host (load average near 50, 10,000 URLs every 5 s) the
        # floor once took over 10 s to answer.
        line = self.reader.wait_for(r"^mark wall ([\d.]+) cpu ([\d.]+) checks (\d+) failed (\d+)", 60,
                                    "the floor's mark")
        self.failed = int(line.group(4))
        return float(line.group(1)), float(line.group(2))

    def after_window(self, panels):
        return {"floor_failed_checks": self.failed}

    def stop(self):
        if self.proc:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
            self.run.PROCS.stop(self.proc)
            self.proc = None


# --------------------------------------------------------------------------- one measurement

def measure(run, contender, log: AccessLog, panels: int, refresh: float, window: float,
            warm_limit: float | None = None):
    """Starts `contender`, waits until every panel was checked twice (at most `warm_limit` seconds,
    by default three intervals and a minute), measures over `window` seconds, stops it, and
    analyses what nginx logged."""
    log.reset()
    arrivals, samples = [], []   # samples: (wall time, threads, RSS KiB)
    seen = Counter()   # checks per panel
    started = time.time()
    pid = contender.start()
    try:
        def tick():
            try:
                threads, rss = process_status(pid)
            except (FileNotFoundError, ProcessLookupError):
                raise run.BenchError(f"{contender.name} exited") from None
            samples.append((time.time(), threads, rss))
            new = log.read_new()
            arrivals.extend(new)
            seen.update(a[1] for a in new)

        # Warm-up: until nginx has seen every panel's path twice, its first load and its first
        # refresh. StateDeck spreads the first refreshes of panels sharing an interval over half
        # an interval to one and a half; from the second check on, each keeps its interval, which
        # is what lateness measures against.
        warm_deadline = time.monotonic() + (warm_limit or 3 * refresh + 60)
        while sum(1 for n in seen.values() if n >= 2) < panels and time.monotonic() < warm_deadline:
            tick()
            time.sleep(SAMPLE_EVERY)
        twice = sum(1 for n in seen.values() if n >= 2)
        warmed = twice >= panels
        if not warmed:
            run.log(f"  warm-up: only {twice} of {panels} panels checked twice after "
                    f"{time.time() - started:.0f} s; measuring anyway")
        warm_end = time.time()
        settle = time.monotonic() + 1.0
        while time.monotonic() < settle:
            tick()
            time.sleep(SAMPLE_EVERY)

        t0, cpu0 = contender.mark()
        end = time.monotonic() + window
        while time.monotonic() < end:
            tick()
            time.sleep(min(SAMPLE_EVERY, max(0.0, end - time.monotonic())))
        t1, cpu1 = contender.mark()
        tick()
        # After the last sample: the SSE client's snapshot is not counted in RSS or CPU.
        extra = contender.after_window(panels)
    finally:
        contender.stop()
    time.sleep(1.5)   # nginx flushes its log buffer every second
    arrivals.extend(log.read_new())
    result = analyse(arrivals, panels, refresh, started, warm_end, t0, t1)
    window_samples = [s for s in samples if t0 <= s[0] <= t1] or samples
    result.update({
        "warmed_up": warmed, "warm_up_seconds": warm_end - started,
        "window_seconds": t1 - t0, "cpu_seconds": cpu1 - cpu0,
        "cpu_us_per_check": (cpu1 - cpu0) / result["checks"] * 1e6 if result["checks"] else None,
        "cpu_percent": 100 * (cpu1 - cpu0) / (t1 - t0),
        "threads_max": max(s[1] for s in samples), "threads_max_window": max(s[1] for s in window_samples),
        "rss_max_kib": max(s[2] for s in samples), "rss_max_window_kib": max(s[2] for s in window_samples),
        **extra})
    return result


def analyse(arrivals, panels, refresh, started, warm_end, t0, t1):
    """Checks in the window, their lateness, bunching and connection reuse.

    Lateness of a check: its arrival − (the previous check of the same panel + the refresh
    interval), over checks that arrived in the window; a check due in the window that had not
    arrived by its end counts as late by what it had waited then (a lower bound)."""
    per_panel = defaultdict(list)
    for arrival, panel, _, _ in arrivals:
        per_panel[panel].append(arrival)
    window = [a for a in arrivals if t0 <= a[0] < t1]
    times = sorted(a[0] for a in window)
    lateness = []
    overdue = 0
    for checks in per_panel.values():
        checks.sort()
        previous = None
        for arrival in checks:
            if arrival >= t1:
                break
            if previous is not None and arrival >= t0:
                lateness.append(arrival - previous - refresh)
            previous = arrival
        if previous is not None and previous + refresh < t1:
            lateness.append(t1 - previous - refresh)
            overdue += 1
    first_round = sorted(a[0] for a in arrivals if started <= a[0] <= warm_end)
    planned_rate = panels / refresh
    return {
        "checks": len(window),
        "checks_per_s": len(window) / (t1 - t0),
        "planned_per_s": planned_rate,
        "non_200": sum(1 for a in window if a[3] != 200),
        "panels_never_checked": panels - len(per_panel),
        # When the last panel's first check came, from the contender's start.
        "all_checked_seconds": (max(min(c) for c in per_panel.values()) - started
                                if len(per_panel) == panels else None),
        "lateness_p50_ms": 1000 * percentile(lateness, 0.50) if lateness else None,
        "lateness_p99_ms": 1000 * percentile(lateness, 0.99) if lateness else None,
        "lateness_max_ms": 1000 * max(lateness) if lateness else None,
        "overdue_at_window_end": overdue,
        "peak_per_100ms": peak_in_window(times, BUNCH_WINDOW),
        "even_per_100ms": planned_rate * BUNCH_WINDOW,
        "peak_per_100ms_first_round": peak_in_window(first_round, BUNCH_WINDOW),
        "new_connection_share": (sum(1 for a in window if a[2] == 1) / len(window)) if window else None,
    }


# --------------------------------------------------------------------------- the benchmark

def bench_many(args, statedeck, report, run):
    """`run` is run.py's module: start_statedeck, start_nginx, PROCS, LineReader, log, http."""
    if not statedeck:
        return "StateDeck not measured."
    floor = run.TOOLS / "curl-multi-floor"
    sizes = [int(x) for x in args.many_n.split(",")]
    refreshes = [float(x) for x in args.many_refresh.split(",")]
    window = args.many_seconds
    rounds = 1 if args.quick else args.rounds
    workdir = Path(tempfile.mkdtemp(prefix="statedeck-bench-many-"))
    nginx = run.start_nginx("nginx", nginx_template(run))
    results = {}   # (contender name, panels, refresh) -> [round results]
    try:
        log = AccessLog(Path(nginx.tempdir) / "access.log")
        configs = [(n, r) for r in refreshes for n in sizes]
        decks = {(n, r): http_deck(workdir, n, nginx.port, r) for n, r in configs}
        for round_index in range(rounds):
            for n, refresh in configs:
                contenders = [StateDeckContender(run, statedeck, decks[(n, refresh)]),
                              FloorContender(run, floor, nginx.port, n, refresh,
                                             max_seconds=window + 3 * refresh + 180)]
                for contender in contenders:
                    run.log(f"many round {round_index + 1}/{rounds}: {contender.name}, N={n}, "
                            f"every {refresh:g} s")
                    key = (contender.name, n, refresh)
                    try:
                        result = measure(run, contender, log, n, refresh, window)
                    except run.BenchError as error:   # keep going: the table shows n/a
                        run.log(f"  failed: {error}")
                        results.setdefault(key, []).append({"error": str(error)})
                        continue
                    results.setdefault(key, []).append(result)
                    run.log(f"  {result['cpu_us_per_check']:.1f} µs CPU per check "
                            f"({result['cpu_percent']:.1f} % of a core), {result['checks_per_s']:.0f} of "
                            f"{result['planned_per_s']:.0f} checks/s, threads max {result['threads_max']}, "
                            f"RSS max {result['rss_max_kib'] / 1024:.1f} MiB, lateness p99 "
                            f"{run.fmt('{:.0f}', result['lateness_p99_ms'])} ms, peak "
                            f"{result['peak_per_100ms']} per 100 ms (first round "
                            f"{result['peak_per_100ms_first_round']}, even {result['even_per_100ms']:.0f})"
                            + (f", event {run.fmt('{:.0f}', result.get('change_event_bytes_mean'))} B "
                               f"({result.get('change_events')} events; all {result.get('panel_events')} "
                               f"read meanwhile {run.fmt('{:.0f}', result.get('panel_event_bytes_mean'))} B), "
                               f"snapshot {run.fmt('{:.0f}', result.get('snapshot_bytes_per_panel'))} B/panel"
                               if contender.name == "StateDeck" else ""))
        errors = (Path(nginx.tempdir) / "error.log")
        if errors.exists() and errors.stat().st_size:
            run.log("nginx error log: " + errors.read_text()[-2000:])
    finally:
        nginx.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    report["many"] = {f"{name}|{n}|{r:g}": v for (name, n, r), v in results.items()}
    return many_markdown(results, sizes, refreshes, window, rounds)


# (label, key, format, whether StateDeck ÷ floor means something for it)
ROWS = [
    ("CPU per check (µs)", "cpu_us_per_check", "{:.1f}", True),
    ("CPU (% of a core)", "cpu_percent", "{:.1f}", True),
    ("checks per second (planned {planned:,.0f})", "checks_per_s", "{:,.0f}", True),
    ("threads, max (whole run, start included)", "threads_max", "{:,.0f}", False),
    ("threads, max in the window", "threads_max_window", "{:,.0f}", False),
    ("RSS, max (MiB)", "rss_max_kib", "{:.1f}", True),
    ("lateness p50 (ms)", "lateness_p50_ms", "{:.0f}", False),
    ("lateness p99 (ms)", "lateness_p99_ms", "{:.0f}", False),
    ("lateness max (ms)", "lateness_max_ms", "{:.0f}", False),
    ("checks overdue at the window's end", "overdue_at_window_end", "{:,.0f}", False),
    ("most checks in 100 ms, window (even spread {even:.1f})", "peak_per_100ms", "{:,.0f}", False),
    ("most checks in 100 ms, first round (the start)", "peak_per_100ms_first_round", "{:,.0f}", False),
    ("share of checks on a new connection", "new_connection_share", "{:.2f}", False),
    ("bytes per panel event, a refresh asked for (loading, then loaded; mean)", "change_event_bytes_mean", "{:,.0f}", False),
    ("bytes per panel event, every one read meanwhile (mean)", "panel_event_bytes_mean", "{:,.0f}", False),
    ("bytes per panel in the snapshot", "snapshot_bytes_per_panel", "{:,.0f}", False),
    ("event streams ended early by the server (a new one each time, at most 3)", "streams_dropped", "{:,.0f}", False),
    ("snapshot sized from GET /api/state, no stream lasting to its end (1 = yes)", "snapshot_from_api_state", "{:.0f}", False),
]


def value(result, key):
    v = result.get(key)
    if v is not None and key.startswith("rss_"):
        return v / 1024
    return v


def many_markdown(results, sizes, refreshes, window, rounds):
    names = ["StateDeck", "floor (libcurl multi, one thread)"]
    lines = [f"{', '.join(f'{n:,}' for n in sizes)} http panels refreshed every "
             f"{' and every '.join(f'{r:g} s' for r in refreshes)}, each on its own path of one nginx "
             f"on loopback; once every panel was checked twice, {window:g} s measured; "
             f"{rounds} interleaved round(s), medians; the rounds column lists each round's value, "
             "StateDeck / floor. CPU per check is the process's CPU over the window ÷ the checks nginx "
             "logged in it; threads and RSS are sampled every 0.1 s from the start to the window's end."]
    targets = []
    for refresh in refreshes:
        for n in sizes:
            planned = n / refresh
            lines += ["", f"**{n:,} panels every {refresh:g} s**", ""]
            header = f"| metric | {names[0]} | {names[1]} | ratio | rounds |"
            lines += [header, run_separator(header)]
            medians = {}
            for label, key, template, comparable in ROWS:
                per = [[value(r, key) for r in results.get((name, n, refresh), [])] for name in names]
                m = [median(p) for p in per]
                medians[key] = m
                if all(v is None for v in m):
                    continue
                ratio = f"{m[0] / m[1]:.2f}×" if comparable and m[0] is not None and m[1] else "—"
                rounds_text = " / ".join(", ".join(fmt(template, v) for v in p) for p in per if p)
                lines.append(f"| {label.format(planned=planned, even=planned * BUNCH_WINDOW)} | "
                             f"{fmt(template, m[0])} | {fmt(template, m[1]) if m[1] is not None else '—'} | "
                             f"{ratio} | {rounds_text} |")
            targets.append((n, refresh, medians))
    lines += ["", "**Targets.** " + "Ratio is StateDeck ÷ the floor, or ÷ the limit.", "",
              "| target | StateDeck | compared with | ratio | met? |", "| --- | --- | --- | --- | --- |"]
    for n, refresh, m in targets:
        sd, fl = m["cpu_us_per_check"]
        lines.append(target_row(f"CPU per check within {CPU_RATIO_TARGET:g}× of the floor ({n:,} panels, every {refresh:g} s)",
                                sd, fl, "{:.1f} µs", "floor", lambda a, b: a / b <= CPU_RATIO_TARGET))
    for n, refresh, m in targets:
        if n == max(sizes):
            lines.append(target_row(f"at most {THREADS_TARGET} threads at {n:,} panels (every {refresh:g} s, start included)",
                                    m["threads_max"][0], THREADS_TARGET, "{:,.0f}", "limit",
                                    lambda a, b: a <= b))
    for n, refresh, m in targets:
        rss = m["rss_max_kib"][0]
        lines.append(target_row(f"RSS under {RSS_TARGET_MB} MB ({n:,} panels, every {refresh:g} s)",
                                None if rss is None else rss * 1024 * 1024 / 1e6, RSS_TARGET_MB, "{:.1f} MB", "limit",
                                lambda a, b: a < b))
    for n, refresh, m in targets:
        lines.append(target_row(f"lateness p99 under {LATENESS_P99_TARGET_MS / 1000:g} s ({n:,} panels, every {refresh:g} s)",
                                m["lateness_p99_ms"][0], LATENESS_P99_TARGET_MS, "{:,.0f} ms", "limit",
                                lambda a, b: a < b))
    event = median([m["change_event_bytes_mean"][0] for _, _, m in targets])
    snapshot = median([m["snapshot_bytes_per_panel"][0] for _, _, m in targets])
    lines.append(target_row("bytes per panel event (a loading ↔ loaded change), median over decks",
                            event, EVENT_BYTES_TARGET, "{:,.0f} B", "limit", lambda a, b: a <= b))
    lines.append(target_row("bytes per panel in the initial snapshot, median over decks",
                            snapshot, SNAPSHOT_PANEL_BYTES_TARGET, "{:,.0f} B", "limit", lambda a, b: a <= b))
    return "\n".join(lines)


def target_row(label, measured, compared, template, compared_name, passes):
    if measured is None or compared is None:
        return f"| {label} | n/a | {compared_name}: {fmt(template, compared)} | n/a | n/a |"
    ok = passes(measured, compared)
    return (f"| {label} | {template.format(measured)} | {compared_name}: {template.format(compared)} | "
            f"{measured / compared:.2f}× | {'yes' if ok else 'no'} |")


def fmt(template, v):
    return "n/a" if v is None else template.format(v)


def run_separator(header):
    return "|" + " --- |" * (header.count("|") - 1)
