#!/usr/bin/env python3
"""The release binary keeps its history across jumps of the wall clock, under Debian's libfaketime.

The monotonic clock stays real (DONT_FAKE_MONOTONIC=1) while the wall clock is moved as the process
runs (FAKETIME_TIMESTAMP_FILE, read at every call with FAKETIME_NO_CACHE=1):

- set ten days forward for 5 s and back, it deletes nothing: every change recorded before the jump
  is still listed (and the one made meanwhile, stamped ten days ahead), and the state document at
  an instant before the jump is still rebuilt;
- set a minute back once the server has watched a whole minute, no slot of the uptime timeline
  holds more time than it spans (the minutes it passes again are not counted twice).

    Tests/release/clock_jump.py .build/release/statedeck

Standard library only; every process it starts is stopped. Exits 0 when every check holds, 1 with
what failed otherwise. Takes about two minutes: a whole minute must be watched before it is
passed again.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
import urllib.error
from datetime import datetime, timedelta
import urllib.parse
import urllib.request
from pathlib import Path

from smoke import holds, kill, report, start

# Debian's faketime package (make test-deps installs it).
LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
PANEL = "clock"
TEST = "clock jump test"


def get(base: str, path: str) -> tuple[int, dict]:
    """The status and JSON body of a GET, error answers included."""
    try:
        with urllib.request.urlopen(f"{base}{path}", timeout=5) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def recorded(base: str) -> list[str]:
    """The instants of the panel's recorded changes, newest first."""
    status, page = get(base, f"/api/panels/{PANEL}/history?limit=500")
    if status != 200:
        raise AssertionError(f"history answered {status}: {page}")
    return [entry["at"] for entry in page["entries"]]


def instant(iso: str) -> datetime:
    """A time the API wrote (ISO 8601, UTC)."""
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def overfull_slots(base: str) -> list[str]:
    """The slots of the last ten minutes' timeline that hold more time than they span."""
    status, uptime = get(base, f"/api/panels/{PANEL}/uptime?span=10m&slots=10")
    if status != 200:
        raise AssertionError(f"uptime answered {status}: {uptime}")
    overfull = []
    for slot in uptime["slots"]:
        held = slot["upMs"] + slot["downMs"] + slot["loadingMs"] + slot["maintenanceMs"]
        spans = (instant(slot["to"]) - instant(slot["from"])) // timedelta(milliseconds=1)
        if held > spans:
            overfull.append(f"{slot['from']}: {held} ms counted in {spans} ms")
    return overfull


def main(binary: str) -> int:
    if not Path(LIBFAKETIME).exists():
        return report([f"{LIBFAKETIME} is missing: make test-deps installs faketime"], TEST)
    failures: list[str] = []
    server = None
    with tempfile.TemporaryDirectory(prefix="statedeck-clock-") as name:
        folder = Path(name)
        status_file = folder / "status.json"
        offset = folder / "faketime"
        offset.write_text("+0\n")
        status_file.write_text('{"summary": "change 0"}')
        deck = folder / "deck.json"
        deck.write_text(json.dumps({"title": "Clock jumps", "defaults": {"refresh": "1s", "minimumLoading": "0s"},
                                    "panels": [{"id": PANEL, "title": "Clock", "file": {"path": str(status_file)}}]}))
        environment = {**os.environ, "LD_PRELOAD": LIBFAKETIME, "DONT_FAKE_MONOTONIC": "1",
                       "FAKETIME_TIMESTAMP_FILE": str(offset), "FAKETIME_NO_CACHE": "1"}
        try:
            server, base, printed = start(
                [binary, "--host", "127.0.0.1", "--port", "0", "--config", str(deck), "--data", str(folder / "data")],
                environment)
            if not base:
                return report([f"no start-up line; it printed: {printed!r}"], TEST)
            watched_since = time.monotonic()

            # History accumulates: a change each second and a half, each saved within a second.
            for index in range(1, 5):
                time.sleep(1.5)
                status_file.write_text(json.dumps({"summary": f"change {index}"}))
            holds(failures, lambda: len(recorded(base)) >= 5, 5, "fewer than 5 changes recorded 5 s after the last")
            before_jump = recorded(base)
            before = before_jump[-2]

            offset.write_text("+10d\n")
            time.sleep(2)
            status_file.write_text('{"summary": "ten days ahead"}')
            time.sleep(3)
            offset.write_text("+0\n")
            time.sleep(3)
            after_jump = recorded(base)
            lost = [at for at in before_jump if at not in after_jump]
            if lost:
                failures.append(f"ten days forward for 5 s and back deleted {len(lost)} of {len(before_jump)} changes: {lost}")
            # The change made meanwhile proves the wall clock the server read was moved.
            ahead = [at for at in after_jump if instant(at) - instant(before_jump[0]) > timedelta(days=9)]
            if not ahead:
                failures.append(f"no change stamped ten days ahead: the faked clock did not move? {after_jump}")
            status, answer = get(base, "/api/state?at=" + urllib.parse.quote(before))
            if status != 200:
                failures.append(f"GET /api/state?at={before} (before the jump) answered {status}: {answer}")

            # A whole minute watched since the return, then passed again.
            time.sleep(max(0.0, 75 - (time.monotonic() - watched_since)))
            offset.write_text("-60\n")
            time.sleep(20)
            overfull = overfull_slots(base)
            if overfull:
                failures.append("a minute back, slots hold more time than they span: " + "; ".join(overfull))
            if len(recorded(base)) < len(before_jump):
                failures.append("a minute back deleted changes")
        except Exception as error:  # what went wrong is the finding
            failures.append(f"{type(error).__name__}: {error}")
        finally:
            kill(server)
    return report(failures, TEST, "ten days forward for 5 s and back deleted no change and kept the moment before "
                                  "it; a minute back counted no slot over its span")


if __name__ == "__main__":
    if len(sys.argv) != 2 or not os.access(sys.argv[1], os.X_OK):
        sys.exit("usage: clock_jump.py STATEDECK_BINARY")
    sys.exit(main(sys.argv[1]))
