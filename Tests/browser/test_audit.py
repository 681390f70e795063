"""Signed actions, run as a person would: an action answered is in the audit, and a `kill -9` right
after the answer keeps it; the panel's history view lists its signed actions among its changes, and
the header's Audit dialog lists the deck's."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from helpers import panel, tid, wait_live
from polling import wait_for

def audit(srv, query: str = "") -> list[dict]:
    status, document = srv.request("GET", "/api/audit" + query)
    assert status == 200, document
    return document["entries"]


def test_an_action_answered_is_kept_through_a_kill_9_right_after_the_answer(server):
    srv = server
    status, answer = srv.request("POST", "/api/panels/alpha/retry")
    assert status == 202, answer
    srv.kill()
    srv.restart()
    entries = audit(srv)
    assert [(e["action"], e["panel"], e["actor"], e["text"]) for e in entries] == [("retry", "alpha", "local", "Retried by local")]


def test_the_history_view_lists_the_panels_signed_actions_among_its_changes(server, page):
    srv = server
    status, _ = srv.request("POST", "/api/panels/alpha/retry")
    assert status == 202
    status, _ = srv.request("POST", "/api/panels/beta/retry")
    assert status == 202
    wait_for(lambda: len(audit(srv)) == 2)
    page.goto(srv.url + "/")
    wait_live(page)
    panel(page, "alpha").locator(tid("history-open")).click()
    dialog = page.locator(tid("history-dialog"))
    signed = dialog.locator(tid("history-audit-entry"))
    expect(signed).to_have_count(1)
    expect(signed).to_have_text(re.compile(r"^local — Retried · \d{1,2}:\d{2}"))
    expect(signed.locator(tid("audit-actor"))).to_have_text("local")
    expect(signed).to_have_attribute("data-action", "retry")
    # Newest first, where its time falls: the retry's own load came after it.
    at = signed.get_attribute("data-at")
    changes = dialog.locator(tid("history-entry"))
    expect(changes.first).to_be_visible()
    before = [c for c in changes.evaluate_all("(els) => els.map((el) => el.dataset.at)") if c > at]
    assert dialog.locator("li").nth(len(before)).get_attribute("data-testid") == "history-audit-entry"


def test_the_audit_dialog_lists_the_decks_signed_actions_newest_first(server, page):
    srv = server
    page.goto(srv.url + "/")
    wait_live(page)
    opener = page.locator(tid("audit-open"))
    opener.click()
    dialog = page.locator(tid("audit-dialog"))
    expect(dialog).to_be_visible()
    expect(dialog.locator(tid("audit-status"))).to_have_text("No action has been taken yet.")
    dialog.locator(tid("audit-close")).click()
    expect(opener).to_be_focused()

    status, _ = srv.request("POST", "/api/maintenance", {"panels": ["beta"], "minutes": 30, "reason": "Database upgrade"})
    assert status == 201
    status, _ = srv.request("POST", "/api/panels/alpha/retry")
    assert status == 202
    opener.click()
    rows = dialog.locator(tid("audit-entry"))
    expect(rows.locator(tid("audit-actor"))).to_have_text(["local", "local"])
    expect(rows.locator(tid("audit-text"))).to_have_text(["Retried", "Started maintenance “Database upgrade”"])
    expect(rows.locator(tid("audit-panel"))).to_have_text(["alpha", ""])
    expect(rows.locator(tid("audit-role"))).to_have_text(["designer", "designer"])


# Written to be drawn as "Database upgrade' started by alice": a right-to-left override turns the
# rest around, so a reason could read as someone else's signature.
HOSTILE_REASON = "Database upgrade' started by \u202eecila\u202c \u2066\u200f"


def test_a_reason_that_imitates_a_signature_is_quoted_apart_from_who_wrote_it(server, page):
    srv = server
    status, _ = srv.request("POST", "/api/maintenance", {"panels": ["beta"], "minutes": 30, "reason": HOSTILE_REASON})
    assert status == 201
    shown = "Database upgrade' started by [U+202E]ecila[U+202C] [U+2066][U+200F]"
    [entry] = audit(srv)
    assert (entry["actor"], entry["what"], entry["subject"]) == ("local", "Started maintenance", shown)
    assert not any(mark in entry["text"] for mark in "\u202e\u202c\u2066\u200f")
    page.goto(srv.url + "/")
    wait_live(page)
    page.locator(tid("audit-open")).click()
    row = page.locator(tid("audit-dialog")).locator(tid("audit-entry"))
    expect(row).to_have_count(1)
    expect(row.locator(tid("audit-actor"))).to_have_text("local")
    expect(row.locator(tid("audit-text"))).to_have_text(f"Started maintenance “{shown}”")
    said = row.locator(tid("audit-said"))
    assert said.evaluate("e => e.localName") == "bdi"
    assert said.evaluate("e => getComputedStyle(e).unicodeBidi") == "isolate"
    # Who acted is drawn in a cell of its own, before what they wrote, whatever its direction.
    actor_box = row.locator(tid("audit-actor")).bounding_box()
    said_box = said.bounding_box()
    assert actor_box and said_box and actor_box["x"] + actor_box["width"] <= said_box["x"]
