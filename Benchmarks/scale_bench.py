"""A deck of 100,000 http panels (`make bench`, `--only scale`): StateDeck checking each of them every
minute against a local nginx, with its history kept where `make run` keeps it, side by side with the
floor (Benchmarks/curl-multi-floor.c, one thread on libcurl's multi interface making the same
requests on the same schedule), measured as `many` measures (many_bench.py): CPU per check, threads,
RSS, lateness, bunching. Beside it: how long until every panel was checked once, how long SIGTERM
takes during the start and after the window, the history's bytes on disk per panel-day, and how
long `GET /api/state` takes to build.

Called by run.py, whose process tracking, servers and report it uses."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import many_bench

PANELS = 100_000
REFRESH_SECONDS = 60.0
# Targets (BENCHMARKS.md, "100,000 panels").
CPU_RATIO_TARGET = 2.0
RSS_TARGET_MIB = 400
THREADS_TARGET = 16
ALL_CHECKED_TARGET_S = 300
STOP_TARGET_S = 2.0
# When SIGTERM is sent during the start, in seconds after the process began.
STOPS_DURING_START = (0.5, 2.0, 5.0)


def history_bytes(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


class StateDeckWithHistory(many_bench.StateDeckContender):
    """StateDeck as `make run` runs it: its history in `.statedeck/` beside the deck file."""

    def start(self):
        self.server = self.run.start_statedeck(self.binary, config=str(self.deck), debug=False,
                                               preexec=many_bench.raise_open_files, default_history=True)
        self.history = self.deck.parent / ".statedeck"
        return self.server.proc.pid

    def mark(self):
        marked = super().mark()
        self.history_marks = getattr(self, "history_marks", []) + [(marked[0], history_bytes(self.history))]
        return marked

    def after_window(self, panels):
        started = time.monotonic()
        with urllib.request.urlopen(f"http://127.0.0.1:{self.server.port}/api/state", timeout=120) as answer:
            size = len(answer.read())
        state_seconds = time.monotonic() - started
        (t0, b0), (t1, b1) = self.history_marks[-2:]
        return {"state_document_bytes": size, "state_document_seconds": state_seconds,
                "history_bytes": b1,
                "history_bytes_per_panel_day": (b1 - b0) / panels / (t1 - t0) * 86_400}

    def stop(self):
        if self.server:
            self.stop_seconds = self.server.stop()
            self.server = None


def stop_during_start(run, binary, deck: Path, after: float) -> float:
    """Seconds from SIGTERM to exit, the signal sent `after` seconds into the process's start."""
    history = deck.parent / ".statedeck"
    shutil.rmtree(history, ignore_errors=True)
    proc = subprocess.Popen([binary, "--host", "127.0.0.1", "--port", "0", "--config", str(deck)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=many_bench.raise_open_files)
    try:
        time.sleep(after)
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            run.log(f"  still running 30 s after SIGTERM at {after:g} s")
        return time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        shutil.rmtree(history, ignore_errors=True)


def run_http(run, args, statedeck, report):
    if not statedeck:
        return "StateDeck not measured."
    panels = args.scale_panels
    window = 15.0 if args.quick else 60.0
    workdir = Path(tempfile.mkdtemp(prefix="statedeck-bench-scale-"))
    nginx = run.start_nginx("nginx", many_bench.nginx_template(run))
    results = {}
    try:
        log = many_bench.AccessLog(Path(nginx.tempdir) / "access.log")
        deck = many_bench.http_deck(workdir, panels, nginx.port, REFRESH_SECONDS)
        stops = [stop_during_start(run, statedeck, deck, after) for after in STOPS_DURING_START]
        run.log(f"scale: SIGTERM during the start took {', '.join(f'{s:.2f}' for s in stops)} s")
        # The first refreshes spread over half an interval to one and a half after the first loads.
        warm_limit = ALL_CHECKED_TARGET_S + 2 * REFRESH_SECONDS + 60
        contenders = [StateDeckWithHistory(run, statedeck, deck),
                      many_bench.FloorContender(run, run.TOOLS / "curl-multi-floor", nginx.port, panels,
                                                REFRESH_SECONDS, max_seconds=window + warm_limit + 180)]
        for contender in contenders:
            run.log(f"scale: {contender.name}, {panels:,} http panels every {REFRESH_SECONDS:g} s")
            result = many_bench.measure(run, contender, log, panels, REFRESH_SECONDS, window, warm_limit)
            if isinstance(contender, StateDeckWithHistory):
                result["stop_seconds"] = contender.stop_seconds
                result["stops_during_start"] = stops
            results[contender.name] = result
            run.log(f"  {result['cpu_us_per_check']:.1f} µs CPU per check, {result['checks_per_s']:.0f} of "
                    f"{result['planned_per_s']:.0f} checks/s, threads max {result['threads_max']}, "
                    f"RSS max {result['rss_max_kib'] / 1024:.1f} MiB, every panel checked after "
                    f"{run.fmt('{:.0f}', result['all_checked_seconds'])} s")
    finally:
        nginx.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    report["scale-http"] = results
    return markdown(results, panels, window)


def markdown(results, panels, window):
    ours, floor = results.get("StateDeck", {}), results.get(many_bench.FloorContender.name, {})
    fmt = many_bench.fmt

    def ratio(key):
        a, b = ours.get(key), floor.get(key)
        return f"{a / b:.2f}×" if a and b else "n/a"

    rss = (ours.get("rss_max_kib") or 0) / 1024
    stops = ours.get("stops_during_start", [])
    slowest_stop = max(stops + [ours.get("stop_seconds") or 0]) if stops else None
    lines = [
        f"{panels:,} http panels, each on its own path of one nginx on loopback, every "
        f"{REFRESH_SECONDS:g} s; StateDeck keeps its history where `make run` keeps it. Once every panel was "
        f"checked twice, {window:g} s measured, StateDeck then the floor (one round).",
        "",
        "| metric | StateDeck | floor (libcurl multi, one thread) | ratio |",
        "| --- | --- | --- | --- |",
    ]
    for label, key, template in [
        ("CPU per check (µs)", "cpu_us_per_check", "{:.1f}"),
        ("CPU (% of a core)", "cpu_percent", "{:.1f}"),
        ("checks per second (planned {:,.0f})".format(panels / REFRESH_SECONDS), "checks_per_s", "{:,.0f}"),
        ("threads, max (start included)", "threads_max", "{:,.0f}"),
        ("RSS, max (MiB)", "rss_max_kib", "{:.1f}"),
        ("every panel checked once, after the start (s)", "all_checked_seconds", "{:.0f}"),
        ("most checks in 100 ms, the start", "peak_per_100ms_first_round", "{:,.0f}"),
        ("most checks in 100 ms, window", "peak_per_100ms", "{:,.0f}"),
        ("lateness p99 (ms)", "lateness_p99_ms", "{:.0f}"),
    ]:
        scale = 1 / 1024 if key == "rss_max_kib" else 1
        a = ours.get(key)
        b = floor.get(key)
        lines.append(f"| {label} | {fmt(template, a * scale if a is not None else None)} | "
                     f"{fmt(template, b * scale if b is not None else None)} | {ratio(key)} |")
    lines += [
        "",
        f"- SIGTERM during the start (at {', '.join(f'{a:g}' for a in STOPS_DURING_START)} s): "
        + ", ".join(f"{s:.2f} s" for s in stops) + f"; after the window: {fmt('{:.2f}', ours.get('stop_seconds'))} s.",
        f"- History on disk: {fmt('{:,.0f}', ours.get('history_bytes'))} bytes at the window's end; it grew "
        f"{fmt('{:,.0f}', ours.get('history_bytes_per_panel_day'))} bytes per panel-day over the window.",
        f"- `GET /api/state`: {fmt('{:,.0f}', ours.get('state_document_bytes'))} bytes in "
        f"{fmt('{:.2f}', ours.get('state_document_seconds'))} s.",
        "",
        "| target | StateDeck | limit | met? |",
        "| --- | --- | --- | --- |",
    ]
    cpu_ratio = (ours.get("cpu_us_per_check") or 0) / floor["cpu_us_per_check"] if floor.get("cpu_us_per_check") else None
    for label, value, limit, text in [
        ("CPU per check at most 2× the floor", cpu_ratio, CPU_RATIO_TARGET, "{:.2f}×"),
        ("RSS at most 400 MiB", rss, RSS_TARGET_MIB, "{:.0f} MiB"),
        ("at most 16 threads", ours.get("threads_max"), THREADS_TARGET, "{:.0f}"),
        ("every panel loaded within 5 minutes", ours.get("all_checked_seconds"), ALL_CHECKED_TARGET_S, "{:.0f} s"),
        ("SIGTERM exits within 2 s, the start included", slowest_stop, STOP_TARGET_S, "{:.2f} s"),
    ]:
        met = "n/a" if value is None else ("yes" if value <= limit else "**no**")
        lines.append(f"| {label} | {fmt(text, value)} | {fmt(text, limit)} | {met} |")
    return "\n".join(lines)
