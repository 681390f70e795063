"""The history file under faults, run as a person would: `kill -9` in the middle of writes, a file
that is not a history, a second process on the same folder, event ids across a restart, and a disk
that fills up while serving (a tmpfs the test mounts: the tests run as root)."""
from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import time
import urllib.request
from datetime import datetime
from pathlib import Path

import pytest

from conftest import BIN, START_LINE
from helpers import sse_events
from helpers import SmallDisk, churn_deck
from polling import wait_for

def start(*args: str) -> tuple[subprocess.Popen, str]:
    """Starts the server on a free port and returns it with its address."""
    process = subprocess.Popen([str(BIN), "--port", "0", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    match = START_LINE.search(line)
    assert match, f"no start line: {line!r} {process.stderr.read() if process.poll() is not None else ''}"
    return process, f"http://127.0.0.1:{match.group(2)}"


def saved(database: Path) -> tuple[str, int, int]:
    """The integrity check's answer, the number of changes saved and the newest one's time (ms)."""
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        check = connection.execute("PRAGMA integrity_check").fetchone()[0]
        count, newest = connection.execute("SELECT count(*), coalesce(max(at), 0) FROM changes").fetchone()
        return check, count, newest
    finally:
        connection.close()


def first_row(database: Path, sql: str) -> tuple | None:
    """The first row `sql` answers from the history file, read beside its writer; None before the
    file or the row exists."""
    try:
        connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        return connection.execute(sql).fetchone()
    except sqlite3.Error:
        return None
    finally:
        connection.close()


def changes_saved(database: Path) -> int:
    return (first_row(database, "SELECT count(*) FROM changes") or (0,))[0]


def test_kill_9_in_the_middle_of_writes_loses_at_most_the_last_second_and_never_corrupts(tmp_path: Path):
    deck = churn_deck(tmp_path, panels=120)
    data = tmp_path / "data"
    database = data / "history.sqlite3"
    previous = 0
    rounds = 8
    for round_index in range(rounds):
        process, _ = start("--config", str(deck), "--data", str(data))
        # Writes are under way once this run has saved; the kill then comes at a random moment of
        # the writer's second, the point of the test.
        wait_for(lambda: changes_saved(database) > previous, message=f"round {round_index}: nothing new was saved")
        time.sleep(random.uniform(0, 1.3))
        killed_at = time.time() * 1000
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=5)
        check, count, newest = saved(database)
        assert check == "ok", f"round {round_index}: {check}"
        assert count > previous, f"round {round_index}: nothing new was saved ({count})"
        assert killed_at - newest < 1_600, f"round {round_index}: the newest change saved is {killed_at - newest:.0f} ms old"
        previous = count
    process, _ = start("--config", str(deck), "--data", str(data))
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=3) == 0


def test_a_file_that_is_no_history_exits_2_naming_it_and_is_left_alone(tmp_path: Path):
    data = tmp_path / "data"
    data.mkdir()
    database = data / "history.sqlite3"
    database.write_bytes(b"name,value\n1,2\n")
    result = subprocess.run([str(BIN), "--port", "0", "--data", str(data)],
                            capture_output=True, text=True, timeout=10)
    assert result.returncode == 2
    assert f"{database} is not a StateDeck history: it is not an SQLite database" in result.stderr
    assert "move it away" in result.stderr
    assert database.read_bytes() == b"name,value\n1,2\n"


def test_a_second_process_on_the_same_folder_is_refused(tmp_path: Path):
    data = tmp_path / "data"
    first, _ = start("--data", str(data))
    try:
        result = subprocess.run([str(BIN), "--port", "0", "--data", str(data)],
                                capture_output=True, text=True, timeout=10)
        assert result.returncode == 2
        assert f"the history folder {data} is in use by another StateDeck (pid {first.pid})" in result.stderr
        assert not START_LINE.search(result.stdout)
    finally:
        first.send_signal(signal.SIGTERM)
        first.wait(timeout=3)


def first_event(url: str, last_event_id: str | None) -> tuple[str, int]:
    """The name and id of the first event `/events` sends."""
    request = urllib.request.Request(url + "/events", headers={"Last-Event-ID": last_event_id} if last_event_id else {})
    with urllib.request.urlopen(request, timeout=5) as stream:
        for event_id, name, _ in sse_events(stream):
            return name, event_id
    raise AssertionError("the stream ended before an event")


def stored_event_id(database: Path) -> int:
    """The newest event id the history file holds."""
    return int((first_row(database, "SELECT value FROM meta WHERE key = 'last_event_id'") or (0,))[0])


def test_event_ids_keep_increasing_across_a_restart_and_an_old_id_gets_a_snapshot(tmp_path: Path):
    data = tmp_path / "data"
    process, url = start("--data", str(data), "--seed", "3")
    with urllib.request.urlopen(url + "/api/state", timeout=5) as answer:
        before = json.load(answer)["lastEventId"]
    wait_for(lambda: stored_event_id(data / "history.sqlite3") >= before,
             message="the writer never saved the newest event id")
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=3) == 0
    process, url = start("--data", str(data), "--seed", "3")
    try:
        with urllib.request.urlopen(url + "/api/state", timeout=5) as answer:
            state = json.load(answer)
        assert state["lastEventId"] > before
        # The compact form of the state document leaves out a false `restored`.
        assert any(panel.get("restored") for panel in state["panels"]), "panels start from what they showed"
        name, event_id = first_event(url, str(before))
        assert name == "snapshot"
        assert event_id > before
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=3)


def notice(url: str) -> dict | None:
    with urllib.request.urlopen(url + "/api/state", timeout=5) as answer:
        return json.load(answer)["notice"]


def test_a_full_disk_shows_out_of_space_serving_goes_on_and_history_catches_up(tmp_path: Path):
    disk = SmallDisk(tmp_path / "disk")
    process, url = start("--config", str(churn_deck(tmp_path, panels=40)), "--data", str(disk.folder / "data"))
    try:
        wait_for(lambda: (disk.folder / "data" / "history.sqlite3").stat().st_size > 0)
        disk.fill()
        card = wait_for(lambda: notice(url))
        assert card["title"] == "Out of space"
        assert card["kind"] == "outOfSpace"
        with urllib.request.urlopen(url + "/api/panels/p0", timeout=5) as answer:
            assert json.load(answer)["id"] == "p0", "serving goes on"
        filled_at = time.time() * 1000
        disk.free()
        wait_for(lambda: notice(url) is None)
        _, _, newest = saved(disk.folder / "data" / "history.sqlite3")
        assert newest > filled_at, "changes made while the disk was full were saved once it had room"
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=3)
        disk.unmount()



def uptime(url: str, query: str = "span=1h&slots=1") -> dict:
    with urllib.request.urlopen(f"{url}/api/panels/svc/uptime?{query}", timeout=5) as answer:
        return json.load(answer)


def newest_slot(url: str) -> dict:
    return uptime(url)["slots"][-1]


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "kill-9"])
def test_a_restart_mid_outage_keeps_uptime_failures_and_load_times_and_the_stop_is_a_gap(tmp_path: Path, stop):
    flag = tmp_path / "up"
    flag.write_text("fine\n")
    deck = tmp_path / "deck.yaml"
    deck.write_text(f"title: Outage\ndefaults: {{ refresh: 1s }}\npanels:\n  - id: svc\n    command: {{ run: [cat, '{flag}'] }}\n")
    data = tmp_path / "data"
    process, url = start("--config", str(deck), "--data", str(data))
    try:
        wait_for(lambda: (uptime(url)["current"] or {}).get("state") == "up")
        # Loads up, then an outage of several failures and more time down than a kill -9 may lose:
        # each tally the restart must keep holds something.
        wait_for(lambda: newest_slot(url)["loads"] >= 3, message="three loads up never came")
        flag.unlink()
        wait_for(lambda: uptime(url)["current"]["state"] == "down")
        wait_for(lambda: newest_slot(url)["failures"] >= 3 and newest_slot(url)["downMs"] >= 2_000,
                 message="three failures and two seconds down never came")
        before = uptime(url)
    finally:
        process.send_signal(stop)
        status = process.wait(timeout=5)
    assert status == (0 if stop == signal.SIGTERM else -signal.SIGKILL)
    stopped_at = time.time() * 1000
    time.sleep(2)   # the server stays stopped a while: that time is the gap under test
    process, url = start("--config", str(deck), "--data", str(data))
    try:
        after = uptime(url)
        was, now = before["slots"][-1], after["slots"][-1]
        lost = 0 if stop == signal.SIGTERM else 1_000  # kill -9: at most the last second
        assert now["upMs"] == was["upMs"]
        assert now["downMs"] >= was["downMs"] - lost
        assert now["loads"] >= was["loads"] - (0 if stop == signal.SIGTERM else 1)
        assert now["failures"] >= was["failures"] - (0 if stop == signal.SIGTERM else 1)
        # The longest load is kept, unless it was the one a kill -9 lost.
        assert now["maxMs"] >= was["maxMs"] or now["loads"] < was["loads"]
        # Time down only grew (but for the second a kill -9 may lose), so the ratio did not rise beyond it.
        assert 0 < after["24h"] <= now["upMs"] / (now["upMs"] + was["downMs"] - lost)
        current = after["current"]
        assert current["state"] == "down" and current["since"] == before["current"]["since"]
        assert current["watchedSince"] > current["since"]
        gap = after["unwatched"][-1]
        assert gap["to"] == current["watchedSince"]
        gap_from = datetime.fromisoformat(gap["from"].replace("Z", "+00:00")).timestamp() * 1000
        assert stopped_at - gap_from < 1_500, "the watch ended with the last save before the stop"
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=3)
