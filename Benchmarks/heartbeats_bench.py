"""Heartbeat panels at scale: 10,000 panels each pinged once a minute (167 pings a second), the
history kept as `make run` keeps it, against the same deck with no pings, the two in turn.

Run by run.py (`--only heartbeats`); Python 3 standard library only.
"""

import http.client
import json
import statistics
import threading
import time
from pathlib import Path

PANELS = 10_000
PERIOD_SECONDS = 60
# Keep-alive connections the pings are spread over, as many cron hosts would.
CONNECTIONS = 8


def key(index: int) -> str:
    return f"bench-heartbeat-key-{index:06d}"


def heartbeat_deck(folder: Path, panels: int, extra=()) -> Path:
    """`panels` heartbeat panels, `job-0` … each pinged at its `key`, then the `extra` panels."""
    path = folder / "heartbeats.json"
    path.write_text(json.dumps({
        "title": "Heartbeats",
        "statedeckPanel": False,
        "panels": [{"id": f"job-{i}", "heartbeat": {"period": "1m", "grace": "30s", "key": key(i)}}
                   for i in range(panels)] + list(extra),
    }))
    return path


class Pinger:
    """Pings every panel once per period, evenly spread, over a few keep-alive connections; counts
    the answers that were not 200."""

    def __init__(self, port: int, panels: int, period: float):
        self.port, self.panels, self.period = port, panels, period
        self.stop = threading.Event()
        self.sent = 0
        self.failed = 0
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, args=(lane,), daemon=True) for lane in range(CONNECTIONS)]

    def start(self):
        for thread in self.threads:
            thread.start()

    def finish(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=5)

    def run(self, lane: int):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        mine = list(range(lane, self.panels, CONNECTIONS))
        interval = self.period / len(mine)
        due = time.monotonic()
        index = 0
        while not self.stop.is_set():
            due += interval
            try:
                connection.request("POST", f"/ping/{key(mine[index])}", body=b"ok")
                response = connection.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                ok = False
            with self.lock:
                self.sent += 1
                self.failed += 0 if ok else 1
            index = (index + 1) % len(mine)
            pause = due - time.monotonic()
            if pause > 0:
                self.stop.wait(pause)
        connection.close()


def bench_heartbeats(args, statedeck, report, run):
    """`run` is run.py's module: start_statedeck, log."""
    if not statedeck:
        return "StateDeck not measured."
    panels = 2_000 if args.quick else PANELS
    seconds, warmup, rounds = (20, 10, 1) if args.quick else (60, 30, max(args.rounds, 3))
    workdir = Path(run.tempfile.mkdtemp(prefix="statedeck-bench-heartbeats-"))
    deck = heartbeat_deck(workdir, panels)
    cpu = {"pinged": [], "idle": []}
    pings = []
    for round_index in range(rounds):
        for name in cpu:
            data = ["--data", str(workdir / f"data-{name}-{round_index}")]
            server = run.start_statedeck(statedeck, config=str(deck), extra=data, debug=False)
            pinger = Pinger(server.port, panels, PERIOD_SECONDS) if name == "pinged" else None
            try:
                if pinger:
                    pinger.start()
                time.sleep(warmup)
                before, sent_before = server.cpu_seconds(), pinger.sent if pinger else 0
                time.sleep(seconds)
                cpu[name].append((server.cpu_seconds() - before) / seconds * 100)
                if pinger:
                    pings.append((pinger.sent - sent_before) / seconds)
            finally:
                if pinger:
                    pinger.finish()
                    if pinger.failed:
                        raise RuntimeError(f"{pinger.failed} of {pinger.sent} pings were not answered 200")
                server.stop()
            run.log(f"heartbeats, {name}: {cpu[name][-1]:.2f} % of a core")
    report["heartbeats_cpu_percent"] = cpu
    report["heartbeats_pings_per_second"] = pings
    added = statistics.median([p - i for p, i in zip(cpu["pinged"], cpu["idle"])])
    return "\n".join([
        f"{panels:,} heartbeat panels (`period: 1m`), each pinged once a minute with a body, evenly spread "
        f"over {CONNECTIONS} keep-alive connections: {statistics.median(pings):.0f} pings a second. History "
        f"kept in a `--data` folder, as `make run` keeps it. CPU of the StateDeck process over {seconds} s "
        f"after {warmup} s, {rounds} round(s), each a pair run back to back: pinged, and the same deck with "
        "no ping (a control: its panels wait for their first).", "",
        "| deck | CPU (% of a core), median | runs |", "| --- | --- | --- |",
        *[f"| {name} | {statistics.median(v):.2f} | " + ", ".join(f"{x:.2f}" for x in v) + " |"
          for name, v in cpu.items()],
        "", f"The pings cost {added:.2f} % of a core (the median of the rounds' differences; target: under 5 %).",
        ""])
