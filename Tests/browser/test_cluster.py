"""Several processes sharing one deck through a real PostgreSQL of the test's own: the leader dies
mid-burst, pages reconnect elsewhere, and every page ends where every other does."""
from __future__ import annotations

import json
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import REPO, Server, write_deck

TEMPORARY_POSTGRES = REPO / "scripts" / "temporary-postgres"


@pytest.fixture
def store(tmp_path: Path):
    """The URL of a PostgreSQL of the test's own, stopped after it."""
    folder = tmp_path / "postgres"
    url = subprocess.run([str(TEMPORARY_POSTGRES), "start", str(folder)], check=True, capture_output=True,
                         text=True).stdout.strip()
    yield url
    subprocess.run([str(TEMPORARY_POSTGRES), "stop", str(folder)], check=False)


class Page:
    """What a browser's EventSource does with /events: it keeps the last event id, and when its
    stream ends it reconnects (here: to the next server that answers) with Last-Event-ID. Every
    event with an id is recorded, in order."""

    def __init__(self, servers: list[Server], first: int):
        self.servers = servers
        self.index = first
        self.events: list[tuple[int, str, str]] = []
        self.last_id: str | None = None
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stopped.is_set():
            server = self.servers[self.index % len(self.servers)]
            headers = {"Last-Event-ID": self.last_id} if self.last_id else {}
            try:
                with urllib.request.urlopen(urllib.request.Request(server.url + "/events", headers=headers),
                                            timeout=5) as stream:
                    self.read(stream)
            except OSError:
                pass
            self.index += 1
            time.sleep(0.1)

    def read(self, stream) -> None:
        name, event_id, data = "message", None, []
        for raw in stream:
            if self.stopped.is_set():
                return
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("id: "):
                event_id = line[4:]
            elif line.startswith("data: "):
                data.append(line[6:])
            elif line == "":
                if event_id is not None:
                    self.events.append((int(event_id), name, "\n".join(data)))
                    self.last_id = event_id
                name, event_id, data = "message", None, []

    def stop(self) -> None:
        self.stopped.set()


def leader(servers: list[Server]) -> Server | None:
    """The server whose log says it leads now."""
    for server in servers:
        said = [line for line in server.log_lines if "leading the cluster" in line or "no longer leading" in line]
        if server.proc and server.proc.poll() is None and said and "no longer" not in said[-1]:
            return server
    return None


def wait_for(condition, timeout: float, message: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(message)


def summaries(page: Page) -> dict[str, str]:
    """Each panel's summary as the page's events last said it (snapshots and patches alike)."""
    shown: dict[str, str] = {}
    for _, name, data in page.events:
        document = json.loads(data)
        panels = document["panels"] if name == "snapshot" else [document] if name == "panel" else []
        for panel in panels:
            info = panel.get("latestValidInfo")
            if info:
                shown[panel["id"]] = info["summary"]
    return shown


def test_kill_9_of_the_leader_mid_burst_leaves_every_page_with_every_event_once_and_the_same_state(store, tmp_path):
    deck = write_deck(tmp_path / "deck", slow_seconds=0.1)
    servers = [Server(["--config", str(deck), "--store", store, "--debug"], f"cluster-{n}").start() for n in range(3)]
    try:
        first = wait_for(lambda: leader(servers), 10, "no server leads")
        pages = [Page(servers, n) for n in range(6)]
        wait_for(lambda: all(p.events for p in pages), 10, "a page got no snapshot")
        survivors = [s for s in servers if s is not first]

        def burst(count: int, offset: int) -> None:
            for n in range(count):
                target = survivors[n % len(survivors)] if first.proc.poll() is not None else servers[n % 3]
                status, _ = target.request("POST", f"/api/debug/panels/{['alpha', 'beta'][n % 2]}/state",
                                           {"state": "loaded", "info": {"summary": f"change {offset + n}"}})
                assert status in (200, 503), status

        burst(60, 0)
        first.kill()
        burst(60, 60)
        new_leader = wait_for(lambda: leader(survivors), 10, "no server took over")
        for panel in ("alpha", "beta"):
            new_leader.force(panel, {"state": "loaded", "info": {"summary": f"final {panel}"}})
        final = survivors[0].state()
        wait_for(lambda: all(p.last_id and int(p.last_id) >= final["lastEventId"] for p in pages), 15,
                 "a page never caught up")
        for page in pages:
            page.stop()
        for page in pages:
            ids = [event_id for event_id, _, _ in page.events]
            assert ids == sorted(set(ids)), "no event twice, none out of order"
            assert all(b == a + 1 for a, b in zip(ids, ids[1:])), "no event missing"
            assert summaries(page)["alpha"] == "final alpha" and summaries(page)["beta"] == "final beta"
        assert survivors[0].state()["panels"] == survivors[1].state()["panels"]
    finally:
        for server in servers:
            server.stop()
