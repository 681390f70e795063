"""The overview against the real server: the summary's counts and their filters, the failing count in
the title and the favicon, groups (headings in declaration order, their own counts, collapsed ones
still listing their failing panels), search ("/" and Escape), the view in the address (reload, back,
forward, beside the history dialog's own address), problems first, the compact lines, keyboard
navigation, and a large deck drawing and asking for the timelines of only the panels on screen."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, unquote, urlparse

import pytest
from playwright.sync_api import Page, expect

from conftest import flag_path
from helpers import panel, tid, wait_live
from polling import wait_for

def drawn_ids(page: Page, testid: str = "panel") -> list[str]:
    return page.locator(tid(testid)).evaluate_all("els => els.map((e) => e.dataset.panelId)")


def count(page: Page, state: str):
    return page.locator(tid(f"count-{state}"))


def query(page: Page) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)


@pytest.fixture
def grouped_server(make_server):
    """The test deck with its file panels in the group "files" and its commands in "commands"."""
    srv = make_server(grouped=True)
    srv.settle()
    return srv


def open_overview(page: Page, srv, path: str = "/") -> Page:
    """Opens the page at `path` and waits until its stream is open and a panel (card or line) is drawn."""
    page.goto(srv.url + path)
    expect(page.locator(tid("connection-status"))).to_have_attribute("data-state", "open", timeout=15_000)
    expect(page.locator("[data-nav]").first).to_be_attached(timeout=15_000)
    return page


# ---- the summary, the title and the favicon --------------------------------------------------------


def test_the_summary_counts_each_state_and_a_count_filters_to_it(server, page):
    open_overview(page, server)
    expect(count(page, "up")).to_have_attribute("data-count", "3")
    expect(count(page, "failing")).to_have_attribute("data-count", "1")
    expect(count(page, "loading")).to_have_attribute("data-count", "0")
    expect(count(page, "unknown")).to_have_attribute("data-count", "0")
    expect(count(page, "pinned")).to_be_hidden()
    expect(page.locator(tid("summary-total"))).to_have_text("4 panels")

    server.force("beta", {"state": "error", "error": {"kind": "timeout"}})
    server.force("alpha", {"state": "reset"})
    expect(count(page, "failing")).to_have_attribute("data-count", "2")
    expect(count(page, "unknown")).to_have_attribute("data-count", "1")
    expect(count(page, "up")).to_have_attribute("data-count", "1")
    expect(count(page, "pinned")).to_have_attribute("data-count", "2")
    expect(count(page, "failing")).to_have_accessible_name(re.compile(r"^2 failing$"))

    count(page, "failing").click()
    expect(count(page, "failing")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(tid("panel"))).to_have_count(2)
    assert drawn_ids(page) == ["beta", "flaky"]
    assert query(page)["state"] == ["failing"]
    expect(page.locator(tid("overview-status"))).to_have_text("2 of 4 panels match")

    count(page, "pinned").click()
    expect(page.locator(tid("panel"))).to_have_count(2)
    assert drawn_ids(page) == ["alpha", "beta"]

    count(page, "pinned").click()
    expect(count(page, "pinned")).to_have_attribute("aria-pressed", "false")
    expect(page.locator(tid("panel"))).to_have_count(4)
    assert "state" not in query(page)


def favicon_svg(page: Page) -> str:
    href = page.locator("link[rel='icon']").get_attribute("href")
    assert href.startswith("data:image/svg+xml,"), href
    return unquote(href.split(",", 1)[1])


def test_the_title_and_the_favicon_tell_the_failing_count(server, page):
    open_overview(page, server)
    expect(page).to_have_title("(1) Browser tests · StateDeck")
    expect(page.locator("link[rel='icon']")).to_have_attribute("data-count", "1")
    svg = favicon_svg(page)
    assert 'fill="#dc2626"' in svg and ">1</text>" in svg, svg

    server.force("beta", {"state": "error", "error": {"kind": "timeout"}})
    expect(page).to_have_title("(2) Browser tests · StateDeck")
    expect(page.locator("link[rel='icon']")).to_have_attribute("data-count", "2")
    assert ">2</text>" in favicon_svg(page)

    server.force("beta", {"state": "live"})
    flag_path(server).write_text("ok")
    server.request("POST", "/api/panels/flaky/retry")
    expect(page).to_have_title("Browser tests · StateDeck", timeout=15_000)
    expect(page.locator("link[rel='icon']")).to_have_attribute("href", "favicon.svg")


def test_a_background_tab_follows_in_its_title(server, page):
    """A tab in the background gets no animation frames: its title follows all the same."""
    open_overview(page, server)
    page.evaluate(
        """() => {
          Object.defineProperty(document, 'hidden', { get: () => true });
          Object.defineProperty(window, 'requestAnimationFrame', { value: () => 0 });
          document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    server.force("alpha", {"state": "error", "error": {"kind": "timeout"}})
    expect(page).to_have_title("(2) Browser tests · StateDeck")
    expect(page.locator("link[rel='icon']")).to_have_attribute("data-count", "2")


# ---- groups -----------------------------------------------------------------------------------------


def test_groups_are_drawn_in_order_with_their_counts_and_collapse_to_their_failures(grouped_server, page):
    server = grouped_server
    open_overview(page, server)
    groups = page.locator(tid("group"))
    expect(groups).to_have_count(2)
    assert groups.evaluate_all("els => els.map((e) => e.dataset.groupId)") == ["files", "commands"]
    files, commands = groups.nth(0), groups.nth(1)
    expect(files.locator(tid("group-toggle"))).to_have_text("File panels")
    expect(files.locator(tid("group-counts"))).to_have_text("2 up")
    expect(commands.locator(tid("group-count-failing"))).to_have_text("1 failing")
    expect(commands.locator(tid("group-count-up"))).to_have_text("1 up")
    assert drawn_ids(page) == ["alpha", "beta", "slow", "flaky"]
    expect(files.locator(tid("panel"))).to_have_count(2)

    toggle = commands.locator(tid("group-toggle"))
    expect(toggle).to_have_attribute("aria-expanded", "true")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    # Collapsed, the group still lists its failing panel, as a line under its heading.
    expect(commands.locator(tid("panel"))).to_have_count(0)
    expect(commands.locator(tid("panel-row"))).to_have_count(1)
    expect(commands.locator(tid("panel-row"))).to_have_attribute("data-panel-id", "flaky")
    assert query(page)["collapsed"] == ["commands"]

    # A failure in a collapsed group appears under its heading; its counts follow.
    server.force("slow", {"state": "error", "error": {"kind": "timeout"}})
    expect(commands.locator(tid("panel-row"))).to_have_count(2)
    expect(commands.locator(tid("group-count-failing"))).to_have_text("2 failing")

    page.reload()
    wait_live(page)
    expect(page.locator(f"{tid('group')}[data-group-id='commands'] {tid('group-toggle')}")).to_have_attribute("aria-expanded", "false")
    toggle = page.locator(f"{tid('group')}[data-group-id='commands'] {tid('group-toggle')}")
    toggle.click()
    expect(page.locator(tid("panel"))).to_have_count(4)
    assert "collapsed" not in query(page)


def test_panels_in_no_group_come_first_without_a_heading(make_server, tmp_path, page):
    (tmp_path / "ok.json").write_text('{"summary": "fine"}')
    deck = tmp_path / "mixed.yaml"
    deck.write_text(
        "title: Mixed\n"
        "groups: [{ id: batch, title: Batch }]\n"
        "panels:\n"
        "  - { id: first, title: First, file: { path: ./ok.json }, group: batch }\n"
        "  - { id: second, title: Second, file: { path: ./ok.json } }\n"
        "  - { id: third, title: Third, file: { path: ./ok.json }, group: batch }\n"
        "  - { id: fourth, title: Fourth, file: { path: ./ok.json } }\n"
    )
    srv = make_server(config=deck)
    srv.settle()
    open_overview(page, srv)
    ungrouped = page.locator(tid("group-none"))
    expect(ungrouped.locator(tid("panel"))).to_have_count(2)
    expect(ungrouped.locator(".group-title")).to_have_count(0)
    groups = page.locator(tid("group"))
    expect(groups).to_have_count(2)
    expect(groups.last.locator(".group-title")).to_have_text("StateDeck")
    assert drawn_ids(page) == ["second", "fourth", "first", "third", "statedeck"], "StateDeck's own group last"


# ---- search -----------------------------------------------------------------------------------------


def test_slash_focuses_the_search_which_finds_by_title_id_and_group_and_escape_clears(grouped_server, page):
    open_overview(page, grouped_server)
    page.locator("body").press("/")
    search = page.locator(tid("search"))
    expect(search).to_be_focused()
    expect(search).to_have_value("")

    page.keyboard.type("bet")
    expect(page.locator(tid("panel"))).to_have_count(1)
    assert drawn_ids(page) == ["beta"]
    search.fill("flak")                       # the id and the title
    assert drawn_ids(page) == ["flaky"]
    search.fill("command")                    # the group's title
    expect(page.locator(tid("panel"))).to_have_count(2)
    assert drawn_ids(page) == ["slow", "flaky"]
    search.fill("files alpha")                # every word, in any field
    assert drawn_ids(page) == ["alpha"]
    search.fill("nothing like this")
    expect(page.locator(tid("panel"))).to_have_count(0)
    expect(page.locator(tid("empty"))).to_contain_text("No panel matches")

    search.press("Escape")
    expect(search).to_have_value("")
    expect(page.locator(tid("panel"))).to_have_count(4)
    expect(page.locator(tid("empty"))).to_be_hidden()

    # "/" typed in the search is text, not the shortcut.
    search.press("/")
    expect(search).to_have_value("/")


def test_slash_is_left_alone_in_another_field(server, page):
    open_overview(page, server)
    page.locator(tid("debug-open")).click()
    page.locator(".debug-more summary").click()
    field = page.locator(tid("debug-info"))
    field.fill("")
    field.press("/")
    expect(field).to_have_value("/")
    expect(page.locator(tid("search"))).not_to_be_focused()


# ---- the view in the address --------------------------------------------------------------------------


def test_the_view_in_the_address_survives_a_reload_and_follows_back_and_forward(server, page):
    open_overview(page, server, "/?q=a&state=up&sort=problems&density=compact")
    expect(page.locator(tid("search"))).to_have_value("a")
    expect(page.locator(tid("sort"))).to_have_value("problems")
    expect(page.locator(tid("density-compact"))).to_have_attribute("aria-pressed", "true")
    expect(count(page, "up")).to_have_attribute("aria-pressed", "true")
    # "a" is in alpha, beta and slow ("Slow command"); flaky fails.
    expect(page.locator(tid("panel-row"))).to_have_count(3)

    page.reload()
    expect(page.locator(tid("connection-status"))).to_have_attribute("data-state", "open")
    expect(page.locator(tid("panel-row"))).to_have_count(3)
    expect(page.locator(tid("search"))).to_have_value("a")

    page.locator(tid("density-cards")).click()
    expect(page.locator(tid("panel"))).to_have_count(3)
    assert "density" not in query(page)
    count(page, "up").click()
    expect(page.locator(tid("panel"))).to_have_count(4)

    page.go_back()
    expect(page.locator(tid("panel"))).to_have_count(3)
    expect(count(page, "up")).to_have_attribute("aria-pressed", "true")
    page.go_back()
    expect(page.locator(tid("panel-row"))).to_have_count(3)
    expect(page.locator(tid("density-compact"))).to_have_attribute("aria-pressed", "true")
    page.go_forward()
    expect(page.locator(tid("panel"))).to_have_count(3)
    expect(page.locator(tid("density-cards"))).to_have_attribute("aria-pressed", "true")

    # Typing writes the search in place, once typing pauses.
    page.locator(tid("search")).fill("alp")
    expect(page).to_have_url(re.compile(r"[?&]q=alp(&|$)"))


def test_the_view_and_the_history_dialog_share_the_address(server, page):
    open_overview(page, server, "/?sort=problems&density=compact")
    page.goto(server.url + "/?sort=problems&density=compact#history=alpha")
    expect(page.locator(tid("history-dialog"))).to_be_visible()
    expect(page.locator(tid("panel-row"))).to_have_count(4)
    page.keyboard.press("Escape")
    expect(page.locator(tid("history-dialog"))).to_be_hidden()
    expect(page).to_have_url(server.url + "/?sort=problems&density=compact")


def test_problems_first_puts_failing_then_loading_then_unknown_then_up(server, page):
    server.force("beta", {"state": "reset"})
    server.force("slow", {"state": "reset"})
    server.force("slow", {"state": "loading"})
    open_overview(page, server)
    assert drawn_ids(page) == ["alpha", "beta", "slow", "flaky"]
    page.locator(tid("sort")).select_option("problems")
    expect(page).to_have_url(re.compile(r"sort=problems"))
    assert drawn_ids(page) == ["flaky", "slow", "beta", "alpha"]
    # The order follows the states as they change.
    server.force("alpha", {"state": "error", "error": {"kind": "timeout"}})
    expect(page.locator(tid("panel")).first).to_have_attribute("data-panel-id", "alpha")
    assert drawn_ids(page) == ["alpha", "flaky", "slow", "beta"]


# ---- the compact view ----------------------------------------------------------------------------------


def test_the_compact_view_draws_a_line_a_panel_with_its_card_a_click_away(server, page):
    open_overview(page, server, "/?density=compact")
    rows = page.locator(tid("panel-row"))
    expect(rows).to_have_count(4)
    expect(page.locator(tid("panel"))).to_have_count(0)
    alpha = rows.nth(0)
    expect(alpha.locator(tid("row-title"))).to_have_text("Alpha")
    expect(alpha.locator(tid("row-summary"))).to_have_text("Alpha is fine")
    expect(alpha).to_have_attribute("data-health", "up")
    expect(alpha).to_have_accessible_name("Alpha: Up, Alpha is fine")
    flaky = rows.nth(3)
    expect(flaky).to_have_attribute("data-health", "failing")
    expect(flaky.locator(tid("row-summary"))).to_have_text(re.compile(r"\S"))
    # The timeline strip, small.
    strip = alpha.locator(tid("timeline-strip"))
    expect(strip).to_be_visible(timeout=10_000)
    assert strip.bounding_box()["height"] <= 16
    assert all(r.bounding_box()["height"] <= 48 for r in rows.all())

    # The line's button opens the full card with its actions under the line.
    toggle = flaky.locator(tid("row-toggle"))
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    card = flaky.locator(tid("panel"))
    expect(card).to_be_visible()
    with page.expect_request(lambda r: r.url.endswith("/api/panels/flaky/recover")):
        card.locator(tid("error-primary")).click()
    toggle.click()
    expect(flaky.locator(tid("panel"))).to_have_count(0)


# ---- keys -----------------------------------------------------------------------------------------------


def focused(page: Page) -> str | None:
    return page.evaluate("() => document.activeElement.closest('[data-nav]')?.dataset.panelId ?? null")


def test_keys_move_between_cards_and_enter_focuses_the_primary_action(server, page):
    open_overview(page, server)                       # 1280 px: three columns of cards
    page.keyboard.press("j")
    assert focused(page) == "alpha"
    first = panel(page, "alpha")
    expect(first).to_be_focused()
    assert first.evaluate("el => getComputedStyle(el).outlineStyle") != "none"
    page.keyboard.press("j")
    assert focused(page) == "beta"
    page.keyboard.press("k")
    assert focused(page) == "alpha"
    page.keyboard.press("ArrowRight")
    assert focused(page) == "beta"
    page.keyboard.press("ArrowDown")                  # a row of three down
    assert focused(page) == "flaky"
    page.keyboard.press("ArrowUp")
    assert focused(page) == "alpha"
    page.keyboard.press("End")
    assert focused(page) == "flaky"
    page.keyboard.press("Enter")
    expect(panel(page, "flaky").locator(tid("error-primary"))).to_be_focused()
    page.keyboard.press("k")
    assert focused(page) == "slow"
    page.keyboard.press("Home")
    assert focused(page) == "alpha"
    # One tab stop for the list: the panel last moved to.
    assert page.locator("[data-nav][tabindex='0']").evaluate_all("els => els.map((e) => e.dataset.panelId)") == ["alpha"]


def test_keys_move_between_lines_and_enter_opens_the_card(server, page):
    open_overview(page, server, "/?density=compact")
    page.keyboard.press("j")
    page.keyboard.press("ArrowDown")
    assert focused(page) == "beta"
    page.keyboard.press("Enter")
    card = page.locator(f"{tid('panel-row')}[data-panel-id='beta'] {tid('panel')}")
    expect(card).to_be_focused()
    page.keyboard.press("Escape")
    expect(card).to_have_count(0)
    assert focused(page) == "beta"
    expect(page.locator(f"{tid('panel-row')}[data-panel-id='beta']")).to_be_focused()


# ---- a large deck ---------------------------------------------------------------------------------------


def test_the_state_document_is_asked_for_once_while_the_modules_load(server, page):
    """index.html preloads GET /api/state and the page's own request takes that answer: a single
    request, the preload's, instead of a second one once app.js has run."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if urlparse(r.url).path == "/api/state" else None)
    open_overview(page, server)
    expect(count(page, "up")).to_have_attribute("data-count", "3")
    assert len(asked) == 1, asked
    initiators = page.evaluate(
        "performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname === '/api/state')"
        ".map((e) => e.initiatorType)"
    )
    assert initiators == ["link"], initiators


@pytest.fixture
def large_server(make_server, tmp_path):
    """600 file panels reading one file, and no other: a deck far taller than the screen."""
    folder = tmp_path / "large"
    folder.mkdir()
    (folder / "ok.json").write_text('{"summary": "fine"}')
    lines = ["title: Large\nstatedeckPanel: false\npanels:\n"]
    for i in range(600):
        lines.append(f"  - {{ id: p{i:03d}, title: Panel {i}, file: {{ path: ./ok.json }}, refresh: manual }}\n")
    (folder / "deck.yaml").write_text("".join(lines))
    srv = make_server(config=folder / "deck.yaml")
    srv.settle()
    return srv


def timelines_on_screen_drawn(page: Page) -> bool:
    """Whether every card on screen shows its timeline: each has asked, and had its answer."""
    return page.evaluate("""() => {
      const onScreen = [...document.querySelectorAll("[data-testid='panel']")].filter((card) => {
        const box = card.getBoundingClientRect();
        return box.bottom > 0 && box.top < innerHeight;
      });
      return onScreen.length > 0
        && onScreen.every((card) => card.querySelector("[data-testid='panel-history']")?.hidden === false);
    }""")


def test_a_large_deck_draws_and_asks_for_only_what_is_on_screen(large_server, page):
    asked: list[str] = []
    answered: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/uptime" in r.url else None)
    page.on("requestfinished", lambda r: answered.append(r.url) if "/uptime" in r.url else None)
    page.on("requestfailed", lambda r: answered.append(r.url) if "/uptime" in r.url else None)

    def settled() -> bool:
        """The cards on screen asked and drew, and no request is still out: what the page asks for
        when it draws has been asked."""
        return timelines_on_screen_drawn(page) and len(answered) == len(asked)

    open_overview(page, large_server)
    expect(count(page, "up")).to_have_attribute("data-count", "600")
    expect(page.locator(tid("panel-history")).first).to_be_visible(timeout=10_000)
    wait_for(settled, message=lambda: f"{len(asked)} asked, {len(answered)} answered")
    cards = page.locator(tid("panel")).count()
    assert 9 <= cards <= 60, cards
    assert 1 <= len(asked) <= 30, len(asked)
    # The page is as tall as all its cards: the end is reached by scrolling, and drawn there.
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height > 600 / 3 * 250, height
    page.keyboard.press("j")
    page.keyboard.press("End")
    expect(panel(page, "p599")).to_be_focused()
    expect(panel(page, "p599")).to_be_in_viewport()
    expect(panel(page, "p000")).to_have_count(0)
    wait_for(settled, message=lambda: f"{len(asked)} asked, {len(answered)} answered")
    assert len(asked) <= 60, len(asked)
    # A search reaches panels never drawn.
    page.locator(tid("search")).fill("panel 123")
    assert drawn_ids(page) == ["p123"]
