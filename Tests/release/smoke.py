#!/usr/bin/env python3
"""The release binary (the one `make run` builds, with its flags) checks a deck of every kind of
source, keeps its history, and stops at SIGTERM.

A debug build cannot stand in for it: the optimizer changes code paths, and a release-only crash
once stopped every deck at its first load while every debug test passed.

    Tests/release/smoke.py .build/release/statedeck

Standard library only; every process it starts is stopped. Exits 0 when every check holds, 1 with
what failed otherwise.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

# The browser tests' wait_for, standard library only like this file.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "browser"))
from polling import wait_for  # noqa: E402

HTTP_PANELS = 200
START_LINE = re.compile(r"StateDeck serving on http://127\.0\.0\.1:(\d+)/")


class Health(BaseHTTPRequestHandler):
    """Answers every GET with a small JSON body and counts the requests per path."""
    hits: dict[str, int] = {}
    lock = threading.Lock()

    def do_GET(self):
        with Health.lock:
            Health.hits[self.path] = Health.hits.get(self.path, 0) + 1
        body = b'{"status":"ok"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Source(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client gone mid-answer: statedeck stopping


def write_deck(folder: Path, port: int) -> Path:
    (folder / "status.json").write_text('{"summary": "built"}')
    panels = [{"id": f"h{i}", "title": f"Service {i}", "group": "http",
               "http": {"url": f"http://127.0.0.1:{port}/p/{i}"}} for i in range(HTTP_PANELS)]
    panels += [
        {"id": "tcp", "title": "Port", "tcp": {"host": "127.0.0.1", "port": port}},
        {"id": "cmd", "title": "Command", "command": {"run": ["echo", "fine"]}},
        {"id": "file", "title": "File", "file": {"path": str(folder / "status.json")}},
    ]
    deck = {"title": "Release smoke", "defaults": {"refresh": "1s", "minimumLoading": "0s"},
            "groups": [{"id": "http", "title": "HTTP"}], "panels": panels}
    path = folder / "deck.json"
    path.write_text(json.dumps(deck))
    return path


def get_state(base: str) -> dict:
    with urllib.request.urlopen(f"{base}/api/state", timeout=5) as answer:
        return json.load(answer)


def phases(state: dict) -> dict[str, str]:
    return {panel["id"]: panel.get("phase", "initial") for panel in state["panels"]}


def holds(failures: list[str], condition, seconds: float, message) -> None:
    """Waits for `condition`; when it never holds, what failed is noted and the checks go on."""
    try:
        wait_for(condition, seconds, message)
    except AssertionError as error:
        failures.append(str(error))


def start(command: list[str], environment: dict | None = None,
          cwd: Path | None = None) -> tuple[subprocess.Popen, str | None, str]:
    """Starts statedeck (in `cwd`, when given): the process, its base URL once it printed its
    start-up line (None when 20 lines passed without one) and what it printed until then. The rest
    of its output is read on a thread, so that a full pipe never blocks its logging."""
    server = subprocess.Popen(command, env=environment, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    printed = []
    match = None
    while not match and len(printed) < 20:
        printed.append(server.stdout.readline())
        match = START_LINE.search(printed[-1])
    if not match:
        return server, None, "".join(printed)
    threading.Thread(target=server.stdout.read, daemon=True).start()
    return server, f"http://127.0.0.1:{match.group(1)}", "".join(printed)


def kill(server: subprocess.Popen | None) -> None:
    """Kills `server` unless it stopped, and waits for it."""
    if server and server.poll() is None:
        server.kill()
        server.wait()


def main(binary: str) -> int:
    failures: list[str] = []
    source = Source(("127.0.0.1", 0), Health)
    threading.Thread(target=source.serve_forever, daemon=True).start()
    server = None
    with tempfile.TemporaryDirectory(prefix="statedeck-release-") as folder:
        try:
            deck = write_deck(Path(folder), source.server_address[1])
            server, base, printed = start(
                [binary, "--host", "127.0.0.1", "--port", "0", "--config", str(deck), "--data", f"{folder}/data"])
            if not base:
                return report([f"no start-up line; it printed: {printed!r}"])

            def stuck() -> str:
                waiting = {k: v for k, v in phases(get_state(base)).items() if v != "loaded"}
                return f"panels not loaded after 20 s: {dict(list(waiting.items())[:10])}"

            holds(failures, lambda: all(p == "loaded" for p in phases(get_state(base)).values()), 20, stuck)

            # Every http panel checks again on its schedule.
            with Health.lock:
                before = dict(Health.hits)
            holds(failures, lambda: all(Health.hits.get(f"/p/{i}", 0) > before.get(f"/p/{i}", 0) for i in range(HTTP_PANELS)),
                  6, "not every http panel checked again within 6 s of a 1 s refresh")

            # The answer is a page, {"entries": [...], "next": ...}: never empty itself, so its
            # entries are what tell. The store writes in batches, so the first may still be on its way.
            def history_entries() -> list:
                with urllib.request.urlopen(f"{base}/api/panels/h0/history", timeout=5) as answer:
                    return json.load(answer)["entries"]

            holds(failures, history_entries, 5, "the history of h0 is empty 5 s after every panel loaded")

            stops(server, within=2.0, when="", failures=failures)
            stops_at_once_during_a_long_start(binary, Path(folder), failures)
        except Exception as error:  # what went wrong is the finding
            failures.append(f"{type(error).__name__}: {error}")
        finally:
            kill(server)
            source.shutdown()
    return report(failures)


def stops_at_once_during_a_long_start(binary: str, folder: Path, failures: list[str]) -> None:
    """SIGTERM while a deck of 100,000 panels is still being read ends the process at once, with
    status 0: well before the 1.8 s bound that ends a stop that hangs."""
    (folder / "status.json").write_text('{"ok": true}\n')
    deck = folder / "large.json"
    deck.write_text(json.dumps({"panels": [{"id": f"p{i}", "file": {"path": "./status.json"}, "refresh": "manual"}
                                           for i in range(100_000)]}))
    server = subprocess.Popen([binary, "--host", "127.0.0.1", "--port", "0", "--config", str(deck),
                               "--data", str(folder / "large-data")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.3)
        stops(server, within=0.5, when=" during the start of 100,000 panels", failures=failures)
    finally:
        kill(server)


def stops(server: subprocess.Popen, within: float, when: str, failures: list[str]) -> None:
    """Sends SIGTERM to `server`; a failure unless it exits 0 within `within` seconds."""
    started = time.monotonic()
    server.send_signal(signal.SIGTERM)
    try:
        code = server.wait(timeout=5)
        took = time.monotonic() - started
        if code != 0:
            failures.append(f"SIGTERM{when}: exit status {code}, not 0")
        if took > within:
            failures.append(f"SIGTERM{when}: stopping took {took:.2f} s, more than {within:g} s")
    except subprocess.TimeoutExpired:
        failures.append(f"SIGTERM{when}: still running after 5 s")


def report(failures: list[str], test: str = "release smoke test",
           passed: str = f"{HTTP_PANELS} http panels, tcp, command and file loaded and refreshed; "
                         "history kept; SIGTERM exits 0 within 2 s, and at once during a start") -> int:
    """Prints what failed, or that `test` passed with what `passed` says; the exit status."""
    if failures:
        print(f"{test} FAILED:\n  " + "\n  ".join(failures), file=sys.stderr)
        return 1
    print(f"{test} passed: {passed}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2 or not os.access(sys.argv[1], os.X_OK):
        sys.exit("usage: smoke.py STATEDECK_BINARY")
    sys.exit(main(sys.argv[1]))
