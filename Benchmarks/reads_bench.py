"""Reads of the history while its writer saves (`make bench`, `--only reads`): a release server
with a deck of 10,000 file panels and the history on, as `make run` keeps it (`.statedeck/` beside
the deck file). Every panel reads one file; the harness replaces that file with the other of two
contents, so all 10,000 panels load and change at about the same moment and the history's writer
has a batch of 10,000 changes to save. Meanwhile one client asks, on one keep-alive connection,
for `GET /api/panels/{id}/uptime` (the timeline every card draws) and `GET /api/panels/{id}/history`
of random panels in turn, as fast as they are answered, timing each. Reported: p50, p99 and the
slowest of each query while a batch is being saved (from the file's change until every change of
it is in the file), and the same with no change at all (the control), in rounds of the two in turn.

With `--baseline-bin PATH` a second binary (main's, say) is measured the same way in the same
run, the two taking turns round by round.

Called by run.py, whose process tracking, servers and report it uses."""
from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import sqlite3
import tempfile
import threading
import time
from pathlib import Path

from history_bench import median, percentile, thread_cpu_seconds

PANELS = 10_000
CONTENTS = ('{"summary": "flip A"}\n', '{"summary": "flip B"}\n')
QUERIES = ("uptime", "history")
PHASES = {"quiet": "no changes (control)", "burst": "10,000 changes being saved"}
# Target: a timeline (uptime) query's p99 while a 10,000-panel batch is saved, in ms: the history
# queries' own target (a 30-day query under 50 ms), which a card waiting for its timeline should
# not exceed because of a save.
TARGET_P99_MS = 50


def flip_deck(folder: Path, panels: int) -> Path:
    """`panels` file panels p000, p001, … all reading `flip.json` (watched, no refresh), without
    StateDeck's own panel: every change in the history is one the harness made."""
    folder.mkdir(parents=True)
    (folder / "flip.json").write_text(CONTENTS[0])
    deck = {"title": f"Reads under writes ({panels} file panels)", "statedeckPanel": False,
            "panels": [{"id": f"p{i:03d}", "file": {"path": "./flip.json"}, "refresh": "manual"}
                       for i in range(panels)]}
    path = folder / "deck.json"
    path.write_text(json.dumps(deck))
    return path


def flip(folder: Path, content: str):
    """Replaces `flip.json` by rename: a new inode, which every panel's watcher sees at its next check."""
    temporary = folder / "flip.json.new"
    temporary.write_text(content)
    os.replace(temporary, folder / "flip.json")


class Reader(threading.Thread):
    """One client on one keep-alive connection asking for the uptime and the history of random
    panels in turn, as fast as they are answered. Each sample: (start, query, ms, answered 200)."""

    def __init__(self, port: int, panels: list[str], seed: int):
        super().__init__(daemon=True)
        self.port, self.panels = port, panels
        self.random = random.Random(seed)
        self.samples: list[tuple[float, str, float, bool]] = []
        self.stopped = threading.Event()

    def run(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        turn = 0
        while not self.stopped.is_set():
            query = QUERIES[turn % 2]
            turn += 1
            path = f"/api/panels/{self.random.choice(self.panels)}/{query}"
            started = time.perf_counter()
            try:
                connection.request("GET", path)
                answer = connection.getresponse()
                answer.read()
                ok = answer.status == 200
            except (OSError, http.client.HTTPException):
                ok = False
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            self.samples.append((started, query, (time.perf_counter() - started) * 1000, ok))
        connection.close()

    def stop(self):
        self.stopped.set()
        self.join(15)


class SavedChanges:
    """The history file's changes, read beside the running server (WAL: a reader never waits for
    its writer, nor holds it up)."""

    def __init__(self, path: Path):
        self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)

    def newest(self) -> int:
        return self.db.execute("SELECT coalesce(max(rowid), 0) FROM changes").fetchone()[0]

    def count_after(self, rowid: int) -> int:
        return self.db.execute("SELECT count(*) FROM changes WHERE rowid > ?", (rowid,)).fetchone()[0]

    def wait_for(self, count: int, after: int, timeout: float, what: str, error) -> float:
        """Seconds until `count` changes after rowid `after` are saved, polled every 20 ms."""
        started = time.perf_counter()
        while self.count_after(after) < count:
            if time.perf_counter() - started > timeout:
                raise error(f"{what}: {self.count_after(after)} of {count} changes saved after {timeout:.0f} s")
            time.sleep(0.02)
        return time.perf_counter() - started

    def wait_until_settled(self, timeout: float, error):
        """Until no change was saved for 2 s (the writer saves at least once a second)."""
        started, newest, since = time.perf_counter(), self.newest(), time.perf_counter()
        while time.perf_counter() - since < 2:
            if time.perf_counter() - started > timeout:
                raise error(f"changes still being saved after {timeout:.0f} s")
            time.sleep(0.2)
            if (latest := self.newest()) != newest:
                newest, since = latest, time.perf_counter()

    def close(self):
        self.db.close()


def one_round(build, folder: Path, settings: dict, seed: int, run) -> dict:
    """A fresh server of `build` (run.Build) on a fresh deck: a quiet phase, then `flips` write bursts."""
    deck = flip_deck(folder, PANELS)
    ids = [f"p{i:03d}" for i in range(PANELS)]
    server = build.start(config=str(deck), debug=False, default_history=True)
    windows = {"quiet": [], "burst": []}
    writer = {"quiet": 0.0, "burst": 0.0}
    bursts = []
    try:
        history = run.default_history_file(deck)
        if not history.exists():
            raise run.BenchError(f"no {history}: the server keeps no history where `make run` keeps it")
        run.wait_until_loaded(server.base, timeout=180)
        saved = SavedChanges(history)
        try:
            # Every panel's first result saved, so the first phase starts with nothing to save but
            # what a quiet deck saves.
            saved.wait_until_settled(60, run.BenchError)
            reader = Reader(server.port, ids, seed)
            reader.start()
            try:
                time.sleep(2)   # the connection and the first queries, not counted

                def writer_seconds():
                    return thread_cpu_seconds(server.proc.pid, "history-writer", run.CLK_TCK)

                began, cpu = time.perf_counter(), writer_seconds()
                time.sleep(settings["quiet_seconds"])
                windows["quiet"].append((began, time.perf_counter()))
                writer["quiet"] += writer_seconds() - cpu
                for index in range(settings["flips"]):
                    newest = saved.newest()
                    began, cpu = time.perf_counter(), writer_seconds()
                    flip(folder, CONTENTS[(index + 1) % 2])
                    bursts.append(saved.wait_for(PANELS, newest, 60, f"burst {index + 1}", run.BenchError))
                    windows["burst"].append((began, time.perf_counter()))
                    writer["burst"] += writer_seconds() - cpu
                    time.sleep(settings["gap_seconds"])
            finally:
                reader.stop()
        finally:
            saved.close()
    finally:
        server.stop()
    samples = {phase: {query: [] for query in QUERIES} for phase in windows}
    failed = {phase: 0 for phase in windows}
    for started, query, ms, ok in reader.samples:
        for phase, spans in windows.items():
            if any(begin <= started <= end for begin, end in spans):
                if ok:
                    samples[phase][query].append(ms)
                else:
                    failed[phase] += 1
    seconds = {phase: sum(end - begin for begin, end in spans) for phase, spans in windows.items()}
    return {"samples": samples, "failed": failed, "seconds": seconds, "bursts_s": bursts,
            "writer_cpu_percent": {phase: 100 * writer[phase] / seconds[phase] for phase in windows}}


def summary(values: list[float]) -> dict:
    return {"requests": len(values), "p50_ms": percentile(values, 0.5), "p99_ms": percentile(values, 0.99),
            "max_ms": max(values) if values else float("nan")}


def bench_reads(args, statedeck, report, run):
    """Rounds of this build and, with --baseline-bin, the baseline in turn, each round a fresh
    server: the control phase, then the write bursts. Samples of a build's rounds are pooled per
    phase and query."""
    if not statedeck:
        return "StateDeck not measured."
    measured = run.builds(args, statedeck)
    rounds = 1 if args.quick else args.rounds
    settings = {"quiet_seconds": 5 if args.quick else 10, "flips": 3 if args.quick else 6, "gap_seconds": 1.0}
    workdir = Path(tempfile.mkdtemp(prefix="statedeck-bench-reads-"))

    def measure(build, index):
        result = one_round(build, workdir / f"{build.name.replace(' ', '-')}-{index}", settings, index, run)
        run.log(f"reads round {index + 1}/{rounds}, {build.name}: " + "; ".join(
            f"{PHASES[phase]}: " + ", ".join(
                f"{query} p99 {percentile(result['samples'][phase][query], 0.99):.1f} ms"
                for query in QUERIES) for phase in PHASES)
            + f"; bursts saved in {', '.join(f'{s:.1f}' for s in result['bursts_s'])} s")
        return result

    try:
        results = run.in_turn(measured, rounds, measure, "reads")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    pooled = {name: {phase: {query: summary([ms for r in rounds_ for ms in r["samples"][phase][query]])
                             for query in QUERIES} for phase in PHASES}
              for name, rounds_ in results.items()}
    report["reads"] = {
        "settings": settings, "pooled": pooled,
        "rounds": {name: [{key: value for key, value in r.items() if key != "samples"} |
                          {"p99_ms": {phase: {query: percentile(r["samples"][phase][query], 0.99) for query in QUERIES}
                                      for phase in PHASES}} for r in rounds_]
                   for name, rounds_ in results.items()}}
    return reads_markdown(results, pooled, settings, rounds, run, measured)


def reads_markdown(results, pooled, settings, rounds, run, measured) -> str:
    several = len(results) > 1
    lines = [
        f"{PANELS:,} file panels on one file, history on (`.statedeck/` beside the deck, as `make run`); one "
        "client on one keep-alive connection asking for the uptime (24 h in 90 slots, the card's timeline) and "
        "the history (100 newest) of random panels in turn. Per round a fresh server: "
        f"{settings['quiet_seconds']:.0f} s with no change (the control), then {settings['flips']} times the file "
        f"replaced by the other content, each a burst of {PANELS:,} changes from the change until all of them are "
        f"saved, {settings['gap_seconds']:.0f} s apart. With no change the writer still saves once a second "
        f"(each minute's end: every panel's minute, hour and day). {rounds} round(s); samples pooled over the rounds."
        + run.builds_text(measured), "",
        ("| binary " if several else "") + "| phase | query | requests | p50 (ms) | p99 (ms) | slowest (ms) "
        "| p99 of each round (ms) |",
        ("| --- " if several else "") + "| --- | --- | ---: | ---: | ---: | ---: | --- |"]
    for name, rounds_ in results.items():
        for phase, label in PHASES.items():
            for query in QUERIES:
                row = pooled[name][phase][query]
                each = ", ".join(f"{percentile(r['samples'][phase][query], 0.99):.1f}" for r in rounds_)
                lines.append((f"| {name} " if several else "") + f"| {label} | `{query}` | {row['requests']:,} | "
                             f"{row['p50_ms']:.1f} | {row['p99_ms']:.1f} | {row['max_ms']:.1f} | {each} |")
    lines.append("")
    for name, rounds_ in results.items():
        bursts = [s for r in rounds_ for s in r["bursts_s"]]
        failed = {phase: sum(r["failed"][phase] for r in rounds_) for phase in PHASES}
        writer = {phase: median([r["writer_cpu_percent"][phase] for r in rounds_]) for phase in PHASES}
        burst_p99 = pooled[name]["burst"]["uptime"]["p99_ms"]
        lines.append(
            (f"- {name}: " if several else "- ")
            + f"timeline (`uptime`) p99 while {PANELS:,} changes are saved: {burst_p99:.1f} ms against "
            f"{pooled[name]['quiet']['uptime']['p99_ms']:.1f} ms with no change "
            f"(target: under {TARGET_P99_MS} ms: {'met' if burst_p99 < TARGET_P99_MS else 'not met'}). "
            f"A burst, from the file's change to its last change saved: median {median(bursts):.2f} s "
            f"({min(bursts):.2f} to {max(bursts):.2f}). The history's writer thread: "
            f"{writer['burst']:.0f} % of a core during the bursts, {writer['quiet']:.0f} % with no change. "
            f"Failed or non-200 answers: {failed['burst']} in bursts, {failed['quiet']} without.")
    if several:
        first, second = list(results)[:2]

        def ratios(phase):
            return ", ".join(f"`{query}` " + run.ratio_text(pooled[first][phase][query]["p99_ms"],
                                                            pooled[second][phase][query]["p99_ms"])
                             for query in QUERIES)

        lines.append(f"- {first} ÷ {second}, p99 while the changes are saved: {ratios('burst')}; "
                     f"with no change: {ratios('quiet')}.")
    return "\n".join(lines)
