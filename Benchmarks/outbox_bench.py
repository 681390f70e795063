"""Notifications owed to a target that hangs (`make bench`, `--only outbox`): 20 panels flapping
once a second, each failure and recovery told to a webhook that accepts connections and never
answers, for 10 minutes (quick: 1) with the history on, as `make run` keeps it. Sampled along the
way: the server's RSS, the rows of the history's outbox (what is kept as still to deliver), and the
notifications decided so far (the up/down transitions). Then the server is stopped and started
again against a receiver that answers: how many notifications the restart sends.

Called by run.py, whose process tracking, servers and report it uses."""
from __future__ import annotations

import re
import sqlite3
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

# The webhook targets of the browser tests: one that never answers, one that keeps what it is sent.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "Tests" / "browser"))
from receivers import HangingReceiver, Receiver  # noqa: E402

PANELS = 20


def flapping_deck(folder: Path, webhook_port: int, flapping: bool = True) -> Path:
    """PANELS command panels failing and succeeding by turns, one load a second; up for good
    without `flapping`."""
    script = "{{ test -f {0} && rm {0}; }} || {{ touch {0}; exit 1; }}" if flapping else "true"
    panels = "".join(
        f"  - id: flap-{n}\n"
        f'    command: {{ run: ["sh", "-c", "{script.format(folder / str(n))}"] }}\n'
        for n in range(PANELS))
    deck = folder / "deck.yaml"
    deck.write_text(
        "title: Outbox benchmark\n"
        "defaults:\n  refresh: 1s\n  retry: none\n  minimumLoading: 0ms\n"
        f'  notify: [{{ webhook: {{ url: "http://127.0.0.1:{webhook_port}/hook" }}, after: {{ failures: 1 }} }}]\n'
        f"panels:\n{panels}")
    return deck


def outbox_rows(data: Path) -> int:
    with sqlite3.connect(f"file:{data / 'history.sqlite3'}?mode=ro", uri=True, timeout=10) as db:
        return db.execute("SELECT count(*) FROM notify_outbox").fetchone()[0]


def transitions(base: str) -> int:
    """Up/down transitions so far: each one a notification decided (failures: 1)."""
    with urllib.request.urlopen(base + "/metrics", timeout=10) as answer:
        text = answer.read().decode()
    return int(sum(float(value) for value in re.findall(r"^statedeck_transitions_total\{[^}]*\} (\S+)$", text, re.M)))


def bench_outbox(args, statedeck, report, run):
    if not statedeck:
        return "StateDeck not measured."
    minutes, every = (1, 5) if args.quick else (10, 30)
    workdir = Path(tempfile.mkdtemp(prefix="statedeck-bench-outbox-"))
    data = workdir / "data"
    hanging = HangingReceiver()
    samples = []
    try:
        deck = flapping_deck(workdir, hanging.port)
        server = run.start_statedeck(statedeck, config=str(deck), extra=["--data", str(data)])
        started = time.monotonic()
        while (elapsed := time.monotonic() - started) < minutes * 60:
            time.sleep(every - elapsed % every)
            samples.append({"seconds": round(time.monotonic() - started), "rss_kib": server.rss_kib(),
                            "rows": outbox_rows(data), "decided": transitions(server.base)})
            run.log(f"outbox: {samples[-1]}")
        stop_seconds = server.stop()
    finally:
        hanging.stop()
    # Again, against a target that answers: what the restart sends of what was owed.
    receiver = Receiver()
    try:
        flapping_deck(workdir, receiver.port, flapping=False)
        server = run.start_statedeck(statedeck, config=str(deck), extra=["--data", str(data)])
        time.sleep(5)
        sent_after_restart = len(receiver.bodies)
        server.stop()
    finally:
        receiver.stop()
    report["outbox"] = {"samples": samples, "stop_seconds": stop_seconds, "sent_after_restart": sent_after_restart}
    return outbox_markdown(samples, minutes, stop_seconds, sent_after_restart)


def outbox_markdown(samples, minutes, stop_seconds, sent_after_restart):
    first, last = samples[0], samples[-1]
    half = [s for s in samples if s["seconds"] >= samples[-1]["seconds"] / 2]
    slope = ((half[-1]["rss_kib"] - half[0]["rss_kib"]) / max(1, half[-1]["seconds"] - half[0]["seconds"]) * 60
             if len(half) > 1 else float("nan"))
    rows = ["| after | RSS | outbox rows | notifications decided |", "| --- | --- | --- | --- |"]
    for sample in samples:
        rows.append(f"| {sample['seconds']} s | {sample['rss_kib'] / 1024:.1f} MiB | {sample['rows']} | {sample['decided']:,} |")
    return "\n".join([
        f"{PANELS} panels flapping once a second for {minutes} min, each failure and recovery told to a webhook "
        "that never answers (history on). Each notify entry is owed one delivery being sent and one waiting, "
        f"so the outbox holds at most {2 * PANELS} rows whatever was decided.",
        "",
        *rows,
        "",
        f"- Outbox rows: at most {max(s['rows'] for s in samples)} (bound {2 * PANELS}), against "
        f"{last['decided']:,} notifications decided.",
        f"- RSS: {first['rss_kib'] / 1024:.1f} MiB at the first sample, {last['rss_kib'] / 1024:.1f} MiB at the last; "
        f"{slope:+.1f} KiB/min over the second half.",
        f"- Stop (SIGTERM) with every delivery hanging: {stop_seconds:.2f} s.",
        f"- Restart against a target that answers, every panel up: {sent_after_restart} notifications sent in its "
        f"first 5 s (what was still owed, then the recoveries still to tell), not the {last['decided']:,} decided.",
    ])
