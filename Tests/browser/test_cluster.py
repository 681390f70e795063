"""Several processes sharing one deck through a real PostgreSQL of the test's own: the leader dies
mid-burst, pages reconnect elsewhere, and every page ends where every other does; and the moment a
survivor shows before it takes over is recorded (moments.py)."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from datetime import datetime
from pathlib import Path

import pytest

from playwright.sync_api import expect
from prometheus_client.parser import text_string_to_metric_families

from conftest import BIN, REPO, Server, write_deck
from helpers import panel, sse_events, wait_live
from maintenance import REASON, Window, active
from moments import download, keep_or_compare, recorded
from polling import wait_for

TEMPORARY_POSTGRES = REPO / "scripts" / "temporary-postgres"


@pytest.fixture
def store():
    """The URL of a PostgreSQL of the test's own, stopped after it. Its folder is directly in the
    temporary directory: under root the server runs as nobody, who cannot enter pytest's folders."""
    folder = Path(tempfile.mkdtemp(prefix="statedeck-pg-"))
    started = subprocess.run([str(TEMPORARY_POSTGRES), "start", str(folder)], capture_output=True, text=True)
    assert started.returncode == 0, started.stderr
    yield started.stdout.strip()
    subprocess.run([str(TEMPORARY_POSTGRES), "stop", str(folder)], check=False)
    shutil.rmtree(folder, ignore_errors=True)


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
        for event in sse_events(stream):
            if self.stopped.is_set():
                return
            self.events.append(event)
            self.last_id = str(event[0])

    def stop(self) -> None:
        self.stopped.set()


def leader(servers: list[Server]) -> Server | None:
    """The server whose log says it leads now."""
    for server in servers:
        said = [line for line in server.log_lines if "leading the cluster" in line or "no longer leading" in line]
        if server.proc and server.proc.poll() is None and said and "no longer" not in said[-1]:
            return server
    return None


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
    servers = [Server(["--config", str(deck), "--cluster", store, "--debug"], f"cluster-{n}").start() for n in range(3)]
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
        def final_state():
            state = survivors[0].state()
            shown = {p["id"]: (p["latestValidInfo"] or {}).get("summary") for p in state["panels"]}
            return state if shown["alpha"] == "final alpha" and shown["beta"] == "final beta" else None

        final = wait_for(final_state, 10, "the final changes never reached a survivor")
        wait_for(lambda: all(p.last_id and int(p.last_id) >= final["lastEventId"] for p in pages), 15,
                 "a page never caught up")
        for page in pages:
            page.stop()
        for page in pages:
            ids = [event_id for event_id, _, _ in page.events]
            assert sum(1 for _, name, _ in page.events if name == "panel") >= 100, "the burst's changes reached it"
            assert ids == sorted(set(ids)), "no event twice, none out of order"
            # The new leader numbers from the time: ids jump there, to its snapshot, and nowhere else.
            assert all(b[0] == a[0] + 1 or b[1] == "snapshot" for a, b in zip(page.events, page.events[1:])), \
                "no event missing"
            assert summaries(page)["alpha"] == "final alpha" and summaries(page)["beta"] == "final beta"
        assert survivors[0].state()["panels"] == survivors[1].state()["panels"]
    finally:
        for server in servers:
            server.stop()


def free_ports(count: int) -> int:
    """The first of `count` consecutive free loopback ports."""
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            first = probe.getsockname()[1]
        if first + count > 65_535:
            continue
        try:
            holders = []
            for port in range(first, first + count):
                holder = socket.socket()
                holders.append(holder)
                holder.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue
        finally:
            for holder in holders:
                holder.close()


def listener_pid(port: int) -> int:
    """The process listening on `port`."""
    listing = subprocess.run(["ss", "-Hltnp", f"sport = :{port}"], capture_output=True, text=True).stdout
    return int(re.search(r"pid=(\d+)", listing).group(1))


def switchable_deck(folder: Path, receiver, gather: str = "off", extra: str = "") -> tuple[Path, Path]:
    """A deck of one command panel, "payments", checked every second, failing while the file
    `down` exists; each outage is told to `receiver` after two failed loads, gathered for
    `gather` (off: at once); `extra` is more of the file's top level. Returns the deck file and
    the `down` file."""
    folder.mkdir(parents=True, exist_ok=True)
    down = folder / "down"
    deck = folder / "deck.yaml"
    deck.write_text(
        "title: Failover\n"
        f"{extra}"
        "defaults: { refresh: 1s, retry: none, minimumLoading: 0ms }\n"
        "panels:\n"
        "  - id: payments\n"
        f'    command: {{ run: ["sh", "-c", "test ! -f {down}"] }}\n'
        f'    notify: [{{ webhook: {{ url: "http://127.0.0.1:{receiver.port}/hook" }}, after: {{ failures: 2 }}, gather: {gather} }}]\n')
    return deck, down


def told(receiver) -> list[str]:
    return [body["json"]["event"] for body in receiver.bodies]


def counted(server: Server, sample: str, **labels: str) -> float:
    """The sum of `server`'s /metrics samples named `sample` with these labels: what this process
    counted since it started."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as answer:
        families = text_string_to_metric_families(answer.read().decode())
        return sum(s.value for family in families for s in family.samples
                   if s.name == sample and all(s.labels.get(k) == v for k, v in labels.items()))


def loads(server: Server) -> float:
    """The loads `server` ran while it led, failed ones included."""
    return counted(server, "statedeck_load_duration_seconds_count")


def delivered(server: Server) -> float:
    """The notifications `server` delivered: each counted once its delivery is recorded in the store."""
    return counted(server, "statedeck_notifications_total", result="sent")


def recovery_told_once(receiver, leading: Server, down: Path, failure: dict) -> None:
    """Ends the outage whose `failure` was told: its recovery is told, once, and nothing more."""
    down.unlink()
    recovery = receiver.wait(2)[1]["json"]
    assert recovery["event"] == "recovery" and recovery["downSince"] == failure["downSince"], recovery
    # Two good loads after the one that told the recovery: anything told again would be by then.
    recovered_at = loads(leading)
    wait_for(lambda: loads(leading) >= recovered_at + 2, 15, "the leader stopped loading")
    assert told(receiver) == ["failure", "recovery"]


def test_a_failover_mid_outage_tells_it_once_and_its_recovery_once(store, receiver, tmp_path):
    deck, down = switchable_deck(tmp_path / "deck", receiver)
    # Both start before the outage: what the second read of the ledger then is empty.
    servers = [Server(["--config", str(deck), "--cluster", store], f"failover-{n}").start() for n in range(2)]
    try:
        first = wait_for(lambda: leader(servers), 10, "no server leads")
        second = next(server for server in servers if server is not first)
        down.touch()
        failure = receiver.wait(1)[0]["json"]
        wait_for(lambda: delivered(first) == 1, 10, "the failure's delivery was never recorded")
        first.kill()
        wait_for(lambda: leader([second]), 10, "no server took over")
        # Its own failed loads: two would make an outage, a third comes after anything they told.
        wait_for(lambda: loads(second) >= 3, 15, "the new leader never loaded three times")
        assert told(receiver) == ["failure"], "the outage was told already"
        recovery_told_once(receiver, second, down, failure)
    finally:
        for server in servers:
            server.stop()


def test_a_test_sent_to_a_process_that_does_not_lead_is_sent_once_by_the_leader(store, receiver, tmp_path):
    deck, _ = switchable_deck(tmp_path / "deck", receiver)
    servers = [Server(["--config", str(deck), "--cluster", store], f"notify-test-{n}").start() for n in range(2)]
    try:
        running = wait_for(lambda: leader(servers), 10, "no server leads")
        other = next(server for server in servers if server is not running)
        for server in servers:
            assert server.state()["settings"]["notifyTargets"] == [{"name": "webhook 127.0.0.1"}]
        status, answer = other.request("POST", "/api/notify/test", {"target": "webhook 127.0.0.1"})
        assert status == 200, answer
        [result] = answer["results"]
        assert result["outcome"] == "sent" and result["error"] is None, result
        assert [body["json"]["event"] for body in receiver.wait(1)] == ["test"]
        status, _ = running.request("POST", "/api/notify/test", {"target": "webhook 127.0.0.1"})
        assert status == 200 and told(receiver) == ["test", "test"], "one send per test, wherever it is asked"
    finally:
        for server in servers:
            server.stop()


def test_a_failover_after_an_outage_ended_tells_nothing_more(store, receiver, tmp_path):
    deck, down = switchable_deck(tmp_path / "deck", receiver)
    down.touch()
    first = Server(["--config", str(deck), "--cluster", store], "ended-first").start()
    second = None
    try:
        wait_for(lambda: leader([first]), 10, "the first server does not lead")
        receiver.wait(1)
        # The second reads the ledger while the outage is told and not over.
        second = Server(["--config", str(deck), "--cluster", store], "ended-second").start()
        down.unlink()
        receiver.wait(2)
        wait_for(lambda: delivered(first) == 2, 10, "the recovery's delivery was never recorded")
        first.kill()
        wait_for(lambda: leader([second]), 10, "no server took over")
        # Its own good loads: a recovery told again would come with the first.
        wait_for(lambda: loads(second) >= 3, 15, "the new leader never loaded three times")
        assert told(receiver) == ["failure", "recovery"], "no second recovery, no reminder"
    finally:
        for server in (first, second):
            if server:
                server.stop()


def test_a_failover_while_a_window_is_open_tells_its_notification_once(store, receiver, tmp_path):
    deck, down = switchable_deck(tmp_path / "deck", receiver, gather="6s")
    servers = [Server(["--config", str(deck), "--cluster", store], f"window-{n}").start() for n in range(2)]
    try:
        first = wait_for(lambda: leader(servers), 10, "no server leads")
        second = next(server for server in servers if server is not first)
        down.touch()

        def waiting() -> bool:
            with urllib.request.urlopen(first.url + "/api/notify/log", timeout=10) as answer:
                return [e["outcome"] for e in json.loads(answer.read())["entries"]] == ["waiting"]

        wait_for(waiting, 10, "the failure was never decided")
        first.kill()
        assert receiver.bodies == [], "killed with the window open"
        wait_for(lambda: leader([second]), 10, "no server took over")
        failure = receiver.wait(1)[0]["json"]
        assert failure["event"] == "failure" and failure["panel"] == "payments", "alone, as it was decided"
        wait_for(lambda: delivered(second) == 1, 10, "the failure's delivery was never recorded")
        # Past another window of its own failed loads: the failure is not told again.
        now = loads(second)
        wait_for(lambda: loads(second) >= now + 8, 20, "the new leader stopped loading")
        assert told(receiver) == ["failure"]
    finally:
        for server in servers:
            server.stop()



def two_servers(deck: Path, store: str, name: str) -> tuple[Server, Server]:
    """Two servers of `deck` sharing `store`, started: the one that leads first. Both are stopped
    when none leads."""
    servers = [Server(["--config", str(deck), "--cluster", store], f"{name}-{n}").start() for n in range(2)]
    try:
        first = wait_for(lambda: leader(servers), 10, "no server leads")
    except AssertionError:
        for server in servers:
            server.stop()
        raise
    return first, next(server for server in servers if server is not first)


def notify_log(server: Server) -> list[dict]:
    """What `server` decided for notify: targets and what became of it, newest first."""
    status, document = server.request("GET", "/api/notify/log")
    assert status == 200, document
    return document["entries"]


def stored_outage(store: str, panel: str) -> dict | None:
    """The outage the store keeps for `panel`'s one notify entry (its key is the panel's id, "#" and
    the entry's digest): what a next leader takes up."""
    found = subprocess.run(["psql", store, "-Atc", "SELECT watch FROM statedeck.notify_outages "
                            f"WHERE key LIKE '{panel}#%' AND key <> '{panel}#page'"],
                           capture_output=True, text=True, check=True).stdout.strip()
    return json.loads(found) if found else None


def watched_to(store: str) -> dict[str, int]:
    """How far each watch the store keeps was watched: a process writing the history moves its own on."""
    rows = subprocess.run(["psql", store, "-Atc", "SELECT id, watched_to FROM statedeck.watches"],
                          capture_output=True, text=True, check=True).stdout.split()
    return dict(row.split("|") for row in rows)


def test_a_leader_frozen_past_the_locks_timeout_then_resumed_sends_nothing_writes_nothing_and_says_so(
        store, receiver, tmp_path):
    deck, down = switchable_deck(tmp_path / "deck", receiver)
    first, second = two_servers(deck, store, "frozen")
    try:
        first.proc.send_signal(signal.SIGSTOP)
        # The store ends the frozen leader's session after 6 s of silence, and the lock with it.
        wait_for(lambda: leader([second]), 20, "no server took over from the frozen leader")
        down.touch()
        failure = receiver.wait(1)[0]["json"]
        before = watched_to(store)
        first.proc.send_signal(signal.SIGCONT)
        # Resumed, it runs its deck until it finds it lost the lead: its loads fail too, and decide
        # the failure again, which its history (taken over) and its ledger refuse to keep.
        wait_for(lambda: leader([first, second]) is second and "no longer leading" in "".join(first.log_lines), 15,
                 "the resumed leader never said it lost the lead")
        settled_at = loads(second)
        wait_for(lambda: loads(second) >= settled_at + 3, 15, "the new leader stopped loading")
        assert told(receiver) == ["failure"], "told once, by the new leader alone"
        moved = [watch for watch, to in watched_to(store).items() if before.get(watch) != to]
        assert len(moved) == 1, f"only the new leader's watch moves on: {moved}"
        recovery_told_once(receiver, second, down, failure)
    finally:
        first.proc.send_signal(signal.SIGCONT)
        for server in (first, second):
            server.stop()


@pytest.mark.parametrize("kind", ["file", "api"])
def test_a_failover_under_maintenance_tells_the_outage_once_at_the_windows_end_and_its_recovery_once(
        kind, store, receiver, tmp_path):
    # Long enough for two servers to start, the outage to begin and a takeover, on a busy machine.
    window = Window(kind, "payments", seconds=20)
    deck, down = switchable_deck(tmp_path / "deck", receiver, extra=window.declared())
    first, second = two_servers(deck, store, f"maintenance-{kind}")
    try:
        window.start(first)
        down.touch()
        silent = wait_for(lambda: [e for e in notify_log(first) if e["outcome"] != "sent"], 10,
                          "the failure was never decided")
        assert [(e["event"], e["outcome"], e["why"]) for e in silent] == [("failure", "silent", f"maintenance '{REASON}'")]
        wait_for(lambda: (stored_outage(store, "payments") or {}).get("silenced"), 10,
                 "the failure kept quiet was never stored")
        assert receiver.bodies == [], "nothing is told under the window"
        first.kill()
        wait_for(lambda: leader([second]), 10, "no server took over")
        # Its own failed loads under the window: a failure told now would come with the first.
        wait_for(lambda: loads(second) >= 2, 15, "the new leader never loaded twice")
        assert (second.panel("payments")["maintenance"] or {}).get("id") == window.id, \
            f"the new leader's deck holds the window ({window.seconds_left():.1f} s were left)"
        assert receiver.bodies == []
        failure = window.end_telling_the_failure(second, receiver)
        recovery_told_once(receiver, second, down, failure)
    finally:
        for server in (first, second):
            server.stop()



def test_a_window_ending_between_two_leaders_is_listed_no_more_and_the_failure_it_kept_quiet_is_told_once(
        store, receiver, tmp_path):
    window = Window("file", "payments", seconds=12)
    deck, down = switchable_deck(tmp_path / "deck", receiver, extra=window.declared())
    first, second = two_servers(deck, store, "window-between")
    try:
        window.start(first)
        down.touch()
        wait_for(lambda: (stored_outage(store, "payments") or {}).get("silenced"), 10,
                 "the failure kept quiet was never stored")
        wait_for(lambda: window.id in active(second), 5, "the other server never listed the window")
        # The gap under test: the leader dies just before the window's end, which comes while no
        # process leads (a takeover takes a second or more).
        time.sleep(max(0.0, window.seconds_left() - 0.3))
        first.kill()
        wait_for(lambda: leader([second]), 10, "no server took over")
        failure = receiver.wait(1)[0]["json"]
        assert failure["event"] == "failure" and failure["downSince"] == failure["at"], ("told as new", failure)
        assert datetime.fromisoformat(failure["at"]).timestamp() >= window.until, ("after the window", failure)
        wait_for(lambda: active(second) == [], 5, "the new leader's process still lists the window")
        recovery_told_once(receiver, second, down, failure)
    finally:
        for server in (first, second):
            server.stop()

def test_a_window_answered_just_before_the_leader_is_killed_holds_on_the_next_leader(store, receiver, tmp_path):
    deck, _ = switchable_deck(tmp_path / "deck", receiver)
    first, second = two_servers(deck, store, "answered-window")
    try:
        status, window = first.request("POST", "/api/maintenance", {"panels": ["payments"], "minutes": 5, "reason": REASON})
        assert status == 201, window
        first.kill()   # at once: well within the history's save interval
        wait_for(lambda: leader([second]), 10, "no server took over")
        second.wait_panel("payments", lambda p: (p.get("maintenance") or {}).get("id") == window["id"])
        status, ended = second.request("DELETE", f"/api/maintenance/{window['id']}")
        assert status == 200, ended
    finally:
        for server in (first, second):
            server.stop()

def test_an_incident_answered_just_before_the_leader_is_killed_is_kept_by_the_next_leader(store, receiver, tmp_path):
    deck, _ = switchable_deck(tmp_path / "deck", receiver)
    first, second = two_servers(deck, store, "answered-incident")
    try:
        status, opened = first.request("POST", "/api/incidents",
                                       {"title": "Payments slow", "panels": ["payments"], "message": "Looking"})
        assert status == 201, opened
        first.kill()   # at once: well within the history's save interval
        wait_for(lambda: leader([second]), 10, "no server took over")
        status, kept = second.request("GET", f"/api/incidents/{opened['id']}")
        assert (status, kept) == (200, opened)
        wait_for(lambda: second.state()["incidents"] == [opened], 5, "the new leader's state never showed the incident")
        status, resolved = second.request("POST", f"/api/incidents/{opened['id']}/updates",
                                          {"status": "resolved", "message": "Fixed"})
        assert status == 200, resolved
        assert [u["status"] for u in resolved["updates"]] == ["investigating", "resolved"]
    finally:
        for server in (first, second):
            server.stop()


def test_record_an_incident_open_while_a_panel_is_down_after_the_leader_is_killed(store, tmp_path):
    # Without its flag the flaky command fails on every run: it is the one panel down, for real.
    deck = write_deck(tmp_path / "deck", slow_seconds=0.1, grouped=True)
    first, second = two_servers(deck, store, "mid-failover")
    try:
        second.settle()
        status, opened = first.request("POST", "/api/incidents", {
            "title": "Flaky command failing", "panels": ["flaky"], "status": "investigating",
            "message": "Every run of the flaky command fails; we are looking into it."})
        assert status == 201, opened
        wait_for(lambda: second.state()["incidents"] == [opened], 5, "the other server never showed the incident")
        before, _ = download(second)
        killed_at = time.time_ns() // 1_000
        first.kill()
        fixture, _ = download(second)
        # A new leader numbers its events from the microsecond it takes over: every event the
        # survivor had applied by then is the killed leader's, so the moment is from before the takeover.
        assert second.state()["lastEventId"] < killed_at, "the survivor had taken over before the download"
        wait_for(lambda: second.state()["lastEventId"] > killed_at, 10, "no server took over")
        # Until then the survivor shows what the killed leader last wrote, with no sign of its death.
        assert {**fixture, "at": None} == {**before, "at": None}
        keep_or_compare(recorded(fixture), "incident-mid-failover")
    finally:
        for server in (first, second):
            server.stop()


def events_after(server: Server, last_id: int, count: int, opened=lambda: None) -> list[tuple[int, str]]:
    """The first `count` events `server` sends a page reconnecting with `Last-Event-ID: last_id`,
    or those sent within 5 s. `opened` runs once the server has answered with the stream's head."""
    request = urllib.request.Request(server.url + "/events", headers={"Last-Event-ID": str(last_id)})
    received: list[tuple[int, str]] = []
    try:
        with urllib.request.urlopen(request, timeout=5) as stream:
            opened()
            for event_id, name, _ in sse_events(stream):
                received.append((event_id, name))
                if len(received) == count:
                    break
    except TimeoutError:
        pass
    return received


def test_a_server_that_joins_later_resumes_a_page_from_the_events_it_loaded(store, tmp_path):
    deck = write_deck(tmp_path / "deck", slow_seconds=0.1)
    first = Server(["--config", str(deck), "--cluster", store, "--debug"], "joins-first").start()
    joined = None
    try:
        wait_for(lambda: leader([first]), 10, "the first server does not lead")
        page = Page([first], 0)
        for n in range(10):
            status, _ = first.request("POST", "/api/debug/panels/alpha/state",
                                      {"state": "loaded", "info": {"summary": f"change {n}"}})
            assert status == 200
        wait_for(lambda: [e for e in page.events if e[2].count("change 9")], 10, "the page missed changes")
        # Every panel done with its first load (and its toast): nothing comes after the page's last event.
        first.settle()
        wait_for(lambda: page.last_id == str(first.state()["lastEventId"]), 10, "the page missed events")
        page.stop()
        seen = [event_id for event_id, _, _ in page.events]
        joined = Server(["--config", str(deck), "--cluster", store, "--debug"], "joins-later").start()
        resumed = events_after(joined, seen[-6], 5)
        assert resumed == [(event_id, name) for event_id, name, _ in page.events[-5:]], \
            "the five events after the one the page had, as the page had them, not a snapshot"
        # A page that missed nothing gets the next event, made once its stream is open, and no
        # snapshot before it.
        changed: list[int] = []
        next_events = events_after(joined, seen[-1], 1, opened=lambda: changed.append(first.request(
            "POST", "/api/debug/panels/alpha/state", {"state": "loaded", "info": {"summary": "later"}})[0]))
        assert changed == [200]
        assert [event_id for event_id, _ in next_events] == [seen[-1] + 1], next_events
        assert next_events[0][1] != "snapshot"
    finally:
        for server in (first, joined):
            if server:
                server.stop()


# A TCP relay to PostgreSQL on a port of its own, printed first: stopped with SIGSTOP, it is a
# partition that TCP cannot see, since its kernel still acknowledges what it is sent.
RELAY = """
import socket, sys, threading
listener = socket.create_server(("127.0.0.1", 0))
print(listener.getsockname()[1], flush=True)

def pump(source, sink):
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    for end in (source, sink):
        end.close()

while True:
    client, _ = listener.accept()
    server = socket.create_connection((sys.argv[1], int(sys.argv[2])))
    for pair in ((client, server), (server, client)):
        threading.Thread(target=pump, args=pair, daemon=True).start()
"""


def test_a_leader_cut_off_from_the_store_gives_up_and_another_leads_within_seconds(store, tmp_path):
    host, port = re.search(r"@([^:/]+):(\d+)/", store).groups()
    relay = subprocess.Popen(["python3", "-c", RELAY, host, port], stdout=subprocess.PIPE, text=True)
    behind_relay = store.replace(f":{port}/", f":{relay.stdout.readline().strip()}/")
    deck = write_deck(tmp_path / "deck", slow_seconds=0.1)
    cut_off = Server(["--config", str(deck), "--cluster", behind_relay, "--debug"], "partition-cut-off").start()
    direct = None
    try:
        wait_for(lambda: leader([cut_off]), 10, "the first server does not lead")
        direct = Server(["--config", str(deck), "--cluster", store, "--debug"], "partition-direct").start()
        os.kill(relay.pid, signal.SIGSTOP)
        cut = time.monotonic()
        wait_for(lambda: leader([direct]), 12, "no other server took over")
        took_over = time.monotonic() - cut
        wait_for(lambda: any("no longer leading" in line for line in cut_off.log_lines), 12,
                 "the cut-off leader still runs the deck")
        gave_up = time.monotonic() - cut
        assert took_over < 10 and gave_up < 10, (took_over, gave_up)
        status, _ = direct.request("POST", "/api/debug/panels/alpha/state", {"state": "loaded", "info": {"summary": "after"}})
        assert status == 200
    finally:
        os.kill(relay.pid, signal.SIGCONT)
        relay.kill()
        for server in (cut_off, direct):
            if server:
                server.stop()


def test_the_example_behind_nginx_keeps_its_page_live_when_the_leader_is_killed(page):
    port = free_ports(3)
    url = f"http://127.0.0.1:{port}"
    example = subprocess.Popen(
        [str(REPO / "examples" / "cluster" / "run.sh"), "2", str(port)], start_new_session=True,
        env={**os.environ, "STATEDECK_BIN": str(BIN), "STATEDECK_ARGS": "--debug"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def serving():
            try:
                with urllib.request.urlopen(url + "/api/state", timeout=2) as answer:
                    return answer.status == 200
            except OSError:
                return False

        wait_for(serving, 30, "the example never served through nginx")
        page.goto(url + "/")
        wait_live(page)
        expect(panel(page, "load")).to_be_visible()
        os.kill(listener_pid(port + 1), signal.SIGKILL)   # the first process started: the leader

        def forced():
            request = urllib.request.Request(
                url + "/api/debug/panels/load/state", method="POST", headers={"Content-Type": "application/json"},
                data=json.dumps({"state": "loaded", "info": {"summary": "after the kill"}}).encode())
            try:
                with urllib.request.urlopen(request, timeout=12) as answer:
                    return answer.status == 200
            except OSError:
                return False

        wait_for(forced, 20, "no process took over")
        expect(panel(page, "load")).to_contain_text("after the kill", timeout=10_000)
        wait_live(page)
    finally:
        os.killpg(example.pid, signal.SIGTERM)
        example.wait(15)


def test_a_probe_elsewhere_shows_per_location_and_turns_to_no_data_when_it_goes_silent(store, tmp_path):
    deck = write_deck(tmp_path / "deck", slow_seconds=0.1)
    server = Server(["--config", str(deck), "--cluster", store], "cluster-probed").start()
    probe = subprocess.Popen([str(BIN), "probe", "--cluster", store, "--config", str(deck), "--location", "eu-west"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def summary():
            return server.panel("alpha").get("locationsSummary")

        assert wait_for(lambda: summary() == "Up from all 2 locations", 15, "the probe's results never showed")
        places = {p["name"]: p["health"] for p in server.panel("alpha")["locations"]}
        assert places == {"local": "up", "eu-west": "up"}
        wait_for(lambda: server.panel("flaky").get("locationsSummary") == "Down from all 2 locations", 15,
                 "flaky fails everywhere (its flag file is missing)")
        probe.send_signal(signal.SIGTERM)
        assert probe.wait(3) == 0
        silent = wait_for(lambda: "no data from eu-west" in (summary() or "") and summary(), 30,
                          "a silent probe never turned to no data")
        assert silent == "Up from local; no data from eu-west"
        assert {p["name"]: p["health"] for p in server.panel("alpha")["locations"]}["eu-west"] == "noData"
    finally:
        if probe.poll() is None:
            probe.kill()
        server.stop()


def heartbeat_deck(folder: Path, key: str | None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    deck = folder / "deck.yaml"
    keyed = f", key: {key}" if key else ""
    deck.write_text(f"title: Jobs\npanels:\n  - id: backup\n    heartbeat: {{ period: 1h, grace: 10m{keyed} }}\n")
    return deck


def test_a_ping_sent_to_any_process_reaches_the_one_running_the_deck(store, tmp_path):
    key = "cluster-ping-key-0123456789"
    deck = heartbeat_deck(tmp_path / "deck", key)
    servers = [Server(["--config", str(deck), "--cluster", store], f"pinged-{n}").start() for n in range(2)]
    try:
        running = wait_for(lambda: leader(servers), 10, "no server leads")
        other = next(server for server in servers if server is not running)
        request = urllib.request.Request(f"{other.url}/ping/{key}", data=b"copied 4 GB", method="POST")
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 200
        for server in servers:
            def shown(server=server):
                with urllib.request.urlopen(f"{server.url}/api/panels/backup", timeout=5) as answer:
                    state = json.load(answer)
                return state if state["health"] == "up" else None
            state = wait_for(shown, 10, f"{server.log_path.name} never showed the ping")
            assert state["latestValidInfo"]["summary"] == "copied 4 GB"
            assert state["heartbeat"]["lastRun"] is not None
    finally:
        for server in servers:
            server.stop()


def test_a_cluster_refuses_a_heartbeat_whose_key_it_would_make(store, tmp_path):
    deck = heartbeat_deck(tmp_path / "deck", None)
    done = subprocess.run([str(BIN), "--config", str(deck), "--cluster", store, "--port", "0"],
                          capture_output=True, text=True, timeout=20)
    assert done.returncode == 2
    assert "heartbeat panels backup need a key: in their heartbeat with a history in PostgreSQL" in done.stderr


def test_an_action_sent_to_a_process_that_does_not_lead_is_signed_by_the_leader_and_outlives_it(store, tmp_path):
    deck = write_deck(tmp_path / "deck", slow_seconds=0.1)
    servers = [Server(["--config", str(deck), "--cluster", store, "--debug"], f"signed-{n}").start() for n in range(2)]
    try:
        first = wait_for(lambda: leader(servers), 10, "no server leads")
        other = next(server for server in servers if server is not first)
        status, answer = other.request("POST", "/api/debug/panels/alpha/state", {"state": "error", "error": {"kind": "timeout"}})
        assert status == 200, answer
        first.kill()
        for server in (other, first.restart()):
            status, document = server.request("GET", "/api/audit?panel=alpha")
            assert status == 200, document
            assert [(e["action"], e["subject"], e["detail"], e["actor"], e["role"], e["text"]) for e in document["entries"]] == [
                ("debug_state", "error", "timeout", "local", "designer", "Debug state error forced by local")]
    finally:
        for server in servers:
            server.stop()
