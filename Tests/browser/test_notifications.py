"""Notifications from a deck file's notify: entries, to receivers on loopback: a webhook, and
Apprise's own CLI (a command target) posting to a json:// receiver (PROTOCOL.md, "Notifications")."""
from __future__ import annotations

import json
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

APPRISE = Path(sys.executable).with_name("apprise")


class Receiver:
    """An HTTP server on a free loopback port keeping the JSON body of every POST."""

    def __init__(self):
        bodies: list[dict] = []
        self.bodies = bodies

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                bodies.append({"json": json.loads(self.rfile.read(length) or b"null"),
                               "authorization": self.headers.get("Authorization")})
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait(self, count: int, timeout: float = 20.0) -> list[dict]:
        deadline = time.monotonic() + timeout
        while len(self.bodies) < count:
            assert time.monotonic() < deadline, f"{len(self.bodies)} of {count} notifications came: {self.bodies}"
            time.sleep(0.1)
        return self.bodies

    def stop(self):
        self.server.shutdown()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.stop()


def flaky_deck(folder: Path, notify: str) -> Path:
    """One command panel, "Payments", failing every second until the file `up` exists."""
    folder.mkdir(parents=True, exist_ok=True)
    deck = folder / "deck.yaml"
    deck.write_text(
        "title: Notifications\n"
        "defaults: { refresh: 1s, retry: none, minimumLoading: 0ms }\n"
        "panels:\n"
        "  - id: payments\n"
        "    title: Payments\n"
        f'    command: {{ run: ["sh", "-c", "test -f {folder / "up"} && echo fine"] }}\n'
        f"    notify:\n{notify}")
    return deck


def test_a_webhook_hears_the_failure_once_and_the_recovery_once(make_server, receiver, tmp_path):
    deck = flaky_deck(tmp_path / "deck", (
        f'      - webhook: {{ url: "http://127.0.0.1:{receiver.port}/hook", headers: {{ Authorization: "Bearer t0ken" }} }}\n'
        "        after: { failures: 2 }\n"))
    server = make_server(config=deck)
    failure = receiver.wait(1)[0]
    assert failure["authorization"] == "Bearer t0ken"
    body = failure["json"]
    assert body["event"] == "failure" and body["panel"] == "payments" and body["title"] == "Payments"
    assert body["error"]["kind"] == "commandFailed"
    assert body["message"] == f"Payments is down: {body['error']['title']}"
    time.sleep(3)   # three more failed loads: still one notification
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
        f'      - command: {{ run: ["{APPRISE}", "-t", "StateDeck", "-b", "{{message}}", "json://127.0.0.1:{receiver.port}/"] }}\n'
        "        after: { failures: 1 }\n"))
    make_server(config=deck)
    sent = receiver.wait(1)[0]["json"]
    assert sent["title"] == "StateDeck"
    assert sent["message"].startswith("Payments is down: ")
