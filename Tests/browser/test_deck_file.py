"""A deck file edited while the server runs: a valid edit replaces the deck and unchanged panels
keep their history; a broken edit is reported and the running deck stays as it was."""
from __future__ import annotations

import os
import time
from pathlib import Path

from polling import wait_for

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
