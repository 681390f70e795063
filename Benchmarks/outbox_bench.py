"""Notifications owed to a target that hangs (`make bench`, `--only outbox`): 20 panels flapping
once a second, each failure and recovery told to a webhook that accepts connections and never
answers, for 10 minutes (quick: 1) with the history on, as `make run` keeps it. Sampled along the
way: the server's RSS, the rows of the history's outbox (what is kept as still to deliver), and the
notifications decided so far (the up/down transitions). Then the server is stopped and started
again against a receiver that answers: how many notifications the restart sends.

Called by run.py, whose process tracking, servers and report it uses."""
from __future__ import annotations

import re
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

# The browser tests' flapping deck and webhook targets: one that never answers, one that keeps what it is sent.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "Tests" / "browser"))
from flapping import flapping_deck, owed_rows  # noqa: E402
from receivers import HangingReceiver, Receiver  # noqa: E402

PANELS = 20


def transitions(base: str) -> int:
    """Up/down transitions so far: each one a notification decided (failures: 1)."""
    with urllib.request.urlopen(base + "/metrics", timeout=10) as answer:
        text = answer.read().decode()
    return int(sum(float(value) for value in re.findall(r"^statedeck_transitions_total\{[^}]*\} (\S+)$", text, re.M)))


def bench_outbox(args, statedeck, report, run):
    """The notifying server and a control beside it, the same deck without `notify:`, sampled
    together: what the control's RSS does is what recording the history does."""
    if not statedeck:
        return "StateDeck not measured."
    minutes, every = (1, 5) if args.quick else (10, 30)
    workdir = Path(tempfile.mkdtemp(prefix="statedeck-bench-outbox-"))
    data, control_data = workdir / "data", workdir / "control-data"
    hanging = HangingReceiver()
    samples = []
    try:
        deck = flapping_deck(workdir / "notifying", PANELS, hanging.port)
        server = run.start_statedeck(statedeck, config=str(deck), extra=["--data", str(data)])
        control = run.start_statedeck(statedeck, config=str(flapping_deck(workdir / "control", PANELS, None)),
                                      extra=["--data", str(control_data)])
        started = time.monotonic()
        while (elapsed := time.monotonic() - started) < minutes * 60:
            time.sleep(every - elapsed % every)
            samples.append({"seconds": round(time.monotonic() - started), "rss_kib": server.rss_kib(),
                            "control_rss_kib": control.rss_kib(), "rows": owed_rows(data),
                            "decided": transitions(server.base)})
            run.log(f"outbox: {samples[-1]}")
        stop_seconds = server.stop()
        control.stop()
    finally:
        hanging.stop()
    # Again, against a target that answers: what the restart sends of what was owed.
    receiver = Receiver()
    try:
        flapping_deck(workdir / "notifying", PANELS, receiver.port)
        (workdir / "notifying" / "up").touch()
        server = run.start_statedeck(statedeck, config=str(deck), extra=["--data", str(data)])
        time.sleep(5)
        sent_after_restart = len(receiver.bodies)
        server.stop()
    finally:
        receiver.stop()
    report["outbox"] = {"samples": samples, "stop_seconds": stop_seconds, "sent_after_restart": sent_after_restart}
    return outbox_markdown(samples, minutes, stop_seconds, sent_after_restart)


def slope(samples, key) -> float:
    """KiB a minute over the second half of the run."""
    half = [s for s in samples if s["seconds"] >= samples[-1]["seconds"] / 2]
    if len(half) < 2:
        return float("nan")
    return (half[-1][key] - half[0][key]) / max(1, half[-1]["seconds"] - half[0]["seconds"]) * 60


def above(sample) -> int:
    """KiB the notifying server holds beyond the control."""
    return sample["rss_kib"] - sample["control_rss_kib"]


def outbox_markdown(samples, minutes, stop_seconds, sent_after_restart):
    last = samples[-1]
    rows = ["| after | RSS | RSS of the control (no `notify:`) | above the control | outbox rows | notifications decided |",
            "| --- | --- | --- | --- | --- | --- |"]
    for sample in samples:
        rows.append(f"| {sample['seconds']} s | {sample['rss_kib'] / 1024:.1f} MiB | "
                    f"{sample['control_rss_kib'] / 1024:.1f} MiB | {above(sample) / 1024:.1f} MiB | "
                    f"{sample['rows']} | {sample['decided']:,} |")
    middle = min(samples, key=lambda s: abs(s["seconds"] - last["seconds"] / 2))
    return "\n".join([
        f"{PANELS} panels flapping once a second for {minutes} min, each failure and recovery told to a webhook "
        "that never answers (history on), beside a control server running the same deck without `notify:`. "
        f"Each notify entry is owed one delivery being sent and one waiting, so the outbox holds at most "
        f"{2 * PANELS} rows whatever was decided.",
        "",
        *rows,
        "",
        f"- Outbox rows: at most {max(s['rows'] for s in samples)} (bound {2 * PANELS}), against "
        f"{last['decided']:,} notifications decided.",
        f"- RSS over the second half: {slope(samples, 'rss_kib'):+.0f} KiB/min notifying, "
        f"{slope(samples, 'control_rss_kib'):+.0f} KiB/min for the control; above the control "
        f"{above(middle) / 1024:.1f} MiB at {middle['seconds']} s and {above(last) / 1024:.1f} MiB at the end.",
        f"- Stop (SIGTERM) with every delivery hanging: {stop_seconds:.2f} s.",
        f"- Restart against a target that answers, every panel up: {sent_after_restart} notifications sent in its "
        f"first 5 s (what was still owed, then the recoveries still to tell), not the {last['decided']:,} decided.",
    ])
