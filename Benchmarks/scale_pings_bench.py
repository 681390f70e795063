"""Heartbeat pings at scale (part of `--only scale`): a deck of 100,000 heartbeat panels pinged
10,000 times a second at `/ping/{key}`, the history kept as `make run` keeps it, against the same
deck with no pings, the two in turn.

The pings come from Benchmarks/ping-load.c (one thread, epoll, keep-alive connections, an
open-loop schedule: a slow server shows as latency, not as a lower rate), each key in turn, so
every panel is pinged every 10 s. Measured over the window: the pings sent and answered, their
latency from when each was due, the server's CPU (utime + stime of /proc/PID/stat) ÷ the pings,
threads and RSS. Then whether every ping was counted: the loads the history tallied for a sample
of panels (`GET /api/panels/{id}/uptime`; a ping is a load there) against the 200s the load
generator had for their keys over the whole run, and whether the rest of the deck kept time:
a few heartbeat panels the load generator does not ping, pinged once by the harness as the window
begins, must go down when their run is due plus its grace (`lateAt`), not later.

Run by run.py (`run_pings`, from its `scale` benchmark); Python 3 standard library only.
"""

import json
import shutil
import statistics
import subprocess
import time
import urllib.request
from datetime import datetime
from pathlib import Path

from heartbeats_bench import heartbeat_deck, key

PANELS = 100_000
RATE = 10_000
CONNECTIONS = 64
# The keys heartbeat_deck gives, as ping-load spells them: a prefix, then the index zero-padded.
KEY_PREFIX = key(0).rstrip("0")
KEY_DIGITS = len(key(0)) - len(KEY_PREFIX)
# Panels that only the harness pings, once: each must go down `period` + `grace` later, on time.
ON_TIME_PANELS = 10
ON_TIME_PERIOD_SECONDS, ON_TIME_GRACE_SECONDS = 10, 5
# Panels whose tallied loads are compared with the 200s their keys had, spread over the deck.
COUNTED_SAMPLE = 1_000
# Targets: a quarter of the 226 µs a ping cost at 167 a second (the heartbeats benchmark).
CPU_LIMIT_US = 55.0
P99_LIMIT_MS = 50.0
LATE_LIMIT_MS = 1_000.0


def on_time_panels():
    return [{"id": f"on-time-{i}", "heartbeat": {
        "period": f"{ON_TIME_PERIOD_SECONDS}s", "grace": f"{ON_TIME_GRACE_SECONDS}s", "key": f"bench-on-time-key-{i:06d}"}}
        for i in range(ON_TIME_PANELS)]


def get_json(base, path, timeout=30.0):
    with urllib.request.urlopen(base + path, timeout=timeout) as answer:
        return json.load(answer)


def parse_time(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def ping_on_time_panels(base):
    for i in range(ON_TIME_PANELS):
        request = urllib.request.Request(f"{base}/ping/bench-on-time-key-{i:06d}", method="POST", data=b"ok")
        with urllib.request.urlopen(request, timeout=10) as answer:
            if answer.status != 200:
                raise RuntimeError(f"the on-time panel {i}'s ping was answered {answer.status}")


def lateness_ms(base):
    """How late each on-time panel went down after its `lateAt`, in ms; None for one still up."""
    late = []
    for i in range(ON_TIME_PANELS):
        panel = get_json(base, f"/api/panels/on-time-{i}")
        late_at = (panel.get("heartbeat") or {}).get("lateAt")
        down = [entry for entry in panel.get("history", []) if entry["state"] == "error"]
        late.append((parse_time(down[-1]["at"]) - parse_time(late_at)) * 1000 if late_at and down else None)
    return late


def counted(base, counts, panels):
    """Panels of a sample spread over the deck whose tallied loads differ from the 200s their keys
    had, and the sample's size."""
    step = max(1, panels // COUNTED_SAMPLE)
    wrong = []
    for index in range(0, panels, step):
        uptime = get_json(base, f"/api/panels/job-{index}/uptime?span=2h&slots=1")
        loads = sum(slot["loads"] for slot in uptime["slots"])
        if loads != counts[index]:
            wrong.append((index, counts[index], loads))
    return wrong, len(range(0, panels, step))


def status_of(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def measure(run, statedeck, deck, data, settings, pinged):
    """One server on `deck` with its history in `data`: pinged at `settings["rate"]`, or idle."""
    server = run.start_statedeck(statedeck, config=str(deck), extra=["--data", str(data)], debug=False)
    try:
        run.log(f"scale pings: serving {settings['panels']:,} panels after {server.startup_seconds:.1f} s")
        get_json(server.base, "/api/panels/on-time-0")
        if pinged:
            counts_file = data.parent / f"{data.name}-counts.txt"
            load = run.PROCS.start(
                [run.TOOLS / "ping-load", "--port", server.port, "--keys", settings["panels"],
                 "--key-prefix", KEY_PREFIX, "--key-digits", KEY_DIGITS, "--rate", settings["rate"],
                 "--warmup", settings["warmup"], "--seconds", settings["seconds"], "--connections", CONNECTIONS,
                 "--counts", counts_file],
                stdout=subprocess.PIPE, text=True)
            lines = run.LineReader(load.stdout)
            lines.wait_for(r"^window start$", settings["warmup"] + 30, "the window's start")
        else:
            time.sleep(settings["warmup"])
        cpu, load_cpu, started = server.cpu_seconds(), 0.0, time.monotonic()
        if pinged:
            load_cpu = run.cpu_seconds(load.pid)
        ping_on_time_panels(server.base)
        if pinged:
            lines.wait_for(r"^window end$", settings["seconds"] + 30, "the window's end")
        else:
            time.sleep(settings["seconds"])
        elapsed = time.monotonic() - started
        result = {"cpu_seconds": server.cpu_seconds() - cpu, "seconds": elapsed,
                  "threads": status_of(server.measured_pid, "Threads"), "rss_mib": server.rss_kib() / 1024}
        if pinged:
            result["load_cpu_seconds"] = run.cpu_seconds(load.pid) - load_cpu
            result["load"] = json.loads(lines.wait_for(r"^\{.*\}$", 60, "the load generator's summary").group(0))
            run.PROCS.stop(load)
            time.sleep(2)   # the history's writer saves at least once a second
            counts = [int(line) for line in counts_file.read_text().split()]
            result["miscounted"], result["counted_sample"] = counted(server.base, counts, settings["panels"])
        # The on-time panels go down within the window; wait for the last one if it is that late.
        deadline = time.monotonic() + 30
        while None in (late := lateness_ms(server.base)) and time.monotonic() < deadline:
            time.sleep(1)
        result["late_ms"] = late
    finally:
        server.stop()
        # A history of 100,000 panels takes a few hundred MB: one round's at a time.
        shutil.rmtree(data, ignore_errors=True)
    return result


def run_pings(run, args, statedeck, report):
    """`run` is run.py's module: start_statedeck, PROCS, TOOLS, LineReader, log. Returns the
    section's Markdown."""
    if not statedeck:
        return "StateDeck not measured."
    settings = ({"panels": 10_000, "rate": 1_000, "seconds": 20, "warmup": 12} if args.quick
                else {"panels": PANELS, "rate": RATE, "seconds": 60, "warmup": 15})
    rounds = 1 if args.quick else args.rounds
    workdir = Path(run.tempfile.mkdtemp(prefix="statedeck-bench-scale-pings-"))
    deck = heartbeat_deck(workdir, settings["panels"], extra=on_time_panels())
    results = {"pinged": [], "idle": []}
    for round_index in range(rounds):
        for name in results:
            result = measure(run, statedeck, deck, workdir / f"data-{name}-{round_index}", settings, name == "pinged")
            results[name].append(result)
            run.log(f"scale pings, {name}: " + json.dumps({**result, "miscounted": result.get("miscounted", [])[:5]}))
    report["scale_pings"] = results
    return markdown(results, settings, rounds)


def markdown(results, settings, rounds):
    pinged, idle = results["pinged"], results["idle"]
    per_ping = [(p["cpu_seconds"] - i["cpu_seconds"]) / p["load"]["window"]["ok"] * 1e6
                if p["load"]["window"]["ok"] else float("nan") for p, i in zip(pinged, idle)]
    gross = [p["cpu_seconds"] / p["load"]["window"]["ok"] * 1e6 if p["load"]["window"]["ok"] else float("nan")
             for p in pinged]
    windows = [p["load"]["window"] for p in pinged]
    p99 = statistics.median(w["p99_ms"] for w in windows)
    every = all(w["ok"] == w["due"] and not p["miscounted"] for w, p in zip(windows, pinged))
    late = [ms for r in pinged + idle for ms in r["late_ms"]]
    on_time = None not in late and max(late) <= LATE_LIMIT_MS

    def runs(values, form="{:.1f}"):
        return ", ".join(form.format(v) for v in values)

    def percent(r):
        return r["cpu_seconds"] / r["seconds"] * 100

    rows = [
        ("pings due in the window", runs([w["due"] for w in windows], "{:,}")),
        ("answered 200", runs([w["ok"] for w in windows], "{:,}")),
        ("answered otherwise / lost / unanswered / not sent",
         "; ".join(f"{w['other']} / {w['lost']} / {w['unanswered']} / {w['unsent']}" for w in windows)),
        ("latency p50 (ms)", runs([w["p50_ms"] for w in windows], "{:.2f}")),
        ("latency p99 (ms)", runs([w["p99_ms"] for w in windows], "{:.2f}")),
        ("latency max (ms)", runs([w["max_ms"] for w in windows], "{:.1f}")),
        ("sent after it was due (no idle connection, or the client's CPU), p99 / max (ms)",
         "; ".join(f"{w['lag_p99_ms']:.2f} / {w['lag_max_ms']:.1f}" for w in windows)),
        ("server CPU, pinged (% of a core)", runs([percent(r) for r in pinged])),
        ("server CPU, idle control (% of a core)", runs([percent(r) for r in idle], "{:.2f}")),
        ("server CPU per ping, gross (µs)", runs(gross)),
        ("**server CPU per ping, less the control (µs)**", runs(per_ping)),
        ("load generator CPU (% of a core)", runs([r["load_cpu_seconds"] / r["seconds"] * 100 for r in pinged])),
        ("threads, pinged / idle", "; ".join(f"{p['threads']} / {i['threads']}" for p, i in zip(pinged, idle))),
        ("RSS, pinged / idle (MiB)", "; ".join(f"{p['rss_mib']:.0f} / {i['rss_mib']:.0f}" for p, i in zip(pinged, idle))),
        ("panels of the sample whose tallied loads differ from their 200s",
         "; ".join(f"{len(p['miscounted'])} of {p['counted_sample']:,}" for p in pinged)),
        ("on-time panels: latest down after `lateAt`, pinged / idle (ms)",
         "; ".join(f"{max_or_none(p['late_ms'])} / {max_or_none(i['late_ms'])}" for p, i in zip(pinged, idle))),
    ]
    return "\n".join([
        f"{settings['panels']:,} heartbeat panels (`period: 1m`, `grace: 30s`) and {ON_TIME_PANELS} more pinged once "
        f"as the window begins (`period: {ON_TIME_PERIOD_SECONDS}s`, `grace: {ON_TIME_GRACE_SECONDS}s`), history kept "
        f"in a `--data` folder as `make run` keeps it. `ping-load` sends `POST /ping/{{key}}` (body `ok`) at "
        f"{settings['rate']:,} a second over {CONNECTIONS} keep-alive connections, each key in turn, for "
        f"{settings['warmup']} s and then the {settings['seconds']} s window measured; the control is the same deck "
        f"unpinged. {rounds} round(s), each the pinged server and then the control, fresh servers and folders.", "",
        "| | runs |", "| --- | --- |",
        *[f"| {name} | {values} |" for name, values in rows],
        "",
        f"Per ping: **{statistics.median(per_ping):.1f} µs** of the server's CPU (the median of the rounds', the "
        f"control's CPU subtracted; target: at most {CPU_LIMIT_US:.0f} µs: "
        f"{'met' if statistics.median(per_ping) <= CPU_LIMIT_US else 'not met'}); p99 **{p99:.2f} ms** (target: under {P99_LIMIT_MS:.0f} ms: "
        f"{'met' if p99 < P99_LIMIT_MS else 'not met'}); every ping answered 200 and counted in the history: "
        f"{'yes' if every else 'no'}; the on-time panels down within {LATE_LIMIT_MS:,.0f} ms of `lateAt`: "
        f"{'yes' if on_time else 'no'}.",
        ""])


def max_or_none(values):
    return "never" if None in values else f"{max(values):.0f}"
