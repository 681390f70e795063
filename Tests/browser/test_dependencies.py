"""Panel dependencies and flapping on the page: a failing card and its compact line name the
dependencies it probably fails because of, each a link to that panel's card; a flapping panel says
how often its health changed; the summary tells root causes from consequences and counts flapping
panels; problems first puts root causes before consequences."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from fixtures import ERROR, INFO, panel_state
from helpers import inject_panel, panel, tid, wait_live


def write_stack(folder: Path) -> Path:
    """web → api → db, and cache beside them: four file panels, all up until forced."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ok.json").write_text(json.dumps({"summary": "fine"}))
    config = folder / "deck.yaml"
    config.write_text(
        "title: Dependencies\n"
        "statedeckPanel: false\n"
        "defaults: { refresh: 10m }\n"
        "panels:\n"
        "  - { id: web, title: Web, dependsOn: [api], file: { path: ./ok.json } }\n"
        "  - { id: api, title: API, dependsOn: [db, cache], file: { path: ./ok.json } }\n"
        "  - { id: cache, title: Redis, file: { path: ./ok.json } }\n"
        "  - { id: db, title: Postgres, file: { path: ./ok.json } }\n"
    )
    return config


@pytest.fixture
def stack(make_server, tmp_path):
    srv = make_server(config=write_stack(tmp_path / "stack"))
    srv.settle()
    for panel_id in ("db", "api", "web"):
        srv.force(panel_id, {"state": "error", "error": {"kind": "timeout"}})
    srv.wait_panel("web", lambda p: p["probableCauses"] == ["api"])
    return srv


def drawn_ids(page: Page, testid: str = "panel") -> list[str]:
    return page.locator(tid(testid)).evaluate_all("els => els.map((e) => e.dataset.panelId)")


def test_a_failing_card_names_its_probable_cause_and_links_to_it(stack, page):
    page.goto(stack.url + "/")
    wait_live(page)
    expect(panel(page, "api").locator(tid("probable-cause"))).to_have_text("Probably because Postgres is down")
    expect(panel(page, "web").locator(tid("probable-cause"))).to_have_text("Probably because API is down")
    expect(panel(page, "db").locator(tid("panel-notes"))).to_be_hidden()
    expect(panel(page, "cache").locator(tid("panel-notes"))).to_be_hidden()

    panel(page, "api").locator(tid("cause-link")).click()
    expect(panel(page, "db")).to_be_focused()

    # The server republishes api when its dependency's health changes: two causes, then none.
    stack.force("cache", {"state": "error", "error": {"kind": "timeout"}})
    expect(panel(page, "api").locator(tid("probable-cause"))).to_have_text(
        "Probably because Postgres and Redis are down")
    stack.force("db", {"state": "live"})
    stack.force("cache", {"state": "live"})
    expect(panel(page, "api").locator(tid("panel-notes"))).to_be_hidden()


def test_the_summary_tells_root_causes_from_consequences_and_orders_them(stack, page):
    page.goto(stack.url + "/?sort=problems")
    wait_live(page)
    failing = page.locator(tid("count-failing"))
    expect(failing).to_have_text("1 failing, 2 because of them")
    expect(failing).to_have_attribute("data-count", "3")
    assert drawn_ids(page) == ["db", "web", "api", "cache"], "the root cause first, then its consequences"
    stack.force("cache", {"state": "error", "error": {"kind": "timeout"}})
    expect(failing).to_have_text("2 failing, 2 because of them")
    stack.force("db", {"state": "live"})
    stack.force("cache", {"state": "live"})
    expect(failing).to_have_text("1 failing, 1 because of them", use_inner_text=True)
    assert drawn_ids(page) == ["api", "web", "cache", "db"]
    stack.force("api", {"state": "live"})
    expect(failing).to_have_text("1 failing", use_inner_text=True)
    expect(page.locator(tid("count-because"))).to_have_text("")


def test_a_compact_line_names_its_cause_and_its_flapping(stack, page):
    page.goto(stack.url + "/?density=compact")
    expect(page.locator(tid("panel-row")).first).to_be_attached(timeout=15_000)
    line = page.locator(f"{tid('panel-row')}[data-panel-id='api']")
    expect(line.locator(tid("probable-cause"))).to_have_text("Probably because Postgres is down")
    line.locator(tid("cause-link")).click()
    expect(page.locator(f"{tid('panel-row')}[data-panel-id='db']")).to_be_focused()

    flapping = {"since": "2026-11-22T10:06:00.000Z", "changes": 6, "within": "10 min"}
    state = stack.panel("cache")
    state["flapping"] = flapping
    inject_panel(page, state)
    cache = page.locator(f"{tid('panel-row')}[data-panel-id='cache']")
    expect(cache.locator(tid("flapping"))).to_have_text("Flapping: 6 changes in 10 min")
    expect(cache).to_have_attribute("aria-label", "Redis: Up, fine; Flapping: 6 changes in 10 min")
    expect(page.locator(tid("count-flapping"))).to_have_text("1 flapping")


def test_a_flapping_card_says_how_often_its_health_changed(server, page):
    page.goto(server.url + "/")
    wait_live(page)
    expect(page.locator(tid("count-flapping"))).to_be_hidden()
    flapping = {"since": "2026-11-22T10:06:00.000Z", "changes": 7, "within": "10 min"}
    card = inject_panel(page, panel_state("fx-flap", "Flappy", ["loading", "loaded"], info=INFO, health="up",
                                          flapping=flapping))
    expect(card.locator(tid("flapping"))).to_have_text("Flapping: 7 changes in 10 min")
    expect(card.locator(tid("probable-cause"))).to_have_count(0)
    expect(page.locator(tid("count-flapping"))).to_have_text("1 flapping")
    # A cause the page holds no panel of is named by its id.
    failing = inject_panel(page, panel_state("fx-cause", "Caused", ["loading", "error"], error=ERROR, health="down",
                                             probableCauses=["elsewhere"]))
    expect(failing.locator(tid("probable-cause"))).to_have_text("Probably because elsewhere is down")
