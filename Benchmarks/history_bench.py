"""The history store's costs (`make bench`, `--only history`): the file over a simulated year,
start-up with a year of history, query times, and the CPU that recording adds to a busy deck.

Called by run.py, whose process tracking, servers and report it uses."""
from __future__ import annotations

import json
import shutil
import sqlite3
import statistics
import subprocess
import tempfile
import time
import urllib.request
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from threading import Thread


def median(values):
    return statistics.median(values) if values else float("nan")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else float("nan")


def file_deck(folder: Path, panels: int) -> Path:
    """`panels` panels p0, p1, … reading a file nobody changes, loaded once: start-up and queries
    are measured without loads."""
    (folder / "status.json").write_text('{"ok": true}\n')
    deck = {"title": f"History benchmark ({panels} panels)",
            "panels": [{"id": f"p{i}", "file": {"path": "./status.json"}, "refresh": "manual"}
                       for i in range(panels)]}
    path = folder / "deck.json"
    path.write_text(json.dumps(deck))
    return path


def http_deck(folder: Path, panels: int, url: str, refresh: str) -> Path:
    deck = {"title": f"History benchmark ({panels} http panels)",
            "panels": [{"id": f"h{i}", "http": {"url": url}, "refresh": refresh} for i in range(panels)]}
    path = folder / "http-deck.json"
    path.write_text(json.dumps(deck))
    return path


def thread_cpu_seconds(pid: int, name: str, clock_ticks: float) -> float:
    """utime + stime of the process's threads called `name`."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            if (task / "comm").read_text().strip() != name:
                continue
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            continue
    return total / clock_ticks


def timed_get(url: str) -> float:
    """Milliseconds from sending the request to the end of the answer."""
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=10) as answer:
        answer.read()
        assert answer.status == 200
    return (time.perf_counter() - started) * 1000


def bench_history(args, statedeck, report, run):
    """`run` is run.py's module: start_statedeck, start_nginx, build_release, log, ROOT."""
    if not statedeck:
        return "StateDeck not measured."
    if not args.no_build:
        run.build_release("statedeck-history-year")
    simulate = run.ROOT / ".build-bench" / "release" / "statedeck-history-year"
    workdir = Path(tempfile.mkdtemp(prefix="statedeck-bench-history-"))
    sections = []
    try:
        days, simulated_panels, panels = (30, 10, 1000) if args.quick else (730, 10, 1000)
        year = workdir / "year"
        run.log(f"simulating {days} days of {simulated_panels} panels, copied to {panels}")
        started = time.monotonic()
        table = subprocess.run([str(simulate), str(simulated_panels), str(days), str(year), str(panels)],
                               check=True, capture_output=True, text=True, timeout=3600).stdout
        run.log(f"simulated in {time.monotonic() - started:.0f} s")
        report["history_year"] = table
        sections += [
            f"**The file over time.** `statedeck-history-year` drives the real store on a virtual clock: "
            f"{simulated_panels} panels loaded every 15 s for {days} simulated days, each down about once "
            "in 17 hours for 30 s to 10 min; then every panel's rows are copied to make the "
            f"{panels}-panel file the next tables use. Default retention: changes 7 days, minutes "
            "24 hours, hours 90 days, days 2 years, so the file grows by the day tallies only after 90 "
            "days, and stops growing at 2 years. The write-ahead log beside it stays under 4 MiB.", "",
            table.strip(), ""]

        deck = file_deck(workdir, panels)
        empty = workdir / "empty"
        runs = 3 if args.quick else 5
        startup = {"--data none": [], "empty history": [], f"{days} days of history": []}
        extras = {"--data none": ["--data", "none"], "empty history": ["--data", str(empty)],
                  f"{days} days of history": ["--data", str(year)]}
        for _ in range(runs):
            for name, extra in extras.items():
                server = run.start_statedeck(statedeck, config=str(deck), extra=extra, debug=False)
                startup[name].append(server.startup_seconds * 1000)
                server.stop()
                shutil.rmtree(empty, ignore_errors=True)
        report["history_startup_ms"] = startup
        rows = [f"| {name} | {median(values):.0f} | " + ", ".join(f"{v:.0f}" for v in values) + " |"
                for name, values in startup.items()]
        sections += [
            f"**Start-up** of a deck of {panels} file panels (no loads): process start to the start-up "
            f"line, {runs} runs interleaved. With history, every panel's state, newest 50 changes and "
            "open hour and day are read before serving.", "",
            "| history | median (ms) | runs |", "| --- | --- | --- |", *rows, ""]

        server = run.start_statedeck(statedeck, config=str(deck), extra=["--data", str(year)], debug=False)
        try:
            since = (datetime.now(timezone.utc) - timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
            queries = {
                "history, last 30 days, 100 newest": f"/api/panels/p7/history?from={since}&limit=100",
                "history, last 30 days, 500 newest": f"/api/panels/p7/history?from={since}&limit=500",
                "uptime and timeline, 30 days in 90 slots": "/api/panels/p7/uptime?span=30d&slots=90",
                "uptime and timeline, 24 hours in 90 slots": "/api/panels/p7/uptime",
            }
            times = {}
            for name, path in queries.items():
                timed_get(server.base + path)
                times[name] = [timed_get(server.base + path) for _ in range(30)]
        finally:
            server.stop()
        report["history_queries_ms"] = times
        sections += [
            f"**Queries** against the {panels}-panel file, 30 times each after one to warm up, timed "
            "by the client from request to the end of the answer.", "",
            "| query | median (ms) | p95 (ms) |", "| --- | --- | --- |",
            *[f"| {name} | {median(v):.1f} | {percentile(v, 0.95):.1f} |" for name, v in times.items()], ""]

        sections += per_panel_day(args, statedeck, run, workdir, report)
        sections += recording_cost(args, statedeck, run, workdir, report)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return "\n".join(sections)


def recording_cost(args, statedeck, run, workdir: Path, report):
    """CPU of a deck of http panels against nginx, with and without history, interleaved."""
    panels, refresh = (3000, "5s")
    seconds, warmup, rounds = (15, 10, 1) if args.quick else (40, 15, max(args.rounds, 5))
    root = workdir / "www"
    root.mkdir()
    (root / "status.json").write_text('{"ok": true}\n')
    nginx = run.start_nginx("nginx", run.NGINX_DEFAULT_CONF, root=str(root))
    cpu = {"--data none": [], "history": []}
    writer = []
    try:
        deck = http_deck(workdir, panels, f"http://127.0.0.1:{nginx.port}/status.json", refresh)
        for round_index in range(rounds):
            for name in cpu:
                data = ["--data", "none"] if name == "--data none" else ["--data", str(workdir / f"data{round_index}")]
                server = run.start_statedeck(statedeck, config=str(deck), extra=data, debug=False)
                try:
                    time.sleep(warmup)
                    before = server.cpu_seconds()
                    writer_before = thread_cpu_seconds(server.proc.pid, "history-writer", run.CLK_TCK)
                    time.sleep(seconds)
                    cpu[name].append((server.cpu_seconds() - before) / seconds * 100)
                    if name == "history":
                        spent = thread_cpu_seconds(server.proc.pid, "history-writer", run.CLK_TCK) - writer_before
                        writer.append(spent / seconds * 100)
                finally:
                    server.stop()
                run.log(f"{name}: {cpu[name][-1]:.1f} % of a core")
    finally:
        nginx.stop()
    report["history_cpu_percent"] = cpu
    report["history_writer_cpu_percent"] = writer
    # Each round's pair ran back to back, so their ratio is free of the host's slower drifts.
    added = median([with_history / without - 1 for without, with_history in zip(cpu["--data none"], cpu["history"])])
    return [
        f"**Recording cost.** {panels:,} http panels refreshed every {refresh} against nginx on loopback "
        f"(600 loads a second), CPU of the StateDeck process over {seconds} s after {warmup} s, "
        f"{rounds} round(s), each a pair run back to back; and of the history's writer thread alone "
        "(`history-writer`), which does all the saving.", "",
        "| history | CPU (% of a core), median | runs |", "| --- | --- | --- |",
        *[f"| {name} | {median(v):.1f} | " + ", ".join(f"{x:.1f}" for x in v) + " |" for name, v in cpu.items()],
        f"| the writer thread alone | {median(writer):.2f} | " + ", ".join(f"{x:.2f}" for x in writer) + " |",
        "", f"Recording adds {added * 100:+.0f} % to the deck's CPU, the median of the rounds' ratios "
        "(target: at most +10 %); the rest of one round's difference is the host's noise, which moves the "
        "same configuration by as much between rounds.", ""]


FLAP_SECONDS = 60
# Each kind of panel with what its path answers.
KINDS = {"steady": "steady (200 at once)", "slow": "slow (200 after 0.5 s)",
         "flapping": "flapping (200 and 503 a minute each)"}


class StatusHandler(BaseHTTPRequestHandler):
    """`/steady` always answers 200, `/slow` too after half a second; `/flap/<i>` answers 200 for a
    minute, then 503 for a minute, each panel's minutes shifted by its number so that they do not
    all turn at once."""

    def do_GET(self):
        status, body = 200, b'{"ok": true}'
        if self.path == "/slow":
            time.sleep(0.5)
        if self.path.startswith("/flap/"):
            shift = int(self.path.rsplit("/", 1)[1]) % FLAP_SECONDS
            if int((time.time() + shift) // FLAP_SECONDS) % 2:
                status, body = 503, b'{"ok": false}'
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_):
        pass


def row_counts(path: Path) -> dict:
    """Rows of changes and of each resolution's tallies, by kind of panel (`steady-…`, `slow-…`,
    `flapping-…`), read beside the running server (the file is in WAL mode)."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        counts = {}
        for kind in KINDS:
            counts[kind] = {
                "changes": db.execute("SELECT count(*) FROM changes JOIN panels ON panels.id = changes.panel "
                                      "WHERE panels.name LIKE ?", (kind + "-%",)).fetchone()[0],
                **{name: db.execute("SELECT count(*) FROM tallies JOIN panels ON panels.id = tallies.panel "
                                    "WHERE panels.name LIKE ? AND resolution = ?", (kind + "-%", seconds)).fetchone()[0]
                   for name, seconds in (("minute", 60), ("hour", 3600), ("day", 86400))},
            }
        return counts


def bytes_per_row(path: Path) -> dict:
    """On-disk bytes per row of changes (with its index) and of tallies, from SQLite's page
    statistics (`dbstat`): the pages each table and index use, over its rows."""
    with sqlite3.connect(str(path)) as db:
        pages = dict(db.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall())
        changes = db.execute("SELECT count(*) FROM changes").fetchone()[0]
        tallies = db.execute("SELECT count(*) FROM tallies").fetchone()[0]
    return {"change": (pages.get("changes", 0) + pages.get("changes_by_panel", 0)) / max(changes, 1),
            "tally": pages.get("tallies", 0) / max(tallies, 1)}


def per_panel_day(args, statedeck, run, workdir: Path, report):
    """Rows and bytes a day of real http panels, steady and flapping, at `refresh: 15s`: a real
    window of real checks against a local server, extrapolated to a day and to 1,000 panels over
    7 days (changes are kept 7 days, minute tallies 24 hours)."""
    panels, warmup, window = (50, 20, 60) if args.quick else (100, 30, 300)
    service = ThreadingHTTPServer(("127.0.0.1", 0), StatusHandler)
    Thread(target=service.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{service.server_address[1]}"
    paths = {"steady": lambda i: "/steady", "slow": lambda i: "/slow", "flapping": lambda i: f"/flap/{i}"}
    deck = {"title": "History per panel-day", "statedeckPanel": False,
            "panels": [{"id": f"{kind}-{i}", "http": {"url": base + paths[kind](i)}, "refresh": "15s"}
                       for kind in KINDS for i in range(panels)]}
    path = workdir / "day-deck.json"
    path.write_text(json.dumps(deck))
    data = workdir / "day-data"
    server = run.start_statedeck(statedeck, config=str(path), extra=["--data", str(data)], debug=False)
    try:
        # Past the first loads (recorded once per start, not per day) and the first refreshes.
        time.sleep(warmup)
        before = row_counts(data / "history.sqlite3")
        time.sleep(window)
        after = row_counts(data / "history.sqlite3")
    finally:
        server.stop()
        service.shutdown()
    sizes = bytes_per_row(data / "history.sqlite3")
    days = window / 86400
    tally_rows_per_day = 1440 + 24 + 1
    results, rows = {}, []
    for kind, name in KINDS.items():
        changes_per_day = (after[kind]["changes"] - before[kind]["changes"]) / panels / days
        day_bytes = changes_per_day * sizes["change"] + tally_rows_per_day * sizes["tally"]
        # 1,000 panels, 7 days: a week of changes, the newest 24 hours of minutes, 7 days of hours and days.
        week_bytes = 1000 * (7 * changes_per_day * sizes["change"] + (1440 + 7 * 24 + 7) * sizes["tally"])
        results[kind] = {"changes_per_panel_day": changes_per_day, "bytes_per_panel_day": day_bytes,
                         "week_1000_bytes": week_bytes}
        rows.append(f"| {name} | {changes_per_day:,.0f} | {tally_rows_per_day:,} | "
                    f"{day_bytes / 1024:,.0f} | {week_bytes / 2**20:,.0f} |")
    report["history_per_panel_day"] = {"window_seconds": window, "panels_each": panels, "bytes_per_row": sizes,
                                       "rows_before": before, "rows_after": after, **results}
    return [
        f"**Per panel-day, real checks.** {panels} http panels of each kind, `refresh: 15s`, "
        f"against a local server, history in SQLite; the rows each kind added over a real {window} s window "
        f"(after {warmup} s, past the first loads), extrapolated to a day. Bytes per row from SQLite's page "
        f"statistics at the end: {sizes['change']:.0f} per change (with its index), {sizes['tally']:.0f} per "
        "tally. Tallies are per minute, hour and day whatever happens (1,440 + 24 + 1 rows a panel-day; minutes "
        "kept 24 hours). 1,000 panels over 7 days is computed from these rates (a week of changes, a day of "
        "minutes, a week of hours and days), not run for a week.", "",
        "| panels | changes a panel-day | tally rows a panel-day | KiB a panel-day | MiB, 1,000 panels over 7 days |",
        "| --- | --- | --- | --- | --- |", *rows, ""]
