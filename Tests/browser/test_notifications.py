"""Notifications from a deck file's notify: entries, to receivers on loopback: a webhook, and
Apprise's own CLI (a command target) posting to a json:// receiver, each alone (`gather: off`) or
gathered into one message; and to the page, as the stream's `notification` events and the page's
desktop notifications (PROTOCOL.md, "Notifications")."""
from __future__ import annotations

import json
import socket
import sqlite3
import sys
import time
import urllib.request
from datetime import datetime
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from prometheus_client.parser import text_string_to_metric_families

from flapping import flapping_deck, owed_rows
from helpers import panel, sse_events, tid, wait_live
from maintenance import REASON, Window, active
from polling import wait_for
from receivers import HangingReceiver, Receiver

APPRISE = Path(sys.executable).with_name("apprise")


def flaky_deck(folder: Path, notify: str, extra: str = "") -> Path:
    """One command panel, "Payments", failing every second until the file `up` exists."""
    folder.mkdir(parents=True, exist_ok=True)
    deck = folder / "deck.yaml"
    deck.write_text(
        "title: Notifications\n"
        f"{extra}"
        "defaults: { refresh: 1s, retry: none, minimumLoading: 0ms }\n"
        "panels:\n"
        "  - id: payments\n"
        "    title: Payments\n"
        f'    command: {{ run: ["sh", "-c", "test -f {folder / "up"} && echo fine"] }}\n'
        f"    notify:\n{notify}")
    return deck


# The samples of /metrics that count loads, and failed loads: a panel's state history does not,
# since a failing panel's next failure changes nothing in it.
LOADS = "statedeck_load_duration_seconds_count"
FAILURES = "statedeck_load_failures_total"


def counted(server, sample: str, **labels) -> float:
    """The sum of /metrics' samples named `sample` whose labels include `labels`."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as answer:
        text = answer.read().decode()
    return sum(s.value for family in text_string_to_metric_families(text) for s in family.samples
               if s.name == sample and all(s.labels.get(k) == v for k, v in labels.items()))


def settled_after(server, sample: str, more: int, **labels) -> None:
    """Waits until `more` further loads (LOADS) or failed loads (FAILURES) with `labels` are counted
    and no notification is owed: what those loads would tell has been decided, and delivered."""
    start = counted(server, sample, **labels)
    wait_for(lambda: counted(server, sample, **labels) >= start + more and owed_rows(server.data_dir) == 0,
             message=lambda: f"{counted(server, sample, **labels) - start:g} of {more} more {sample} {labels}; "
                             f"{owed_rows(server.data_dir)} notifications owed")


def test_a_webhook_hears_the_failure_once_and_the_recovery_once(make_server, receiver, tmp_path):
    deck = flaky_deck(tmp_path / "deck", (
        f'      - webhook: {{ url: "http://127.0.0.1:{receiver.port}/hook", headers: {{ Authorization: "Bearer t0ken" }} }}\n'
        "        after: { failures: 2 }\n"
        "        gather: off\n"))
    server = make_server(config=deck)
    failure = receiver.wait(1)[0]
    assert failure["authorization"] == "Bearer t0ken"
    body = failure["json"]
    assert body["event"] == "failure" and body["panel"] == "payments" and body["title"] == "Payments"
    assert body["error"]["kind"] == "commandFailed"
    assert body["message"] == f"Payments is down: {body['error']['title']}"
    settled_after(server, FAILURES, 3, source="command")   # each would be told, were every failure
    assert len(receiver.bodies) == 1, receiver.bodies
    (tmp_path / "deck" / "up").touch()
    recovery = receiver.wait(2)[1]["json"]
    assert recovery["event"] == "recovery"
    assert recovery["downSince"] == body["downSince"]
    assert recovery["downSeconds"] >= 3
    assert recovery["message"].startswith("Payments is up again after ")
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as answer:
        assert 'statedeck_notifications_total{result="sent"} 2' in answer.read().decode()


def test_apprise_carries_the_message_to_its_json_receiver(make_server, receiver, tmp_path):
    deck = flaky_deck(tmp_path / "deck", (
        f"      - command: {{ shell: '{APPRISE} -t StateDeck -b \"$STATEDECK_MESSAGE\" json://127.0.0.1:{receiver.port}/' }}\n"
        "        after: { failures: 1 }\n"))
    make_server(config=deck)
    sent = receiver.wait(1)[0]["json"]
    assert sent["title"] == "StateDeck"
    assert sent["message"].startswith("Payments is down: ")


def webhook(receiver: Receiver, failures: int) -> str:
    return (f'      - webhook: {{ url: "http://127.0.0.1:{receiver.port}/hook" }}\n'
            f"        after: {{ failures: {failures} }}\n"
            "        gather: off\n")


def stop(server) -> None:
    """SIGTERM, as systemd stops it: the process ends within 2 s, with status 0."""
    started = time.monotonic()
    server.stop()
    assert server.proc.returncode == 0, server.proc.returncode
    assert time.monotonic() - started < 2.5


def seconds_since(stamp: str) -> float:
    return time.time() - datetime.fromisoformat(stamp).timestamp()


def test_a_restart_mid_outage_neither_repeats_the_failure_nor_loses_the_recovery(make_server, receiver, tmp_path):
    deck = flaky_deck(tmp_path / "deck", webhook(receiver, failures=2))
    server = make_server(config=deck)
    failure = receiver.wait(1)[0]["json"]
    assert failure["event"] == "failure"
    stop(server)
    server.restart()
    settled_after(server, FAILURES, 3, source="command")   # after the restart: the failure was told before it
    assert [b["json"]["event"] for b in receiver.bodies] == ["failure"], receiver.bodies
    (tmp_path / "deck" / "up").touch()
    down_for = seconds_since(failure["downSince"])
    recovery = receiver.wait(2)[1]["json"]
    assert recovery["event"] == "recovery"
    assert recovery["downSince"] == failure["downSince"], "the outage continued across the restart"
    assert down_for - 1 <= recovery["downSeconds"] <= down_for + 3, (down_for, recovery["downSeconds"])
    settled_after(server, LOADS, 2, source="command")
    assert [b["json"]["event"] for b in receiver.bodies] == ["failure", "recovery"], receiver.bodies


def test_a_notification_still_being_delivered_at_the_stop_is_delivered_after_the_restart(make_server, receiver, tmp_path):
    receiver.status = 503
    deck = flaky_deck(tmp_path / "deck", webhook(receiver, failures=1))
    server = make_server(config=deck)
    # The first attempt refused: the webhook waits to try again.
    wait_for(lambda: receiver.refused >= 1, message="the failure was never attempted", every=0.05)
    stop(server)
    assert receiver.bodies == []
    receiver.status = 200
    restarted_at = time.time()
    server.restart()
    failure = receiver.wait(1, timeout=10)[0]["json"]
    assert failure["event"] == "failure" and failure["panel"] == "payments"
    decided_at = datetime.fromisoformat(failure["at"]).timestamp()
    assert decided_at < restarted_at, "decided before the stop, delivered as it was decided"
    settled_after(server, FAILURES, 3, source="command")   # neither sent again nor told anew
    assert len(receiver.bodies) == 1, receiver.bodies


def test_statedeck_itself_counts_notifications_and_shows_a_failing_target(make_server, tmp_path):
    folder = tmp_path / "deck"
    accepts = folder / "accepts"
    deck = flaky_deck(folder, (
        f'      - command: {{ run: ["sh", "-c", "test -f {accepts}"] }}\n'
        "        after: { failures: 1 }\n"
        "        gather: off\n"))
    server = make_server(config=deck)

    def itself() -> dict:
        state = server.state()
        assert state["panels"][-1]["id"] == "statedeck", "the last panel"
        return state["panels"][-1]

    panel = itself()
    assert panel["title"] == "StateDeck itself" and panel["group"] == "statedeck"
    error = wait_for(lambda: itself().get("latestValidError"))
    assert error["title"] == "Notifications are failing"
    assert error["description"] == "Notifications are failing: command sh exited with status 1", error
    accepts.touch()
    (folder / "up").touch()
    info = wait_for(lambda: itself().get("latestValidInfo"))
    assert {"label": "Notifications", "value": "1 sent · 1 failed · 0 dropped"} in info["fields"], info


def test_a_target_that_hangs_is_owed_only_what_is_still_true(make_server, tmp_path):
    panels = 20
    hanging = HangingReceiver()
    try:
        deck = flapping_deck(tmp_path / "deck", panels, hanging.port)
        server = make_server(config=deck)
        rows = []
        for _ in range(12):   # a dozen outages told and ended per panel
            time.sleep(1)
            rows.append(owed_rows(server.data_dir))
        assert 0 < max(rows) <= 2 * panels, f"one delivery sent and one waiting per panel at most: {rows}"
        stop(server)
    finally:
        hanging.stop()
    assert owed_rows(server.data_dir) <= 2 * panels
    # The target answers again at the same address (the same notify entry), and every panel is up:
    # what the restart sends is what each entry still owed, then the recoveries of those whose last
    # word was a failure.
    (tmp_path / "deck" / "up").touch()
    receiver = Receiver(port=hanging.port)
    server.restart()

    def recovered() -> dict[str, list[str]]:
        told: dict[str, list[str]] = {}
        for body in receiver.bodies:
            told.setdefault(body["json"]["panel"], []).append(body["json"]["event"])
        return told if len(told) == panels and all(events[-1] == "recovery" for events in told.values()) else {}

    told = wait_for(recovered)
    settled_after(server, LOADS, 2 * panels, source="command")   # about two each
    assert len(receiver.bodies) <= 3 * panels, f"not a backlog: {len(receiver.bodies)} notifications"
    assert recovered() == told, "nothing after each panel's recovery"
    assert owed_rows(server.data_dir) == 0
    receiver.stop()


def test_a_failure_left_undelivered_for_over_an_hour_is_told_late_while_its_outage_is_open(make_server, tmp_path):
    """Past the hour a notification may wait across a restart, a failure is still told while its
    outage is open (dropped, the recovery after it would tell an outage nobody heard of); here the
    panel is up again at the restart, so the target hears the failure, then the recovery."""
    hanging = HangingReceiver()
    try:
        deck = flaky_deck(tmp_path / "deck", (
            f'      - webhook: {{ url: "http://127.0.0.1:{hanging.port}/hook" }}\n'
            "        after: { failures: 1 }\n"
            "        gather: off\n"))
        server = make_server(config=deck)
        wait_for(lambda: owed_rows(server.data_dir) == 1)
        stop(server)
    finally:
        hanging.stop()
    # The machine was off for two hours: the failure it still owed was decided then.
    history = server.data_dir / "history.sqlite3"
    with sqlite3.connect(history) as db:
        [(row_id, at, text)] = db.execute("SELECT id, at, notification FROM notify_outbox").fetchall()
        owed = json.loads(text)
        owed["notification"]["at"] -= 2 * 3600   # seconds, as Foundation encodes a date
        db.execute("UPDATE notify_outbox SET notification = ?, at = ? WHERE id = ?",
                   (json.dumps(owed), at - 2 * 3600 * 1000, row_id))
    (tmp_path / "deck" / "up").touch()
    receiver = Receiver(port=hanging.port)   # answering again at the same address: the same entry
    server.restart()
    told = [body["json"]["event"] for body in receiver.wait(2)]
    assert told == ["failure", "recovery"], told
    settled_after(server, LOADS, 2, source="command")
    assert len(receiver.bodies) == 2, receiver.bodies
    assert not any("dropped" in line for line in server.log_lines)
    assert owed_rows(server.data_dir) == 0
    receiver.stop()


# ---- keeping quiet ----------------------------------------------------------------------------


def stored_outage(server, panel: str) -> dict | None:
    """The outage the history in `server`'s --data folder keeps for `panel`'s one notify entry (its
    key is the panel's id, "#" and the entry's digest)."""
    with sqlite3.connect(f"file:{server.data_dir / 'history.sqlite3'}?mode=ro", uri=True, timeout=10) as db:
        row = db.execute("SELECT watch FROM notify_outages WHERE key LIKE ? AND key <> ?",
                         (f"{panel}#%", f"{panel}#page")).fetchone()
    return json.loads(row[0]) if row else None


def kept_quiet_under(window: Window, make_server, receiver: Receiver, folder: Path):
    """A server of Payments told to `receiver` after two failed loads, up until the window holds,
    then failing: returns it once the failure is decided, kept quiet, and stored."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "up").touch()
    server = make_server(config=flaky_deck(folder, webhook(receiver, failures=2), extra=window.declared()))
    window.start(server)
    (folder / "up").unlink()
    decided = wait_for(lambda: notification_log(server), message="the failure was never decided")
    assert [(e["event"], e["outcome"], e["why"]) for e in decided] == [("failure", "silent", f"maintenance '{REASON}'")]
    wait_for(lambda: (stored_outage(server, "payments") or {}).get("silenced"),
             message="the failure kept quiet was never stored")
    assert receiver.bodies == [], "nothing is told under the window"
    return server


@pytest.mark.parametrize("kind", ["file", "api"])
def test_a_restart_under_maintenance_keeps_the_window_and_tells_the_outage_once_at_its_end(
        kind, make_server, receiver, tmp_path):
    # Long enough for two starts and the outage's beginning between them, on a busy machine.
    window = Window(kind, "payments", seconds=15)
    server = kept_quiet_under(window, make_server, receiver, tmp_path / "deck")
    stop(server)
    server.restart()
    assert window.id in active(server), f"the window holds after the restart ({window.seconds_left():.1f} s were left)"
    settled_after(server, FAILURES, 2, source="command")   # failed loads under the window, after the restart
    assert receiver.bodies == []
    failure = window.end_telling_the_failure(server, receiver)
    (tmp_path / "deck" / "up").touch()
    recovery = receiver.wait(2)[1]["json"]
    assert recovery["event"] == "recovery" and recovery["downSince"] == failure["downSince"], recovery
    settled_after(server, LOADS, 2, source="command")
    assert [b["json"]["event"] for b in receiver.bodies] == ["failure", "recovery"], receiver.bodies


def test_an_outage_kept_quiet_by_a_window_that_ended_while_stopped_is_told_once_after_the_restart(
        make_server, receiver, tmp_path):
    window = Window("file", "payments", seconds=8)
    server = kept_quiet_under(window, make_server, receiver, tmp_path / "deck")
    stop(server)
    # The gap under test: the window ends while no process follows the deck.
    time.sleep(max(0.0, window.seconds_left()) + 0.5)
    restarted_at = time.time()
    server.restart()
    assert active(server) == []
    failure = receiver.wait(1)[0]["json"]
    assert failure["event"] == "failure" and failure["panel"] == "payments", failure
    assert failure["downSince"] == failure["at"] and datetime.fromisoformat(failure["at"]).timestamp() >= restarted_at, \
        ("told as new, once heard still down", failure)
    (tmp_path / "deck" / "up").touch()
    recovery = receiver.wait(2)[1]["json"]
    assert recovery["event"] == "recovery" and recovery["downSince"] == failure["downSince"], recovery
    settled_after(server, LOADS, 2, source="command")
    assert [b["json"]["event"] for b in receiver.bodies] == ["failure", "recovery"], receiver.bodies


def dependency_deck(folder: Path, receiver: Receiver) -> Path:
    """"Database" and two panels that depend on it, "API" and "Web": command panels checked every
    second, the database failing while the file `db-down` exists, the others while `down` does.
    The database is told once down 4 s, each of the others after three failed loads."""
    folder.mkdir(parents=True, exist_ok=True)

    def entry(panel: str, title: str, flag: str, rule: str, depends: str = "") -> str:
        return (f"  - id: {panel}\n    title: {title}\n{depends}"
                f'    command: {{ run: ["sh", "-c", "test ! -f {folder / flag}"] }}\n'
                f'    notify: [{{ webhook: {{ url: "http://127.0.0.1:{receiver.port}/hook" }}, after: {rule}, gather: off }}]\n')

    deck = folder / "deck.yaml"
    deck.write_text(
        "title: Dependencies\n"
        "defaults: { refresh: 1s, retry: none, minimumLoading: 0ms }\n"
        "panels:\n"
        + entry("db", "Database", "db-down", "{ down: 4s }")
        + entry("api", "API", "down", "{ failures: 3 }", "    dependsOn: [db]\n")
        + entry("web", "Web", "down", "{ failures: 3 }", "    dependsOn: [db]\n"))
    return deck


def test_a_dependency_down_is_told_once_naming_its_failing_dependents_who_are_held_and_never_told(
        make_server, receiver, tmp_path):
    folder = tmp_path / "deck"
    server = make_server(config=dependency_deck(folder, receiver))
    server.settle()
    (folder / "db-down").touch()
    server.wait_panel("db", lambda p: p["health"] == "down")
    # The dependents fail once the database is down: their failures are due while it still is,
    # and the database's, 4 s after it went down, names them.
    (folder / "down").touch()

    def held() -> list[dict]:
        entries = [e for e in notification_log(server) if e["outcome"] == "held"]
        return entries if len(entries) == 2 else []

    entries = wait_for(held, message="the dependents' failures were never held")
    assert sorted(e["panels"][0] for e in entries) == ["api", "web"], entries
    assert {(e["event"], e["why"]) for e in entries} == {("failure", "dependency Database down")}, entries
    failure = receiver.wait(1)[0]["json"]
    assert failure["event"] == "failure" and failure["panel"] == "db", failure
    assert failure["dependents"] == ["api", "web"], failure
    assert failure["message"].endswith("; 2 panels that depend on it are failing too"), failure
    # The database comes back first; its dependents a moment later, before three more failed loads
    # of their own: their rule never holds on its own.
    (folder / "db-down").unlink()
    server.wait_panel("db", lambda p: p["health"] == "up")
    (folder / "down").unlink()
    assert receiver.wait(2)[1]["json"]["event"] == "recovery"
    for dependent in ("api", "web"):
        server.wait_panel(dependent, lambda p: p["health"] == "up")
    settled_after(server, LOADS, 6, source="command")   # two more loads of each panel
    assert [(b["json"]["event"], b["json"]["panel"]) for b in receiver.bodies] == \
        [("failure", "db"), ("recovery", "db")], receiver.bodies
    assert len([e for e in notification_log(server) if e["outcome"] == "held"]) == 2, "held once an outage"

# ---- gathering ---------------------------------------------------------------------------------


def storm_deck(folder: Path, count: int, notify: str) -> Path:
    """`count` command panels, "Service 0"…, failing from their first load until the file `up`
    exists, each told to the same targets after one failed load."""
    folder.mkdir(parents=True, exist_ok=True)
    up = folder / "up"
    panels = "".join(
        f"  - {{ id: svc-{n}, title: Service {n}, command: {{ run: [sh, -c, \"test -f {up} && echo fine\"] }} }}\n"
        for n in range(count))
    deck = folder / "deck.yaml"
    deck.write_text("title: Storm\n"
                    f"defaults:\n  refresh: 1s\n  retry: none\n  minimumLoading: 0ms\n  notify:\n{notify}"
                    f"panels:\n{panels}")
    return deck


def notification_log(server) -> list[dict]:
    with urllib.request.urlopen(server.url + "/api/notify/log", timeout=10) as answer:
        return json.loads(answer.read())["entries"]


def test_a_storm_is_one_gathered_message_at_a_webhook_and_at_a_command(make_server, receiver, tmp_path):
    folder = tmp_path / "deck"
    seen = tmp_path / "seen"
    seen.mkdir()
    # Variables only: a shell script takes no placeholders.
    script = (f'cat > {seen}/input.json; printf "%s|%s|%s|%s" "$STATEDECK_EVENT" "$STATEDECK_COUNT" '
              f'"$STATEDECK_PANELS" "$STATEDECK_MESSAGE" > {seen}/env; printf "%s" "$STATEDECK_TITLES" > {seen}/titles')
    deck = storm_deck(folder, 6, (
        f'    - webhook: {{ url: "http://127.0.0.1:{receiver.port}/hook" }}\n'
        "      after: { failures: 1 }\n"
        "      gather: 3s\n"
        f"    - command: {{ shell: '{script}' }}\n"
        "      after: { failures: 1 }\n"
        "      gather: 3s\n"))
    server = make_server(config=deck)
    [message] = receiver.wait(1)
    body = message["json"]
    ids = [f"svc-{n}" for n in range(6)]
    assert body["event"] == "failure" and body["count"] == 6, body
    assert "panel" not in body, "no single panel"
    assert sorted(n["panel"] for n in body["notifications"]) == ids
    assert all(n["message"].startswith(f"{n['title']} is down: ") for n in body["notifications"]), body
    titles = [n["title"] for n in body["notifications"]]
    assert body["message"] == f"6 panels down: {', '.join(titles[:3])}, and 3 more"
    wait_for(lambda: (seen / "env").exists() and (seen / "titles").exists())
    event, count, panels, said = (seen / "env").read_text().split("|", 3)
    assert (event, count, said) == ("failure", "6", body["message"])
    assert sorted(panels.split(",")) == ids
    assert sorted((seen / "titles").read_text().split("\n")) == sorted(titles)
    told = json.loads((seen / "input.json").read_text())
    assert told["count"] == 6 and sorted(n["panel"] for n in told["notifications"]) == ids
    settled_after(server, FAILURES, 6, source="command")
    assert len(receiver.bodies) == 1, "one message per target"
    log = notification_log(server)
    assert len(log) == 12, log
    assert {(entry["outcome"], entry["why"]) for entry in log} == {("gathered", "with 5 others")}, log
    assert {entry["target"] for entry in log} == {"command /bin/sh", "webhook 127.0.0.1"}
    # Every panel up within one window: one message of recoveries.
    (folder / "up").touch()
    recovered = receiver.wait(2)[1]["json"]
    assert recovered["event"] == "recovery" and recovered["count"] == 6, recovered
    assert recovered["message"].startswith("6 panels up again: "), recovered
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as answer:
        assert 'statedeck_notifications_total{result="sent"} 24' in answer.read().decode(), "each notification counted"


def test_a_stop_while_a_window_is_open_tells_its_notifications_after_the_restart_once(make_server, receiver, tmp_path):
    folder = tmp_path / "deck"
    deck = storm_deck(folder, 3, (
        f'    - webhook: {{ url: "http://127.0.0.1:{receiver.port}/hook" }}\n'
        "      after: { failures: 1 }\n"
        "      gather: 1h\n"))
    server = make_server(config=deck)
    wait_for(lambda: owed_rows(server.data_dir) == 3, message=lambda: f"{owed_rows(server.data_dir)} of 3 kept")
    stop(server)
    assert receiver.bodies == [], "stopped with the window open"
    deck.write_text(deck.read_text().replace("gather: 1h", "gather: 2s"))
    server.restart()
    [message] = receiver.wait(1)
    body = message["json"]
    assert body["count"] == 3 and sorted(n["panel"] for n in body["notifications"]) == ["svc-0", "svc-1", "svc-2"]
    wait_for(lambda: owed_rows(server.data_dir) == 0)
    settled_after(server, FAILURES, 6, source="command")
    assert len(receiver.bodies) == 1, "nothing told twice"


def test_apprise_carries_a_storm_too_big_for_its_input_to_its_json_receiver(make_server, receiver, tmp_path):
    # 250 notifications are more JSON than a command's 60 KiB of standard input: the command gets
    # what fits and is run all the same.
    deck = storm_deck(tmp_path / "deck", 250, (
        f"    - command: {{ shell: '{APPRISE} -t StateDeck -b \"$STATEDECK_MESSAGE\" json://127.0.0.1:{receiver.port}/' }}\n"
        "      after: { failures: 1 }\n"
        "      gather: 10s\n"))
    make_server(config=deck)
    sent = receiver.wait(1, timeout=60)[0]["json"]
    assert sent["title"] == "StateDeck"
    assert sent["message"].startswith("250 panels down: Service ") and sent["message"].endswith(", and 247 more"), sent


# ---- the page ---------------------------------------------------------------------------------


def closed_port() -> int:
    """A loopback port nothing listens on: bound, then released."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def notification_events(url: str, count: int, timeout: float = 20.0) -> list[dict]:
    """The data of the first `count` `notification` events `/events` sends."""
    found: list[dict] = []
    deadline = time.monotonic() + timeout
    with urllib.request.urlopen(url + "/events", timeout=timeout) as stream:
        name, data = "message", []
        for raw in stream:
            assert time.monotonic() < deadline, f"{len(found)} of {count} notification events came: {found}"
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])
            elif line == "":
                if name == "notification":
                    found.append(json.loads("\n".join(data)))
                    if len(found) == count:
                        return found
                name, data = "message", []
    raise AssertionError("the stream ended before the notification events")


def test_the_stream_announces_a_failing_panels_notification(make_server, tmp_path):
    port = closed_port()
    deck = tmp_path / "deck.yaml"
    deck.write_text(
        "title: Closed\n"
        "defaults: { refresh: 1s, retry: none, minimumLoading: 0ms }\n"
        # A group of its own: its failures are counted apart in /metrics.
        "groups: [{ id: quiet, title: Quiet }]\n"
        "panels:\n"
        f"  - {{ id: quiet, group: quiet, notify: none, tcp: {{ host: 127.0.0.1, port: {port} }} }}\n"
        f"  - {{ id: db, title: Database, tcp: {{ host: 127.0.0.1, port: {port} }},\n"
        "      notify: [{ command: { run: [\"true\"] }, after: { failures: 2 }, gather: off }] }\n")
    server = make_server(config=deck)
    [told] = notification_events(server.url, 1)
    assert told["event"] == "failure" and told["panel"] == "db" and told["title"] == "Database"
    assert told["error"]["kind"] == "unreachable", told
    assert told["message"] == f"Database is down: {told['error']['title']}"
    assert {"downSince", "downSeconds", "at"} <= told.keys()
    # The quiet panel (notify: none) fails as often and is never announced; the page's own events
    # are not counted as the targets' deliveries.
    settled_after(server, FAILURES, 2, group="quiet")
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as answer:
        metrics = answer.read().decode()
    assert 'statedeck_notifications_total{result="sent"} 1' in metrics, metrics


# A stand-in for the browser's Notification: it records each notification constructed, and
# `window.__hidden` says whether the page is hidden.
RECORDED_NOTIFICATIONS = """
window.__notifications = [];
window.__hidden = false;
window.__permissionAsks = 0;
Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => window.__hidden });
class RecordedNotification extends EventTarget {
  static permission = "granted";
  static async requestPermission() { window.__permissionAsks++; return RecordedNotification.permission; }
  constructor(title, options = {}) {
    super();
    this.title = title;
    this.tag = options.tag;
    this.body = options.body;
    this.closed = false;
    window.__notifications.push(this);
  }
  close() { this.closed = true; }
}
window.Notification = RecordedNotification;
"""

# Counts the real permission requests.
COUNTED_ASKS = """
window.__permissionAsks = 0;
const ask = Notification.requestPermission.bind(Notification);
Notification.requestPermission = (...args) => { window.__permissionAsks++; return ask(...args); };
"""


def switchable_deck(folder: Path) -> Path:
    """One command panel, "Payments", failing every second while the file `down` exists, told after
    one failed load."""
    folder.mkdir(parents=True, exist_ok=True)
    deck = folder / "deck.yaml"
    deck.write_text(
        "title: Desktop\n"
        "defaults: { refresh: 1s, retry: none, minimumLoading: 0ms }\n"
        "panels:\n"
        "  - id: payments\n"
        "    title: Payments\n"
        f'    command: {{ run: ["sh", "-c", "test ! -f {folder / "down"} && echo fine"] }}\n'
        "    notify: [{ command: { run: [\"true\"] }, after: { failures: 1 }, gather: off }]\n")
    return deck


def recorded(page: Page) -> list[dict]:
    return page.evaluate("() => window.__notifications.map((n) => ({title: n.title, tag: n.tag, body: n.body}))")


def wait_recorded(page: Page, count: int) -> list[dict]:
    page.wait_for_function(f"() => window.__notifications.length >= {count}", timeout=20_000)
    return recorded(page)


def hide_with_notifications_on(page: Page, open_page, server, loaded: str) -> None:
    """Opens the page with notifications recorded, once panel `loaded` has loaded turns desktop
    notifications on, and hides the page."""
    page.add_init_script(RECORDED_NOTIFICATIONS)
    open_page(server)
    expect(panel(page, loaded)).to_have_attribute("data-view", "loaded")
    page.locator(tid("desktop-notifications")).click()
    expect(page.locator(tid("desktop-notifications"))).to_have_attribute("aria-pressed", "true")
    page.evaluate("() => { window.__hidden = true; }")


def test_the_toggle_asks_permission_only_when_clicked_and_remembers_the_choice(server, new_context, problems):
    page = problems.watch(new_context(permissions=["notifications"]).new_page())
    page.add_init_script(COUNTED_ASKS)
    page.goto(server.url + "/")
    wait_live(page)
    toggle = page.locator(tid("desktop-notifications"))
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_have_accessible_name("Desktop notifications")
    assert page.evaluate("() => window.__permissionAsks") == 0, "asked before any click"
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(toggle).to_have_attribute("data-state", "on")
    page.reload()
    wait_live(page)
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => window.__permissionAsks") == 0, "asked again on load"
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.reload()
    wait_live(page)
    expect(toggle).to_have_attribute("aria-pressed", "false")


def test_a_denied_permission_is_shown_on_the_toggle(server, page, open_page):
    page.add_init_script(RECORDED_NOTIFICATIONS + 'RecordedNotification.permission = "default";'
                         'RecordedNotification.requestPermission = async () => {'
                         ' window.__permissionAsks++; RecordedNotification.permission = "denied"; return "denied"; };')
    open_page(server)
    toggle = page.locator(tid("desktop-notifications"))
    expect(toggle).to_have_attribute("data-state", "off")
    toggle.click()
    expect(toggle).to_have_attribute("data-state", "blocked")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_contain_text("blocked")
    expect(toggle).to_have_accessible_description("Blocked in this browser's settings for this site.")
    assert page.evaluate("() => window.__permissionAsks") == 1
    assert page.evaluate("() => localStorage.getItem('statedeck.desktopNotifications')") is None


def test_a_hidden_page_shows_each_notification_and_a_click_opens_the_panel(make_server, page, open_page, tmp_path):
    server = make_server(config=switchable_deck(tmp_path / "deck"))
    hide_with_notifications_on(page, open_page, server, "payments")
    (tmp_path / "deck" / "down").touch()
    [failure] = wait_recorded(page, 1)
    assert failure["tag"] == "payments"
    assert failure["title"].startswith("Payments is down: "), failure
    (tmp_path / "deck" / "down").unlink()
    recovery = wait_recorded(page, 2)[1]
    assert recovery["tag"] == "payments", "the recovery takes the failure's place"
    assert recovery["title"].startswith("Payments is up again after "), recovery
    page.evaluate("() => { window.__hidden = false; window.__notifications[1].dispatchEvent(new Event('click')); }")
    page.wait_for_function("() => document.activeElement?.closest('[data-panel-id]')?.dataset.panelId === 'payments'")
    assert page.evaluate("() => window.__notifications[1].closed")


def test_a_visible_page_shows_no_notification(make_server, page, tmp_path):
    deck = switchable_deck(tmp_path / "deck")
    server = make_server(config=deck)
    page.add_init_script(RECORDED_NOTIFICATIONS)
    # With ?bench, each stream event the page applies leaves a mark carrying its id.
    page.goto(server.url + "/?bench")
    wait_live(page)
    page.locator(tid("desktop-notifications")).click()
    expect(page.locator(tid("desktop-notifications"))).to_have_attribute("aria-pressed", "true")
    with urllib.request.urlopen(server.url + "/events", timeout=20) as stream:
        (tmp_path / "deck" / "down").touch()
        told = next(event_id for event_id, name, _ in sse_events(stream) if name == "notification")
    expect(panel(page, "payments")).to_have_attribute("data-view", "error", timeout=15_000)
    # The page heard the failure, visible: it applied an event sent after it (a failing panel's next
    # failure sends none, so StateDeck's own panel is forced to make one), and takes them in order.
    server.force("statedeck", {"state": "loading"})
    page.wait_for_function(
        "(told) => performance.getEntriesByName('statedeck:applied').some((mark) => mark.detail.eventId > told)",
        arg=told, timeout=15_000)
    page.evaluate("() => { window.__hidden = true; }")
    (tmp_path / "deck" / "down").unlink()
    [only] = wait_recorded(page, 1)
    assert only["title"].startswith("Payments is up again after "), "the failure came while visible"


def test_a_hidden_page_shows_a_gathered_message_as_one_notification(make_server, page, open_page, tmp_path):
    folder = tmp_path / "deck"
    # The page follows the first entry's rule, its window included.
    deck = storm_deck(folder, 3, '    - command: { run: ["true"] }\n      after: { failures: 1 }\n      gather: 2s\n')
    (folder / "up").touch()
    hide_with_notifications_on(page, open_page, make_server(config=deck), "svc-2")
    (folder / "up").unlink()
    [gathered] = wait_recorded(page, 1)
    assert gathered["tag"] == "statedeck-gathered"
    assert gathered["title"].startswith("3 panels down: Service "), gathered
    page.evaluate("() => { window.__hidden = false; window.__notifications[0].dispatchEvent(new Event('click')); }")
    assert page.evaluate("() => window.__notifications[0].closed")
    assert len(recorded(page)) == 1, "one notification for the three"
