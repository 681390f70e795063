"""Ping panels at scale (`--only ping`): StateDeck checking 1,000 ping panels every 10 s (3 echo
requests each, 200 ms apart), the history kept as `make run` keeps it, against the floor: Debian's
`fping` sending the same requests to the same addresses, started every 10 s as cron would.

Each panel pings its own loopback address (127.0.x.y: the loopback interface answers all of
127.0.0.0/8), so the requests are real ICMP through the kernel and no packet leaves the machine.
CPU per request is each contender's CPU over the window ÷ the requests it sent in it: StateDeck's
from its loads (`statedeck_load_duration_seconds_count` in `/metrics`) × the requests per check,
fping's from the requests it was asked for. The two run in turn, round by round.

Run by run.py; Python 3 standard library only.
"""

import json
import os
import re
import shutil
import statistics
import subprocess
import time
import urllib.request
from pathlib import Path

PANELS = 1_000
COUNT = 3
PERIOD_SECONDS = 10
INTERVAL_MS = 200


def address(index: int) -> str:
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


def ping_deck(folder: Path, panels: int) -> Path:
    path = folder / "pings.json"
    path.write_text(json.dumps({
        "title": "Pings",
        "statedeckPanel": False,
        "panels": [{"id": f"host-{i}", "ping": {"host": address(i), "count": COUNT}, "refresh": f"{PERIOD_SECONDS}s"}
                   for i in range(panels)],
    }))
    return path


def loads(base: str) -> float:
    with urllib.request.urlopen(base + "/metrics", timeout=10) as answer:
        text = answer.read().decode()
    return sum(float(v) for v in re.findall(r"^statedeck_load_duration_seconds_count(?:\{[^}]*\})? (\S+)$", text, re.M))


def measure_statedeck(run, statedeck, deck, data, seconds, warmup):
    server = run.start_statedeck(statedeck, config=str(deck), extra=["--data", str(data)], debug=False)
    try:
        time.sleep(warmup)
        cpu, checks = server.cpu_seconds(), loads(server.base)
        time.sleep(seconds)
        cpu, checks = server.cpu_seconds() - cpu, loads(server.base) - checks
        threads = len(os.listdir(f"/proc/{server.measured_pid}/task"))
        rss = server.rss_kib() / 1024
        with urllib.request.urlopen(server.base + "/api/state", timeout=30) as answer:
            panels = json.load(answer)["panels"]
        reachable = sum(1 for p in panels if (p.get("latestValidInfo") or {}).get("summary") == "Reachable")
    finally:
        server.stop()
    return {"cpu": cpu, "requests": checks * COUNT, "threads": threads, "rss_mib": rss, "reachable": reachable}


def measure_fping(fping, panels, seconds):
    """fping every PERIOD_SECONDS over `seconds`, each run pinging every address COUNT times."""
    targets = [address(i) for i in range(panels)]
    cpu, requests, lost = 0.0, 0, 0
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        due = time.monotonic() + PERIOD_SECONDS
        proc = subprocess.Popen([fping, "-C", str(COUNT), "-q", "-p", str(INTERVAL_MS), "-i", "1", "-t", "2000", *targets],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        _, stderr = proc.communicate(timeout=PERIOD_SECONDS * 3)
        # "127.0.1.1 : 0.03 0.02 -": a dash for each request not answered.
        lost += sum(line.split(":", 1)[-1].split().count("-") for line in stderr.splitlines())
        requests += panels * COUNT
        time.sleep(max(0.0, due - time.monotonic()))
    return {"requests": requests, "lost": lost}



def fping_cpu(fping, panels, seconds):
    """`measure_fping` with the CPU of its fping runs: the children reaped meanwhile, fping's alone
    (the StateDeck server of the round was stopped and reaped before)."""
    before = os.times()
    result = measure_fping(fping, panels, seconds)
    after = os.times()
    result["cpu"] = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return result


def bench_ping(args, statedeck, report, run):
    """`run` is run.py's module: start_statedeck, log, ensure what it needs."""
    if not statedeck:
        return "StateDeck not measured."
    fping = shutil.which("fping") or "/usr/bin/fping"
    panels = 200 if args.quick else PANELS
    seconds, warmup, rounds = (20, 12, 1) if args.quick else (60, 15, max(args.rounds, 3))
    workdir = Path(run.tempfile.mkdtemp(prefix="statedeck-bench-ping-"))
    deck = ping_deck(workdir, panels)
    results = {"statedeck": [], "fping": []}
    for round_index in range(rounds):
        results["statedeck"].append(measure_statedeck(run, statedeck, deck, workdir / f"data-{round_index}", seconds, warmup))
        results["fping"].append(fping_cpu(fping, panels, seconds))
        run.log(f"ping, round {round_index + 1}: StateDeck {results['statedeck'][-1]}, fping {results['fping'][-1]}")
    report["ping"] = results
    per_request = {name: [r["cpu"] / r["requests"] * 1e6 for r in runs] for name, runs in results.items()}
    ratios = [s / f for s, f in zip(per_request["statedeck"], per_request["fping"])]
    sd = results["statedeck"]
    return "\n".join([
        f"{panels:,} ping panels, each its own loopback address, {COUNT} requests {INTERVAL_MS} ms apart every "
        f"{PERIOD_SECONDS} s, history kept in a `--data` folder as `make run` keeps it; against `fping -C {COUNT} "
        f"-p {INTERVAL_MS} -i 1` of the same addresses started every {PERIOD_SECONDS} s. CPU over {seconds} s "
        f"(StateDeck's after {warmup} s of start-up), {rounds} round(s), the two in turn.", "",
        "| | CPU per request (µs), median | runs | requests a second |", "| --- | --- | --- | --- |",
        *[f"| {name} | {statistics.median(v):.1f} | " + ", ".join(f"{x:.1f}" for x in v)
          + f" | {statistics.median([r['requests'] / seconds for r in results[name]]):.0f} |"
          for name, v in per_request.items()],
        "",
        f"StateDeck ÷ fping: **{statistics.median(ratios):.2f}×** (median of the rounds' ratios: "
        + ", ".join(f"{r:.2f}" for r in ratios) + "). "
        f"StateDeck ran {statistics.median([r['threads'] for r in sd]):.0f} threads and "
        f"{statistics.median([r['rss_mib'] for r in sd]):.0f} MiB resident; "
        f"{min(r['reachable'] for r in sd):,} of {panels:,} panels showed Reachable at the end of each round.",
        ""])
