"""The public status page at 1,000 lines: a deck of 1,000 panels, every one of them on its status
page, over 90 days of history (simulated by statedeck-history-year through the real store, as
`--data` keeps it when `make run` starts a deck). What one render costs on the server (its
`Server-Timing`), and what wrk gets from the page's short cache.

Run by run.py (`--only status`); Python 3 standard library only.
"""

import json
import re
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path

PANELS = 1_000


def status_deck(folder: Path, panels: int) -> Path:
    """`panels` panels p0, p1, … (the ids the simulated history holds), reading a file nobody
    changes, each on the status page under a name of its own."""
    (folder / "status.json").write_text('{"ok": true}\n')
    deck = {"title": f"Status benchmark ({panels} panels)",
            "statedeckPanel": False,
            "panels": [{"id": f"p{i}", "file": {"path": "./status.json"}, "refresh": "10m"} for i in range(panels)],
            "status": {"title": "Benchmark status",
                       "panels": [{"id": f"p{i}", "name": f"Service {i}"} for i in range(panels)]}}
    path = folder / "deck.json"
    path.write_text(json.dumps(deck))
    return path


def render(url: str) -> tuple[float, int]:
    """The server's time to build the answer (`Server-Timing: render;dur=`) and the body's size."""
    with urllib.request.urlopen(url, timeout=30) as answer:
        body = answer.read()
        assert answer.status == 200
        timing = re.search(r"render;dur=([\d.]+)", answer.headers["Server-Timing"])
        return float(timing.group(1)), len(body)


def bench_status(args, statedeck, report, run):
    """`run` is run.py's module: start_statedeck, build_release, run_wrk, log, ROOT."""
    if not statedeck:
        return "StateDeck not measured."
    if not args.no_build:
        run.build_release("statedeck-history-year")
    simulate = run.ROOT / ".build-bench" / "release" / "statedeck-history-year"
    workdir = Path(tempfile.mkdtemp(prefix="statedeck-bench-status-"))
    # 13 renders 5.2 s apart outlast the minute after which the days are read again in the background.
    days, warm_renders = (30, 3) if args.quick else (90, 13)
    history = workdir / "history"
    run.log(f"simulating {days} days of 10 panels, copied to {PANELS}")
    run.subprocess.run([str(simulate), "10", str(days), str(history), str(PANELS)], check=True,
                       capture_output=True, text=True, timeout=3600)
    deck = status_deck(workdir, PANELS)
    server = run.start_statedeck(statedeck, config=str(deck), extra=["--data", str(history)], debug=False)
    url = f"http://127.0.0.1:{server.port}/status"
    try:
        # The server reads every panel's 90 days in the background from its start; the first render,
        # 5 s later, takes them as kept.
        time.sleep(5)
        cold, size = render(url)
        # Later ones, once the cache is 5 s old, read the mirror and the days kept.
        warm = []
        for _ in range(warm_renders):
            time.sleep(5.2)
            warm.append(render(url)[0])
        image = len(urllib.request.urlopen(url + "/days/0.svg", timeout=10).read())
        run.log(f"status: cold {cold:.1f} ms, warm {statistics.median(warm):.1f} ms (max {max(warm):.1f}), "
                f"{size:,} bytes, a line's days {image:,} bytes")
        seconds = 3 if args.quick else args.wrk_seconds
        rounds = 1 if args.quick else max(args.rounds, 3)
        loads = []
        for _ in range(rounds):
            result = run.run_wrk(url, seconds)
            if result["non2xx"] or result["socket_errors"]:
                raise run.BenchError(f"wrk on /status: {result}")
            loads.append(result)
            run.log(f"status, wrk: {result['rps']:.0f} requests/s, p99 {result['p99_ms']:.1f} ms")
    finally:
        server.stop()
        run.shutil.rmtree(workdir, ignore_errors=True)
    report["status"] = {"cold_ms": cold, "warm_ms": warm, "bytes": size, "image_bytes": image, "wrk": loads}
    rps = [r["rps"] for r in loads]
    p99 = [r["p99_ms"] for r in loads]
    return "\n".join([
        f"A deck of {PANELS:,} file panels, every one a line of its status page, over {days} days of history "
        f"(`statedeck-history-year 10 {days} DIR {PANELS}`: the real SQLite store on a virtual clock, each panel "
        "down about once in 17 hours, so most of its days have some time down) served with `--data DIR`, as "
        "`make run` keeps history. Render times are the server's own (`Server-Timing: render;dur=`): what "
        "building the facts and the HTML took for the request that built them.", "",
        "| render | ms | |", "| --- | --- | --- |",
        f"| first, 5 s after start (every panel's 90 days read in the background since) | {cold:.1f} | |",
        f"| later, every 5.2 s for a minute and more (the days kept, read again in the background after a "
        f"minute; states from the mirror), median | {statistics.median(warm):.1f} | "
        + ", ".join(f"{w:.1f}" for w in warm) + " |",
        "", f"The page is {size:,} bytes; a line's days (`/status/days/0.svg`, loaded as it scrolls into view) "
        f"{image:,} bytes.", "",
        f"`wrk -t2 -c64 -d{seconds}s` on `/status`, {rounds} round(s): the cached bytes shared by every "
        "request, rebuilt once every 5 s by one of them while the others get the version before.", "",
        "| requests/s, median | runs | p99 (ms), median |", "| --- | --- | --- |",
        f"| {statistics.median(rps):,.0f} | " + ", ".join(f"{r:,.0f}" for r in rps)
        + f" | {statistics.median(p99):.1f} |",
        "", "Targets: a render under 50 ms; over 5,000 requests a second.", ""])
