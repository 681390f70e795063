"""A deck file edited while the server runs: a valid edit replaces the deck and unchanged panels
keep their history; a broken edit is reported and the running deck stays as it was; a panel removed stops counting
and its outage ends untold."""
from __future__ import annotations

import os
import time
from datetime import datetime
from pathlib import Path

from polling import wait_for
from receivers import Receiver

DECK = """title: {title}
panels:
  - id: steady
    title: Steady
    command: {{ run: [echo, steady] }}
    refresh: manual
  - id: {second}
    title: Second
    command: {{ run: [echo, second] }}
    refresh: manual
"""


def write(path: Path, text: str) -> None:
    path.write_text(text)
    # The watcher compares size, modification time and inode; make the change visible at once.
    stamp = time.time() + 1
    os.utime(path, (stamp, stamp))


def test_a_valid_edit_replaces_the_deck_and_unchanged_panels_keep_their_history(make_server, tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text(DECK.format(title="Before", second="old"))
    srv = make_server(config=deck)
    srv.wait_panel("steady", lambda p: p["phase"] == "loaded")
    srv.wait_panel("statedeck", lambda p: p["phase"] == "loaded")
    history_before = srv.panel("steady")["history"]
    own_before = srv.panel("statedeck")["history"]

    write(deck, DECK.format(title="After", second="new"))
    state = wait_for(lambda: (s := srv.state())["title"] == "After" and s)
    assert [p["id"] for p in state["panels"]] == ["steady", "new", "statedeck"]
    steady = srv.panel("steady")
    assert steady["history"][:len(history_before)] == history_before, "the unchanged panel started over"
    assert srv.panel("statedeck")["history"][:len(own_before)] == own_before, "StateDeck's own panel started over"
    assert steady["latestInfo"]["text"].strip() == "steady"


def test_a_broken_edit_is_reported_and_the_running_deck_stays(make_server, tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text(DECK.format(title="Running", second="second"))
    srv = make_server(config=deck)
    srv.wait_panel("second", lambda p: p["phase"] == "loaded")

    write(deck, "title: Broken\npanels:\n  - id: Not Valid\n")
    toast = wait_for(lambda: (t := srv.state()["toast"]) and "has errors" in t["message"] and t)
    assert toast["style"] == "error"
    state = srv.state()
    assert state["title"] == "Running"
    assert [p["id"] for p in state["panels"]] == ["steady", "second", "statedeck"]
    assert any("panels[0].id" in line for line in srv.log_lines), "the problems are not in the log"


def test_statedeck_itself_ends_the_deck_in_its_own_group_until_the_file_turns_it_off(make_server, tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text(DECK.format(title="Own", second="second"))
    srv = make_server(config=deck)
    own = srv.wait_panel("statedeck", lambda p: p["phase"] == "loaded")
    assert own["title"] == "StateDeck itself" and own["group"] == "statedeck"
    assert own["latestValidInfo"]["summary"] == f"Serving at {srv.url}/"
    labels = [f["label"] for f in own["latestValidInfo"]["fields"]]
    assert labels[:1] == ["Open streams"] and "Notifications" not in labels, "no notify entries: nothing to count"
    state = srv.state()
    assert state["panels"][-1]["id"] == "statedeck"
    assert state["groups"][-1] == {"id": "statedeck", "title": "StateDeck"}

    write(deck, "statedeckPanel: false\n" + DECK.format(title="Without", second="second"))
    state = wait_for(lambda: (s := srv.state())["title"] == "Without" and s)
    assert [p["id"] for p in state["panels"]] == ["steady", "second"]
    assert state["groups"] == []


# ---- a panel removed, and added again ---------------------------------------------------------


def removable_deck(folder: Path, receiver: Receiver, payments: bool) -> str:
    """Steady, and with `payments` Payments: failing every second until the file `up` exists, each
    failure told to `receiver` at once."""
    up = folder / "up"
    return ("title: Removals\n"
            "defaults: { refresh: 1s, retry: none, minimumLoading: 0ms }\n"
            "panels:\n"
            "  - { id: steady, title: Steady, command: { run: [echo, steady] } }\n"
            + ("  - id: payments\n"
               "    title: Payments\n"
               f'    command: {{ run: ["sh", "-c", "test -f {up} && echo fine"] }}\n'
               "    notify:\n"
               f'      - webhook: {{ url: "http://127.0.0.1:{receiver.port}/hook" }}\n'
               "        after: { failures: 1 }\n"
               "        gather: off\n" if payments else ""))


def uptime(srv, panel_id: str) -> dict:
    status, report = srv.request("GET", f"/api/panels/{panel_id}/uptime?span=10m&slots=10")
    assert status == 200, report
    return report  # type: ignore[return-value]


def down_ms(report: dict) -> int:
    return sum(slot["downMs"] for slot in report["slots"])


def notify_log(srv) -> list[tuple]:
    """The notification log's entries, newest first: (event, panels, outcome, why)."""
    status, log = srv.request("GET", "/api/notify/log")
    assert status == 200, log
    return [(e["event"], e["panels"], e["outcome"], e["why"]) for e in log["entries"]]  # type: ignore[index]


def panel_ids(srv) -> list[str]:
    return [p["id"] for p in srv.state()["panels"]]


def test_a_panel_removed_while_down_stops_counting_and_comes_back_as_a_new_watch_told_nothing(
        make_server, receiver, tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text(removable_deck(tmp_path, receiver, payments=True))
    srv = make_server(config=deck)
    failure = receiver.wait(1)[0]["json"]
    assert (failure["event"], failure["panel"]) == ("failure", "payments")
    down_before, read_at = down_ms(uptime(srv, "payments")), time.time()

    write(deck, removable_deck(tmp_path, receiver, payments=False))
    wait_for(lambda: panel_ids(srv) == ["steady", "statedeck"], message="the panel was never removed")
    removed_by = time.time()
    ended = wait_for(lambda: len(logged := notify_log(srv)) == 2 and logged, message="its outage never ended")
    assert ended == [("recovery", ["payments"], "silent", "removed while down"), ("failure", ["payments"], "sent", None)]

    time.sleep(4)   # away, and down when it left: none of this is its time
    (tmp_path / "up").touch()
    added_at = time.time()
    write(deck, removable_deck(tmp_path, receiver, payments=True))
    wait_for(lambda: "payments" in panel_ids(srv), message="the panel was never added again")
    srv.wait_panel("payments", lambda p: p["phase"] == "loaded")
    report = uptime(srv, "payments")
    assert report["current"]["state"] == "up", report["current"]
    watched_since = datetime.fromisoformat(report["current"]["watchedSince"]).timestamp()
    assert watched_since >= added_at - 0.5, (report["current"], added_at)
    grown = (down_ms(report) - down_before) / 1000
    assert grown <= removed_by - read_at + 1, f"down {grown:.1f} s more: it was counted while away"

    time.sleep(2)   # a recovery is decided with the first good load, and sent at once (gather: off)
    assert [b["json"]["event"] for b in receiver.bodies] == ["failure"], "no recovery of an outage nobody watched"
