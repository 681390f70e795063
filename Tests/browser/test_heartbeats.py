"""A heartbeat panel on the page: what it expects and the URL its job pings (copyable, and as a curl
line) from before its first ping, then the card turned by real pings sent to the server: up with the
body's first line, running, failed with the body in its details, and late."""
from __future__ import annotations

import urllib.request
from pathlib import Path

from playwright.sync_api import Page, expect

from helpers import panel, tid, wait_live
from test_access import add_token

KEY = "browser-test-key-0001"
DECK = """title: Heartbeats
statedeckPanel: false
panels:
  - id: job
    title: Nightly job
    heartbeat: {{ period: {period}, grace: {grace}, key: {key} }}
"""


def heartbeat_deck(folder: Path, period: str = "1m", grace: str = "5s") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    deck = folder / "deck.yaml"
    deck.write_text(DECK.format(period=period, grace=grace, key=KEY))
    return deck


def ping(srv, suffix: str = "", body: str = "") -> None:
    """What a job does: POSTs its output to its ping URL (plus /start, /fail, /{exit-status})."""
    request = urllib.request.Request(f"{srv.url}/ping/{KEY}{suffix}", data=body.encode(), method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200


def clock(page: Page, iso: str) -> str:
    """A time as the page writes it."""
    return page.evaluate("async (t) => (await import('/dom.js')).clockTime(t)", iso)


def open_waiting_card(make_server, tmp_path, open_page, period: str = "1m", grace: str = "5s"):
    """A server with the heartbeat deck and the page on it, its card waiting for the first ping."""
    srv = make_server(config=heartbeat_deck(tmp_path / "deck", period, grace))
    page = open_page(srv)
    card = panel(page, "job")
    expect(card.locator(tid("heartbeat-waiting"))).to_have_text("Waiting for the first ping")
    return srv, page, card


def open_with_clipboard(srv, new_context, problems, path: str = "/") -> Page:
    context = new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=srv.url)
    page = problems.watch(context.new_page())
    page.goto(srv.url + path)
    wait_live(page)
    return page


def test_a_heartbeat_waiting_for_its_first_ping_says_so_and_gives_its_url_to_copy(make_server, tmp_path, new_context, problems):
    srv = make_server(config=heartbeat_deck(tmp_path / "deck"))
    page = open_with_clipboard(srv, new_context, problems)
    card = panel(page, "job")
    url = f"{srv.url}/ping/{KEY}"

    expect(card).to_have_attribute("data-view", "initial")
    expect(card.locator(tid("heartbeat-waiting"))).to_have_text("Waiting for the first ping")
    expect(card.locator(tid("load-now"))).to_have_count(0)
    expect(card.locator(tid("panel-refresh"))).to_be_hidden()
    expect(card.locator(tid("phase-label"))).to_have_text("Waiting")
    expect(card.locator(tid("heartbeat-expects"))).to_have_text("Expected every 1 min, 5 s grace")
    # The body says it waits; the line under it does not say it again.
    expect(card.locator(tid("heartbeat-standing"))).to_be_hidden()
    expect(card.get_by_label("Ping URL", exact=True)).to_have_value(url)
    expect(card.get_by_label("curl command", exact=True)).to_have_value(f"curl -fsS -m 10 --retry 3 {url}")
    expect(card.get_by_label("Ping URL", exact=True)).to_have_attribute("readonly", "")

    card.get_by_role("button", name="Copy the ping URL").click()
    expect(card.locator(tid("heartbeat-copy-status"))).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == url

    # From the keyboard: the curl line's field, then its Copy button.
    card.get_by_label("curl command", exact=True).focus()
    page.keyboard.press("Tab")
    expect(card.get_by_role("button", name="Copy the curl command")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_function("async (u) => (await navigator.clipboard.readText()) === `curl -fsS -m 10 --retry 3 ${u}`", arg=url)


def test_a_refused_copy_selects_the_url_for_ctrl_c_and_says_so(make_server, tmp_path, new_context, problems):
    srv = make_server(config=heartbeat_deck(tmp_path / "deck"))
    page = open_with_clipboard(srv, new_context, problems)
    card = panel(page, "job")
    page.evaluate("""() => Object.defineProperty(navigator.clipboard, "writeText", {
        value: () => Promise.reject(new DOMException("denied", "NotAllowedError")),
    })""")

    card.get_by_role("button", name="Copy the ping URL").click()
    expect(card.locator(tid("heartbeat-copy-status"))).to_contain_text("press Ctrl+C")
    field = card.get_by_label("Ping URL", exact=True)
    expect(field).to_be_focused()
    assert field.evaluate("(f) => f.selectionStart === 0 && f.selectionEnd === f.value.length")


def test_the_compact_line_says_it_waits_for_its_first_ping(make_server, tmp_path, page):
    srv = make_server(config=heartbeat_deck(tmp_path / "deck"))
    page.goto(srv.url + "/?density=compact")
    row = page.locator(f"{tid('panel-row')}[data-panel-id='job']")
    expect(row.locator(tid("row-summary"))).to_have_text("Waiting for first ping")
    expect(row).to_have_attribute("aria-label", "Nightly job: Waiting for first ping")


def test_pings_turn_the_card_up_then_running_then_failed(make_server, tmp_path, open_page):
    srv, page, card = open_waiting_card(make_server, tmp_path, open_page)

    ping(srv, body="Backup done: 3 files\nwrote /var/backups/a\n")
    expect(card).to_have_attribute("data-view", "loaded")
    expect(card.locator(tid("info-summary"))).to_have_text("Backup done: 3 files")
    status = srv.panel("job")["heartbeat"]
    standing = card.locator(tid("heartbeat-standing"))
    expect(standing).to_have_text(f"Last ping {clock(page, status['lastPing'])} · Late after {clock(page, status['lateAt'])}")
    # The URL stays on the card once the job pings.
    expect(card.get_by_label("Ping URL", exact=True)).to_have_value(f"{srv.url}/ping/{KEY}")

    ping(srv, "/start")
    started = srv.wait_panel("job", lambda s: s["heartbeat"]["runningSince"] is not None)["heartbeat"]
    expect(standing).to_contain_text(f"Running since {clock(page, started['runningSince'])}")
    expect(card.locator(tid("info-summary"))).to_have_text("Backup done: 3 files")

    ping(srv, "/fail", body="disk full\nno space left on /var/backups")
    expect(card).to_have_attribute("data-view", "error")
    error = card.locator(tid("error-card"))
    expect(error).to_have_attribute("data-kind", "jobFailed")
    expect(error.locator(tid("error-title"))).to_have_text("Job failed")
    details = error.locator(tid("error-details"))
    details.locator("summary").click()
    expect(details).to_contain_text("no space left on /var/backups")
    expect(standing).not_to_contain_text("Running since")


def test_a_run_that_does_not_come_in_time_shows_the_no_ping_card(make_server, tmp_path, open_page):
    srv, _, card = open_waiting_card(make_server, tmp_path, open_page, period="2s", grace="1s")
    expect(card.locator(tid("heartbeat-expects"))).to_have_text("Expected every 2 s, 1 s grace")

    ping(srv, body="ok")
    expect(card.locator(tid("info-summary"))).to_have_text("ok")
    # Due 2 s after the run, late 1 s after that: the server's alarm, not the page, decides.
    error = card.locator(tid("error-card"))
    expect(error).to_have_attribute("data-kind", "pingMissed", timeout=15_000)
    expect(error.locator(tid("error-title"))).to_have_text("No ping")
    expect(card).to_have_attribute("data-view", "error")


def test_axe_finds_no_violations_on_heartbeat_cards(make_server, tmp_path, open_page):
    from test_accessibility import describe, run_axe

    srv, page, card = open_waiting_card(make_server, tmp_path, open_page)
    assert not (violations := run_axe(page)), describe(violations)
    ping(srv, body="ok")
    expect(card.locator(tid("heartbeat-standing"))).to_contain_text("Last ping")
    assert not (violations := run_axe(page)), describe(violations)


def test_a_viewer_is_shown_no_ping_url_and_an_operator_the_curl_line(make_server, tmp_path, new_context, problems):
    """The key in a ping URL forges the job's results: a viewer's page never holds it, and says an
    operator sees it; an operator's card shows it with its curl line."""
    access = tmp_path / "access.yaml"
    tokens = {role: add_token(access, name, role) for name, role in [("vera", "viewer"), ("otto", "operator")]}
    srv = make_server(config=heartbeat_deck(tmp_path / "deck"), args=["--access", str(access)])
    url = f"{srv.url}/ping/{KEY}"

    viewer = problems.watch(new_context().new_page())
    viewer.goto(f"{srv.url}/?token={tokens['viewer']}")
    wait_live(viewer)
    card = panel(viewer, "job")
    expect(card.locator(tid("heartbeat-expects"))).to_have_text("Expected every 1 min, 5 s grace")
    expect(card.locator(tid("heartbeat-url-note"))).to_have_text("An operator sees the ping URL here.")
    expect(card.get_by_label("Ping URL", exact=True)).to_be_hidden()
    expect(card.get_by_label("curl command", exact=True)).to_be_hidden()
    assert KEY not in viewer.content()
    assert KEY not in viewer.evaluate("fetch('/api/state').then(r => r.text())")

    operator = problems.watch(new_context().new_page())
    operator.goto(f"{srv.url}/?token={tokens['operator']}")
    wait_live(operator)
    card = panel(operator, "job")
    expect(card.get_by_label("Ping URL", exact=True)).to_have_value(url)
    expect(card.get_by_label("curl command", exact=True)).to_have_value(f"curl -fsS -m 10 --retry 3 {url}")
    expect(card.locator(tid("heartbeat-url-note"))).to_be_hidden()

