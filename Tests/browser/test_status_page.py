"""The public status page (`status:` in the deck file): read with and without JavaScript, kept live
when a public panel fails, reachable without the token the rest asks for, its Atom feed valid, and
nothing private in any of its documents while private and public panels change."""
from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path

import feedparser
from lxml import etree

from polling import wait_for

# Every string here is private: none may be read from a status document, whatever the panels do.
PRIVATE = [
    "zqDeckTitle", "zq-web-id", "zqWebTitle", "zqWebInfo", "zqWebFailure", "db.zq-host.internal",
    "zq-group-id", "zqGroupTitle", "zq-pay-url", "zqPayTitle", "zq-pay-cmd", "zqPayCmdTitle", "zqPayCmdInfo",
    "zq-private-id", "zqPrivateTitle", "zqPrivateInfo", "zqPrivateFailure", "127.0.0.1:9", "sh -c", "test -f",
    "flag-web", "flag-private",
]


def write_status_deck(folder: Path) -> Path:
    """A deck of a public panel (Website: up while `flag-web` exists), a public group (Payments: an
    http panel of a closed port and a command) and a private panel (up while `flag-private` exists),
    each of their ids, titles, commands, hosts and outputs private."""
    folder.mkdir(parents=True, exist_ok=True)
    web, private = folder / "flag-web", folder / "flag-private"
    web.touch()
    config = folder / "deck.yaml"
    config.write_text(f"""title: zqDeckTitle
statedeckPanel: false
groups:
  - {{ id: zq-group-id, title: zqGroupTitle }}
panels:
  - id: zq-web-id
    title: zqWebTitle
    command: {{ run: [sh, -c, "test -f {web} && echo zqWebInfo || {{ echo zqWebFailure db.zq-host.internal; exit 3; }}"] }}
    refresh: 1s
  - id: zq-pay-url
    title: zqPayTitle
    group: zq-group-id
    http: {{ url: "http://127.0.0.1:9/zq-pay-url" }}
    refresh: 2s
  - id: zq-pay-cmd
    title: zqPayCmdTitle
    group: zq-group-id
    command: {{ run: [sh, -c, "echo zqPayCmdInfo"] }}
    refresh: 10m
  - id: zq-private-id
    title: zqPrivateTitle
    command: {{ run: [sh, -c, "test -f {private} && echo zqPrivateInfo || {{ echo zqPrivateFailure; exit 1; }}"] }}
    refresh: 1s
status:
  title: Example status
  description: How Example runs
  links: [{{ title: Help, url: "https://example.com/help" }}]
  panels: [{{ id: zq-web-id, name: Website }}]
  groups: [{{ id: zq-group-id, name: Payments }}]
""")
    return config


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def status_server(make_server, tmp_path, args=()):
    srv = make_server(config=write_status_deck(tmp_path / "deck"), debug=False, args=args)
    srv.wait_panel("zq-web-id", lambda p: p["phase"] == "loaded")
    return srv


def line_state(page, name: str) -> str:
    return page.locator(".lines li", has=page.locator("b", has_text=name)).locator("span").inner_text()


def test_the_page_reads_whole_without_javascript(make_server, tmp_path, new_context, problems):
    srv = status_server(make_server, tmp_path)
    page = problems.watch(new_context(java_script_enabled=False).new_page())
    # The days read at start hold no result yet; they are read again in the background once asked for.
    page.goto(srv.url + "/status")
    wait_for(lambda: page.reload() and "uptime" in page.locator(".lines li").first.locator("small").inner_text(),
             timeout=20, message="the page never showed Website's uptime")
    assert page.title() == "Example status"
    assert page.locator("h1").inner_text() == "Example status"
    assert line_state(page, "Website") == "Operational"
    assert page.locator(".overall").inner_text() != ""
    assert page.locator(".lines li").count() == 2
    # Each line's 90 days, an image drawn without a script, and the share of them up.
    images = page.locator(".lines img")
    assert images.count() == 2
    wait_for(lambda: images.evaluate_all("all => all.every(i => i.complete && i.naturalWidth > 0)"), timeout=10)
    assert "uptime" in page.locator(".lines li").first.locator("small").inner_text()
    assert page.locator("html").get_attribute("data-live") is None
    # Styled by its own file: the overall line is coloured.
    colour = page.locator(".overall").evaluate("e => getComputedStyle(e).backgroundColor")
    assert colour not in ("rgba(0, 0, 0, 0)", "transparent")


def test_the_page_follows_a_public_panel_that_fails(make_server, tmp_path, new_context, problems):
    srv = status_server(make_server, tmp_path)
    page = problems.watch(new_context().new_page())
    page.goto(srv.url + "/status")
    page.wait_for_function("document.documentElement.dataset.live === 'on'")
    assert line_state(page, "Website") == "Operational"
    (tmp_path / "deck" / "flag-web").unlink()
    srv.wait_panel("zq-web-id", lambda p: p["phase"] == "error")
    # Fetched again every 10 s, each answer at most 5 s old.
    wait_for(lambda: line_state(page, "Website") == "Down", timeout=30, message="the page never showed Website down")
    assert "down" in page.locator(".overall").inner_text().lower()


def test_no_status_document_tells_anything_private(make_server, tmp_path):
    srv = status_server(make_server, tmp_path)
    srv.wait_panel("zq-pay-url", lambda p: p["phase"] == "error")
    srv.wait_panel("zq-private-id", lambda p: p["phase"] == "error")
    documents: list[str] = []

    def read_all() -> None:
        for path in ("/status", "/status/state.json", "/status/feed.atom", "/badge/zq-web-id.svg",
                     "/badge/zq-web-id.svg?uptime=24h", "/status/days/0.svg", "/status/days/1.svg"):
            status, _, body = fetch(srv.url + path)
            assert status == 200, (path, body)
            documents.append(body)

    def website_is(state: str) -> bool:
        """Whether both pages say so: each is kept up to 5 s, apart."""
        facts = json.loads(fetch(srv.url + "/status/state.json")[2])
        html = fetch(srv.url + "/status")[2]
        words = {"up": "Operational", "down": "Down"}[state]
        return facts["lines"][0]["state"] == state and f"<b>Website</b> <span>{words}</span>" in html

    read_all()
    # A private and a public panel change, and change back: each state's documents are read.
    (tmp_path / "deck" / "flag-private").touch()
    (tmp_path / "deck" / "flag-web").unlink()
    srv.wait_panel("zq-private-id", lambda p: p["phase"] == "loaded")
    wait_for(lambda: website_is("down"), timeout=15)
    read_all()
    (tmp_path / "deck" / "flag-web").touch()
    (tmp_path / "deck" / "flag-private").unlink()
    srv.wait_panel("zq-private-id", lambda p: p["phase"] == "error")
    wait_for(lambda: website_is("up"), timeout=15)
    read_all()
    for document in documents:
        for secret in PRIVATE:
            assert secret not in document, f"{secret!r} is told in:\n{document[:2000]}"
    # The facts are there: a test that finds nothing because nothing was said would prove nothing.
    assert "Website" in documents[0] and "Payments" in documents[0]
    assert "<title>Website: down</title>" in documents[10]


def test_the_feed_is_valid_atom(make_server, tmp_path):
    srv = status_server(make_server, tmp_path)
    (tmp_path / "deck" / "flag-web").unlink()
    srv.wait_panel("zq-web-id", lambda p: p["phase"] == "error")
    status, headers, body = fetch(srv.url + "/status/feed.atom")
    assert status == 200
    assert headers["Content-Type"] == "application/atom+xml; charset=utf-8"
    # Fetched by the parser itself, which reads the answer's type and resolves links against its address.
    parsed = feedparser.parse(srv.url + "/status/feed.atom")
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    assert parsed.feed.title == "Example status"
    assert parsed.feed.author == "Example status"
    assert parsed.feed.links[0].href == srv.url + "/status/feed.atom"
    assert parsed.entries, "no entry"
    assert any(entry.title == "Website is down" for entry in parsed.entries)
    atom = "{http://www.w3.org/2005/Atom}"
    root = etree.fromstring(body.encode())
    assert root.tag == atom + "feed"
    for name in ("id", "title", "updated", "author"):
        assert root.find(atom + name) is not None, name
    assert root.find(f"{atom}link[@rel='self']").get("href") == "/status/feed.atom"
    uuid = re.compile(r"^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
    ids = [entry.findtext(atom + "id") for entry in root.iter(atom + "entry")]
    assert all(uuid.match(i) for i in ids + [root.findtext(atom + "id")]), ids
    assert len(set(ids)) == len(ids), "two entries share an id"
    for entry in root.iter(atom + "entry"):
        for name in ("id", "title", "updated"):
            assert entry.find(atom + name) is not None, name
        assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$", entry.findtext(atom + "updated"))


def test_the_status_page_needs_no_token_while_the_dashboard_does(make_server, tmp_path):
    token = tmp_path / "token"
    token.write_text("a-token-of-the-status-test-0123456789\n")
    token.chmod(0o600)
    srv = make_server(config=write_status_deck(tmp_path / "deck"), debug=False, args=["--token-file", str(token)])
    for path in ("/status", "/status/state.json", "/status/feed.atom", "/status/status.css", "/status/status.js",
                 "/badge/zq-web-id.svg"):
        assert fetch(srv.url + path)[0] == 200, path
    for path in ("/", "/api/state", "/app.js", "/badge/zq-private-id.svg", "/badge/zq-pay-cmd.svg"):
        assert fetch(srv.url + path)[0] == 403, path
    # Another site may embed the public panel's badge.
    status, headers, _ = fetch(srv.url + "/badge/zq-web-id.svg", {"Sec-Fetch-Site": "cross-site", "Origin": "https://elsewhere.example"})
    assert status == 200
    assert headers["Cross-Origin-Resource-Policy"] == "cross-origin"


def test_a_deck_without_status_has_no_page(server):
    assert fetch(server.url + "/status")[0] == 404
    assert fetch(server.url + "/status/state.json")[0] == 404


def test_incidents_show_under_public_names_and_those_of_hidden_panels_do_not(make_server, tmp_path, new_context, problems):
    srv = status_server(make_server, tmp_path)
    for title, panels in (("Slow checkout", ["zq-pay-cmd", "zq-private-id"]), ("zqHiddenIncident", ["zq-private-id"]),
                          ("Upgrade on Sunday", [])):
        status, incident = srv.request("POST", "/api/incidents", {"title": title, "panels": panels, "message": f"{title}: looking"})
        assert status == 201, incident
    page = problems.watch(new_context().new_page())
    page.goto(srv.url + "/status")
    wait_for(lambda: page.reload() and page.locator(".incident").count() == 2, timeout=20,
             message="the page never showed the two public incidents")
    checkout = page.locator(".incident", has=page.locator("h3", has_text="Slow checkout"))
    assert checkout.locator(".affects").inner_text() == "Affects Payments"
    assert "Slow checkout: looking" in checkout.inner_text()
    assert page.locator(".incident", has=page.locator("h3", has_text="Upgrade on Sunday")).locator(".affects").inner_text() == "Announcement"
    for path in ("/status", "/status/state.json", "/status/feed.atom"):
        body = fetch(srv.url + path)[2]
        assert "zqHiddenIncident" not in body and "zq-private-id" not in body, path
