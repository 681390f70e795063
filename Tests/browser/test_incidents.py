"""Incidents and announcements on the page: the banner under the header shows each open one from
the page's load and as the stream tells; the header's Incidents dialog opens one over panels picked
from the deck, posts an update and resolves it; and each step is told to the deck file's
`incidents.notify` targets (PROTOCOL.md, "Incidents and announcements")."""
from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from helpers import panel, tid, wait_live
from polling import wait_for

DECK = """title: Incidents
statedeckPanel: false
panels:
  - id: db
    title: Database
    heartbeat: { period: 1h, grace: 5m, key: browser-incidents-key-1 }
  - id: web
    title: Web
    heartbeat: { period: 1h, grace: 5m, key: browser-incidents-key-2 }
"""

# A time today as the page writes it (local time), its date before it when not today.
TIME = re.compile(r"^([^()]+ )?\d\d:\d\d$")


def incident_deck(folder: Path, extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    deck = folder / "deck.yaml"
    deck.write_text(DECK + extra)
    return deck


def open_incident(srv, title: str, panels: list[str], message: str) -> dict:
    status, incident = srv.request("POST", "/api/incidents", {"title": title, "panels": panels, "message": message})
    assert status == 201, incident
    return incident


def update(srv, incident_id: str, status: str, message: str) -> dict:
    code, incident = srv.request("POST", f"/api/incidents/{incident_id}/updates", {"status": status, "message": message})
    assert code == 200, incident
    return incident


def test_the_banner_shows_each_open_incident_from_the_load_and_as_it_changes(make_server, tmp_path, page: Page):
    srv = make_server(config=incident_deck(tmp_path / "deck"))
    opened = open_incident(srv, "Slow answers", ["db"], "Looking into it")
    page.goto(srv.url + "/")
    wait_live(page)
    banner = page.locator(tid("incident-banner"))
    expect(banner).to_be_visible()
    item = banner.locator(f"{tid('incident-banner-item')}[data-incident-id='{opened['id']}']")
    expect(item).to_contain_text("Slow answers")
    expect(item.locator(tid("incident-status"))).to_have_text("Investigating")
    expect(item.locator(tid("incident-banner-message"))).to_have_text("Looking into it")
    expect(item.locator(tid("incident-banner-time"))).to_have_text(TIME)

    update(srv, opened["id"], "identified", "The disk is full")
    expect(item.locator(tid("incident-status"))).to_have_text("Identified")
    expect(item.locator(tid("incident-banner-message"))).to_have_text("The disk is full")
    news = open_incident(srv, "Move on Sunday", [], "Read only from 02:00")
    expect(banner.locator(tid("incident-banner-item"))).to_have_count(2)
    expect(banner.locator(tid("incident-banner-item")).first).to_have_attribute("data-incident-id", news["id"])

    update(srv, opened["id"], "resolved", "Cleaned")
    update(srv, news["id"], "resolved", "Done")
    expect(banner).to_be_hidden()
    expect(page.locator(tid("incident-open"))).to_have_attribute("data-open", "0")


def test_the_dialog_opens_an_incident_updates_and_resolves_it(make_server, tmp_path, page: Page):
    srv = make_server(config=incident_deck(tmp_path / "deck"))
    page.goto(srv.url + "/")
    wait_live(page)
    expect(page.locator(tid("incident-dialog"))).to_have_count(0)   # joins the document at its first opening
    page.locator(tid("incident-open")).click()
    dialog = page.locator(tid("incident-dialog"))
    expect(dialog).to_be_visible()
    expect(dialog.locator(tid("incident-open-list"))).to_have_text("Nothing is open.")
    expect(dialog.locator(tid("incident-panel"))).to_have_count(2)

    dialog.locator(tid("incident-title")).fill("Slow answers")
    dialog.locator(f"{tid('incident-panel')}[value='db']").check()
    dialog.locator(tid("incident-new-status")).select_option("identified")
    dialog.locator(tid("incident-message")).fill("The disk is full")
    dialog.locator(tid("incident-open-submit")).click()
    item = dialog.locator(f"{tid('incident-open-list')} {tid('incident-item')}")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("Slow answers")
    expect(item).to_contain_text("Database")
    expect(dialog.locator(tid("incident-title"))).to_have_value("")
    status, listed = srv.request("GET", "/api/incidents")
    assert status == 200, listed
    [incident] = listed["incidents"]
    assert (incident["panels"], incident["status"], incident["updates"][0]["message"], incident["updates"][0]["author"]) \
        == (["db"], "identified", "The disk is full", "local")
    expect(page.locator(tid("incident-banner-item"))).to_have_count(1)

    item.locator(tid("incident-update-status")).select_option("monitoring")
    item.locator(tid("incident-update-message")).fill("Space freed; watching")
    item.locator(tid("incident-post")).click()
    expect(item.locator(tid("incident-update"))).to_have_count(2)
    expect(item.locator(tid("incident-update")).first).to_contain_text("Space freed; watching")
    expect(item.locator(tid("incident-status"))).to_have_text("Monitoring")

    item.locator(tid("incident-update-message")).fill("All good")
    item.locator(tid("incident-resolve")).click()
    past = dialog.locator(f"{tid('incident-past-list')} {tid('incident-item')}")
    expect(past).to_have_count(1)
    expect(past.locator(tid("incident-status"))).to_have_text("Resolved")
    expect(past.locator(tid("incident-update-form"))).to_have_count(0)
    expect(dialog.locator(tid("incident-open-list"))).to_have_text("Nothing is open.")
    expect(page.locator(tid("incident-banner"))).to_be_hidden()


def test_a_bad_incident_is_refused_and_the_dialog_keeps_what_was_typed(make_server, tmp_path, page: Page):
    srv = make_server(config=incident_deck(tmp_path / "deck"))
    page.goto(srv.url + "/")
    wait_live(page)
    page.locator(tid("incident-open")).click()
    dialog = page.locator(tid("incident-dialog"))
    dialog.locator(tid("incident-title")).fill("x" * 200)
    dialog.locator(tid("incident-message")).fill("   ")
    dialog.locator(tid("incident-open-submit")).click()
    expect(page.locator(tid("toast"))).to_contain_text("field 'message' must not be empty")
    expect(dialog.locator(tid("incident-title"))).to_have_value("x" * 200)
    status, listed = srv.request("GET", "/api/incidents")
    assert listed["incidents"] == []


def test_each_step_is_told_to_the_incident_targets(make_server, receiver, tmp_path):
    hook = f'http://127.0.0.1:{receiver.port}/hook'
    srv = make_server(config=incident_deck(tmp_path / "deck", f'incidents:\n  notify: [{{ webhook: {{ url: "{hook}" }} }}]\n'))
    opened = open_incident(srv, "Slow answers", ["db", "web"], "Looking")
    update(srv, opened["id"], "identified", "Disk full")
    update(srv, opened["id"], "resolved", "Cleaned")
    told = [body["json"] for body in receiver.wait(3)]
    assert [t["event"] for t in told] == ["incident"] * 3
    assert [t["message"] for t in told[:2]] == [
        "Incident opened: Slow answers (investigating): Looking",
        "Incident update: Slow answers (identified): Disk full",
    ]
    assert re.fullmatch(r"Incident resolved after .+: Slow answers: Cleaned", told[2]["message"]), told[2]
    assert [t["incident"]["status"] for t in told] == ["investigating", "identified", "resolved"]
    assert all(t["incident"]["id"] == opened["id"] and t["incident"]["panels"] == ["db", "web"] for t in told)
    assert all(t["panel"] == "statedeck" and t["title"] == "Slow answers" and t["incident"]["author"] == "local" for t in told)
    assert told[0]["at"] == opened["openedAt"] and told[2]["downSince"] == opened["openedAt"]
    entries = wait_for(lambda: (lambda log: log if len(log) == 3 else None)(srv.request("GET", "/api/notify/log")[1]["entries"]),
                       5, "the log never held the three steps")
    assert [(e["event"], e["outcome"]) for e in entries] == [("incident", "sent")] * 3


def test_axe_finds_no_violations_in_the_banner_and_the_dialog(make_server, tmp_path, page: Page):
    from test_accessibility import describe, run_axe

    srv = make_server(config=incident_deck(tmp_path / "deck"))
    opened = open_incident(srv, "Slow answers", ["db"], "Looking into it")
    update(srv, opened["id"], "resolved", "Cleaned")
    open_incident(srv, "Move on Sunday", [], "Read only from 02:00")
    page.goto(srv.url + "/")
    wait_live(page)
    expect(page.locator(tid("incident-banner-item"))).to_have_count(1)
    violations = run_axe(page, context="[data-testid=incident-banner]")
    assert not violations, describe(violations)
    page.locator(tid("incident-open")).click()
    dialog = page.locator(tid("incident-dialog"))
    expect(dialog.locator(f"{tid('incident-past-list')} {tid('incident-item')}")).to_have_count(1)
    violations = run_axe(page, context="[data-testid=incident-dialog]")
    assert not violations, describe(violations)


def test_changes_sent_one_at_a_time_read_the_same_live_after_a_reload_and_at_a_past_moment(make_server, tmp_path, page: Page):
    """Each incident and window changed reaches the page as that one item (`incident`, `window`),
    which the page merges into what it holds: the banner and the cards show the same as a page
    loaded afterwards, and a past moment shows the lists as they were then."""
    srv = make_server(config=incident_deck(tmp_path / "deck"))
    page.goto(srv.url + "/")
    wait_live(page)
    first = open_incident(srv, "Slow answers", ["db"], "Looking into it")
    second = open_incident(srv, "Planned work", [], "Tonight at ten")
    third = open_incident(srv, "Web down", ["web"], "Down")
    update(srv, third["id"], "resolved", "Back")
    status, swap = srv.request("POST", "/api/maintenance", {"panels": ["web"], "minutes": 30, "reason": "Certificate swap"})
    assert status == 201, swap
    status, moved = srv.request("POST", "/api/maintenance", {"panels": ["db"], "minutes": 30, "reason": "Moving racks"})
    assert status == 201, moved
    status, ended = srv.request("DELETE", f"/api/maintenance/{moved['id']}")
    assert status == 200, ended
    then = update(srv, first["id"], "identified", "The disk is full")["updates"][-1]["at"]
    update(srv, second["id"], "resolved", "Done")

    def expect_lists(open_now: list[dict], first_status: str) -> None:
        items = page.locator(tid("incident-banner-item"))
        expect(items).to_have_count(len(open_now))
        assert items.evaluate_all("items => items.map(i => i.dataset.incidentId)") == [i["id"] for i in open_now]
        one = page.locator(f"{tid('incident-banner-item')}[data-incident-id='{first['id']}']")
        expect(one.locator(tid("incident-status"))).to_have_text(first_status)
        expect(one.locator(tid("incident-banner-message"))).to_have_text("The disk is full")
        expect(panel(page, "web").locator(tid("maintenance-line"))).to_contain_text("Certificate swap")
        expect(panel(page, "db").locator(tid("maintenance-line"))).to_have_count(0)

    expect_lists([first], "Identified")
    page.reload()
    wait_live(page)
    expect_lists([first], "Identified")
    page.goto(srv.url + "/?at=" + then)
    expect(page.locator(tid("moment-banner"))).to_be_visible()
    expect_lists([second, first], "Identified")
