"""Moments (`make bench`, `--only moments`): how long `GET /api/state?at=` takes to rebuild a deck
of 1,000 and 10,000 panels from a week of kept forms, and what the forms cost on disk a panel-day.

Called by run.py, whose process tracking, servers and report it uses."""
from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

from history_bench import file_deck, median, percentile, timed_get

COLUMNS = ("| panels | days | forms | forms a panel-day | file (MiB) | bytes a panel-day | store's rebuild, "
           "median (ms) | p95 (ms) | panels' JSON (KiB) | simulated in (s) |")


def bench_moments(args, statedeck, report, run):
    """`run` is run.py's module: start_statedeck, build_release, log, ROOT."""
    if not statedeck:
        return "StateDeck not measured."
    if not args.no_build:
        run.build_release("statedeck-history-year")
    simulate = run.ROOT / ".build-bench" / "release" / "statedeck-history-year"
    workdir = Path(tempfile.mkdtemp(prefix="statedeck-bench-moments-"))
    days, asks = (1, 11) if args.quick else (7, 31)
    chooser = random.Random(7)
    rows, routes = [], {}
    try:
        for panels in (1000, 10000):
            folder = workdir / f"data-{panels}"
            run.log(f"simulating {days} days of forms of {panels} panels")
            rows.append(subprocess.run([str(simulate), "moments", str(panels), str(days), str(folder)], check=True,
                                       capture_output=True, text=True, timeout=3600).stdout.strip())
            decks = workdir / f"deck-{panels}"
            decks.mkdir()
            server = run.start_statedeck(statedeck, config=str(file_deck(decks, panels)), extra=["--data", str(folder)],
                                         debug=False)
            try:
                now = datetime.now(timezone.utc)
                instants = [(now - timedelta(seconds=chooser.uniform(3_600, 86_400))).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
                            for _ in range(asks)]
                # The first answer warms the file's pages; the others are timed.
                routes[panels] = [timed_get(server.base + "/api/state?at=" + at) for at in instants][1:]
            finally:
                server.stop()
        report["moments_store"] = rows
        report["moments_route_ms"] = routes
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    targets = {1000: 100, 10000: 500}
    return "\n".join([
        f"**The forms on disk, and the store's rebuild.** `statedeck-history-year moments` drives the real SQLite store on "
        f"a virtual clock: {days} days of http panels checked every 15 s, each down about once in 17 hours for "
        "30 s to 10 min, a form kept at each change of result (down, up again), each of the size the live "
        "document writes for such a panel. The file holds the forms alone (the other tables are empty), so "
        "its size is their cost; then 30 moments at random instants of the last day are rebuilt by the store "
        "(each panel's newest form at or before the instant) and joined.", "",
        COLUMNS, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |", *rows, "",
        f"**`GET /api/state?at=`** against a release statedeck serving a deck of as many file panels on that "
        f"file, {asks - 1} random instants of the last day after one to warm up, timed by the client from "
        "request to the end of the answer.", "",
        "| panels | median (ms) | p95 (ms) | target (ms) |", "| --- | --- | --- | --- |",
        *[f"| {panels:,} | {median(times):.1f} | {percentile(times, 0.95):.1f} | under {targets[panels]} |"
          for panels, times in routes.items()], ""])
