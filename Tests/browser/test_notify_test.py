"""The notifications dialog: each notify target's "Send test" button sends the `test` notification
through the real target (a webhook receiver on loopback, a command) and draws what came back, and the
notification log is drawn as a table, newest first: the server's own, and fixed documents served in
its place for what a test cannot make happen (PROTOCOL.md, "Notifications")."""
from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Page, Route, expect

from helpers import tid
from polling import wait_for
from receivers import Receiver
from test_accessibility import describe, run_axe


def quiet_deck(folder: Path, notify: str) -> Path:
    """One panel that loads fine and only by hand, its outages told to `notify`'s entries."""
    folder.mkdir(parents=True, exist_ok=True)
    deck = folder / "deck.yaml"
    deck.write_text(
        "title: Notify tests\n"
        "panels:\n"
        "  - id: api\n"
        "    title: API\n"
        '    command: { run: [echo, fine] }\n'
        "    refresh: manual\n"
        f"    notify:\n{notify}")
    return deck


def webhook(receiver: Receiver) -> str:
    return f'      - webhook: {{ url: "http://127.0.0.1:{receiver.port}/hook" }}\n'


def open_dialog(page: Page):
    """Opens the dialog from the header; returns it."""
    page.locator(tid("notify-open")).click()
    dialog = page.locator(tid("notify-dialog"))
    expect(dialog).to_be_visible()
    return dialog


def send_test(page: Page, name: str):
    """Presses the target's "Send test" and waits for its answer; returns the answer's line."""
    row = page.locator(f"{tid('notify-target')}[data-target='{name}']")
    row.locator(tid("notify-send-test")).click()
    result = row.locator(tid("notify-result"))
    expect(result).not_to_have_attribute("data-outcome", "sending", timeout=15_000)
    return result


def test_a_test_from_the_page_reaches_the_webhook_and_the_dialog_says_sent(make_server, open_page, receiver, tmp_path):
    server = make_server(config=quiet_deck(tmp_path / "deck", webhook(receiver)))
    server.settle()
    page = open_page(server)
    dialog = open_dialog(page)
    expect(dialog.locator(tid("notify-target-name"))).to_have_text(["webhook 127.0.0.1"])
    expect(dialog.locator(tid("notify-no-targets"))).to_be_hidden()
    expect(page.locator(tid("notify-send-test"))).to_be_focused()
    result = send_test(page, "webhook 127.0.0.1")
    expect(result).to_have_attribute("data-outcome", "sent")
    expect(result).to_have_text(re.compile(r"^Sent in \d+ ms$"))
    told = receiver.wait(1)[0]["json"]
    assert told["event"] == "test" and told["panel"] == "statedeck" and told["title"] == "Notify tests", told
    assert told["message"] == "Test notification from StateDeck: Notify tests"
    assert told["downSeconds"] == 0 and told["downSince"] == told["at"] and "error" not in told
    # The server's log has it, and the dialog asked again once the test had answered.
    logged = dialog.locator(tid("notify-log-entry")).first
    expect(logged).to_have_attribute("data-event", "test")
    expect(logged.locator(tid("notify-log-message"))).to_have_text("Test notification from StateDeck: Notify tests")
    expect(logged.locator(tid("notify-log-target"))).to_have_text("webhook 127.0.0.1")
    expect(logged.locator(tid("notify-log-outcome"))).to_have_text("sent")


def test_a_webhook_answering_500_shows_its_error_after_one_attempt(make_server, open_page, receiver, tmp_path):
    receiver.status = 500
    server = make_server(config=quiet_deck(tmp_path / "deck", webhook(receiver)))
    server.settle()
    page = open_page(server)
    open_dialog(page)
    result = send_test(page, "webhook 127.0.0.1")
    expect(result).to_have_attribute("data-outcome", "failed")
    expect(result).to_have_text(re.compile(r"^Failed: webhook 127\.0\.0\.1: HTTP 500 \(after \d+ ms\)$"))
    assert receiver.refused == 1, "a test is one attempt, not retried"
    expect(page.locator(tid("notify-log-outcome")).first).to_have_text("failed: webhook 127.0.0.1: HTTP 500")
    status, answer = server.request("POST", "/api/notify/test", {"target": "webhook 127.0.0.1"})
    assert status == 200, "a failed delivery is still an answer"
    [only] = answer["results"]
    assert only["outcome"] == "failed" and only["error"] == "webhook 127.0.0.1: HTTP 500" and only["ms"] >= 0, only


def test_a_command_target_is_run_with_the_test_event(make_server, open_page, tmp_path):
    told = tmp_path / "told.txt"
    server = make_server(config=quiet_deck(
        tmp_path / "deck", f'      - command: {{ shell: \'printf %s "$STATEDECK_EVENT" > {told}\' }}\n'))
    server.settle()
    page = open_page(server)
    open_dialog(page)
    result = send_test(page, "command /bin/sh")
    expect(result).to_have_attribute("data-outcome", "sent")
    assert told.read_text() == "test"


def test_unknown_targets_and_bad_bodies_get_their_answers(make_server, receiver, tmp_path):
    server = make_server(config=quiet_deck(tmp_path / "deck", webhook(receiver)))
    status, answer = server.request("POST", "/api/notify/test", {"target": "webhook elsewhere.example"})
    assert status == 404 and answer["error"]["code"] == "not_found"
    assert '"webhook 127.0.0.1"' in answer["error"]["message"], answer
    status, answer = server.request("POST", "/api/notify/test", {"name": "webhook 127.0.0.1"})
    assert status == 400 and answer["error"]["message"] == "field 'target' is missing", answer
    assert server.state()["settings"]["notifyTargets"] == [{"name": "webhook 127.0.0.1"}]
    assert receiver.bodies == []


LOG = {"entries": [
    {"at": "2026-11-25T10:45:00.000Z", "event": "test", "panels": ["statedeck"],
     "message": "Test notification from StateDeck: Notify tests", "target": "webhook 127.0.0.1",
     "outcome": "sent", "why": None},
    {"at": "2026-11-25T10:44:00.000Z", "event": "failure", "panels": ["api"], "message": "API is down: Timed out",
     "target": "webhook 127.0.0.1", "outcome": "held", "why": "dependency db down"},
    {"at": "2026-11-25T10:43:00.000Z", "event": "failure", "panels": ["api", "web"], "message": "API is down: Timed out",
     "target": "command apprise", "outcome": "silent", "why": "maintenance 'upgrade'"},
]}


def test_the_log_is_a_table_newest_first_asked_for_on_opening_and_after_a_test(make_server, open_page, page, receiver, tmp_path):
    served: list[str] = []

    def log(route: Route) -> None:
        served.append(route.request.method)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(LOG))

    page.route("**/api/notify/log", log)
    server = make_server(config=quiet_deck(tmp_path / "deck", webhook(receiver)))
    server.settle()
    open_page(server)
    dialog = open_dialog(page)
    rows = dialog.locator(tid("notify-log-entry"))
    expect(rows).to_have_count(3)
    expect(dialog.locator(tid("notify-log-message"))).to_have_text(
        ["Test notification from StateDeck: Notify tests", "API is down: Timed out", "API is down: Timed out"])
    expect(dialog.locator(tid("notify-log-target"))).to_have_text(["webhook 127.0.0.1", "webhook 127.0.0.1", "command apprise"])
    expect(dialog.locator(tid("notify-log-outcome"))).to_have_text(
        ["sent", "held: dependency db down", "silent: maintenance 'upgrade'"])
    expect(rows.first.locator("time")).to_have_attribute("datetime", "2026-11-25T10:45:00.000Z")
    expect(dialog.locator(tid("notify-log-status"))).to_have_attribute("data-state", "shown")
    send_test(page, "webhook 127.0.0.1")
    violations = run_axe(page, context="[data-testid=notify-dialog]")
    assert not violations, describe(violations)
    # Escape closes it and gives focus back to the header's button; opening it again asks again.
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.locator(tid("notify-open"))).to_be_focused()
    # A test sent asked again, once it had answered; opening the dialog again asks again.
    open_dialog(page)
    wait_for(lambda: len(served) == 3, message=lambda: f"the log was asked for {len(served)} times")
    assert served == ["GET"] * 3


def test_a_server_without_a_log_is_said_to_have_none(make_server, open_page, page, receiver, tmp_path):
    not_found = {"error": {"code": "not_found", "message": "no route"}}
    page.route("**/api/notify/log", lambda route: route.fulfill(status=404, content_type="application/json",
                                                                body=json.dumps(not_found)))
    server = make_server(config=quiet_deck(tmp_path / "deck", webhook(receiver)))
    server.settle()
    open_page(server)
    dialog = open_dialog(page)
    status = dialog.locator(tid("notify-log-status"))
    expect(status).to_have_attribute("data-state", "unavailable")
    expect(status).to_have_text("The notification log is unavailable on this server.")
    expect(dialog.locator(tid("notify-log"))).to_be_hidden()
    expect(page.locator(tid("toast"))).to_have_count(0)


def test_a_refused_test_and_a_deck_without_targets_are_said_in_the_dialog(make_server, open_page, page, receiver, tmp_path):
    refusal = {"error": {"code": "test_under_way",
                         "message": "a test of webhook 127.0.0.1 is under way; try again once it has answered"}}
    page.route("**/api/notify/test", lambda route: route.fulfill(status=429, content_type="application/json",
                                                                 body=json.dumps(refusal)))
    page.route("**/api/notify/log", lambda route: route.fulfill(status=200, content_type="application/json",
                                                                body='{"entries": []}'))
    server = make_server(config=quiet_deck(tmp_path / "deck", webhook(receiver)))
    server.settle()
    open_page(server)
    dialog = open_dialog(page)
    result = send_test(page, "webhook 127.0.0.1")
    expect(result).to_have_attribute("data-outcome", "refused")
    expect(result).to_have_text(f"Not sent: {refusal['error']['message']}")
    expect(page.locator(tid("toast"))).to_have_count(0)
    expect(dialog.locator(tid("notify-log-status"))).to_have_text("No notification has been sent yet.")
    page.keyboard.press("Escape")
    # The deck file edited to tell no one: the dialog follows the new state document.
    (tmp_path / "deck" / "deck.yaml").write_text(
        (tmp_path / "deck" / "deck.yaml").read_text().split("    notify:\n")[0] + "    notify: none\n")
    wait_for(lambda: server.state()["settings"]["notifyTargets"] == [])
    open_dialog(page)
    expect(dialog.locator(tid("notify-no-targets"))).to_be_visible()
    expect(dialog.locator(tid("notify-target"))).to_have_count(0)
    expect(dialog.locator(tid("notify-close"))).to_be_focused()
