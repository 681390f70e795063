"""Several processes (`make bench`, `--only cluster`): one process alone (no store: the baseline),
then 1, 2 and 3 StateDeck processes sharing one deck through one PostgreSQL on this machine (scripts/temporary-postgres), each with its own
open-file limit. For each: how many streams the processes hold together (sse-client spreads them
round-robin over the processes), the time for one event to reach every stream, and the delay from
publishing to each stream (p99); an event is published on the leader, so with several processes it
travels through the store. With 2 and 3, the failover time: the leader is killed with SIGKILL and
the clock runs until an action sent to a survivor is answered by the new leader.

Called by run.py, whose process tracking, servers and report it uses."""
from __future__ import annotations

import os
import resource
import subprocess
import tempfile
import time
from pathlib import Path

OPEN_FILES = 20_000          # each process's own limit, as one alone has
STREAMS_PER_PROCESS = 19_000
FANOUTS = 5


def limit_files():
    resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, OPEN_FILES))


def deck(folder: Path, panel: str) -> Path:
    path = folder / "cluster-deck.yaml"
    path.write_text("title: Cluster bench\nstatedeckPanel: false\npanels:\n"
                    f"  - id: {panel}\n    title: Bench\n    command: {{ run: [echo, ready] }}\n    refresh: manual\n")
    return path


def start_store(run, folder: Path) -> str:
    script = run.ROOT / "scripts" / "temporary-postgres"
    return subprocess.run([str(script), "start", str(folder)], check=True, capture_output=True, text=True).stdout.strip()


def stop_store(run, folder: Path) -> None:
    subprocess.run([str(run.ROOT / "scripts" / "temporary-postgres"), "stop", str(folder)], check=False)


def publish(run, server, text: str):
    return run.http("POST", f"{server.base}/api/debug/panels/{run.STATEDECK_PANEL}/state",
                    {"state": "loaded", "info": {"summary": text}}, timeout=15)


def measure(run, binary, processes: int, streams: int, workdir: Path) -> dict:
    """`processes` 0 is one process alone, without a store: the baseline."""
    store_dir = workdir / f"store-{processes}"
    store = start_store(run, store_dir) if processes else None
    servers, client = [], None
    try:
        config = deck(workdir, run.STATEDECK_PANEL)
        for _ in range(max(1, processes)):
            servers.append(run.start_statedeck(binary, config=str(config), extra=["--cluster", store] if store else [],
                                               preexec=limit_files))
        leader = servers[0]   # the first to start takes the lock
        for i in range(60):   # a full history, so that every event has the same size
            publish(run, leader, f"warm-up {i:04d}")
        body = '{"state":"loaded","info":{"summary":"{marker}{pad}"}}'
        client = run.Client(leader, streams, [
            "--stream-ports", ",".join(str(s.port) for s in servers),
            "--pub-path", f"/api/debug/panels/{run.STATEDECK_PANEL}/state", "--pub-body", body,
            "--pub-type", "application/json", "--live-marker", "event: snapshot"], allow_partial=True)
        events = []
        for _ in range(FANOUTS):
            events.append(client.command("fanout", timeout=60))
            time.sleep(0.3)
        complete = [e for e in events if e["complete"]]
        result = {
            "processes": processes, "asked": streams, "streams": client.live,
            "all_ms": run.median(e["all_max_ms"] for e in complete) if complete else None,
            "p50_ms": run.median(e["p50_ms"] for e in events),
            "p99_ms": run.median(e["p99_ms"] for e in events),
            "incomplete_events": len(events) - len(complete),
        }
        client.close()
        client = None
        if processes > 1:
            result["failover_ms"] = failover(run, leader, servers[1:])
        return result
    finally:
        if client:
            client.close()
        for server in servers:
            server.stop()
        if store:
            stop_store(run, store_dir)


def failover(run, leader, survivors) -> float:
    """Milliseconds from SIGKILL of the leader until a survivor's forwarded action is answered."""
    leader.proc.kill()
    killed = time.monotonic()
    deadline = killed + 30
    while time.monotonic() < deadline:
        try:
            status, _ = publish(run, survivors[0], "after the failover")
            if status == 200:
                return (time.monotonic() - killed) * 1000
        except OSError:
            pass
        time.sleep(0.02)
    raise run.BenchError("no survivor took over within 30 s")


def bench_cluster(args, statedeck, report, run):
    if not statedeck:
        return "StateDeck not measured."
    per_process = 2_000 if args.quick else STREAMS_PER_PROCESS
    rounds = 1 if args.quick else args.rounds
    workdir = Path(tempfile.mkdtemp(prefix="statedeck-bench-cluster-"))
    workdir.chmod(0o755)   # the store's server runs as nobody under root
    results: dict[int, list[dict]] = {}
    for round_index in range(rounds):
        for processes in (0, 1, 2, 3):
            run.log(f"cluster round {round_index + 1}/{rounds}: {label(processes)}, "
                    f"{per_process * max(1, processes)} streams asked")
            try:
                result = measure(run, statedeck, processes, per_process * max(1, processes), workdir)
            except run.BenchError as error:
                run.log(f"  failed: {error}")
                continue
            run.log(f"  {result['streams']} streams, every stream in {run.fmt('{:.0f}', result['all_ms'])} ms, "
                    f"p99 {result['p99_ms']:.0f} ms, failover {run.fmt('{:.0f}', result.get('failover_ms'))} ms")
            results.setdefault(processes, []).append(result)
    report["cluster"] = results
    return markdown(run, results, per_process)


def label(processes: int) -> str:
    return "1 alone (no store)" if processes == 0 else f"{processes} through PostgreSQL"


def markdown(run, results: dict[int, list[dict]], per_process: int) -> str:
    def best(processes, key, pick=min):
        values = [r[key] for r in results.get(processes, []) if r.get(key) is not None]
        return pick(values) if values else None

    lines = [
        f"Each process with its own limit of {OPEN_FILES:,} open files, {per_process:,} streams asked of each, "
        "spread round-robin over the processes by one sse-client; one PostgreSQL 15 (fsync off) on the same "
        "two cores. An event is published on the leader (a debug state, so with several processes it goes "
        "through the store to every process). Best of the rounds.",
        "",
        "| processes | streams held | one event to every stream | publish → stream p50 | p99 | failover (SIGKILL → an action answered) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for processes in sorted(results):
        lines.append(
            f"| {label(processes)} | {run.fmt('{:,}', best(processes, 'streams', max))} | "
            f"{run.fmt('{:.0f} ms', best(processes, 'all_ms'))} | {run.fmt('{:.0f} ms', best(processes, 'p50_ms'))} | "
            f"{run.fmt('{:.0f} ms', best(processes, 'p99_ms'))} | {run.fmt('{:.0f} ms', best(processes, 'failover_ms'))} |")
    return "\n".join(lines)
