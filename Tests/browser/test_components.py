"""The page's components, drawn from fixture documents through the page's own store: the
ViewStateModifier rule, loading presentations and their options, the spinner delay, error-card
details, stale info, retry countdowns, focus keeping, text safety, layout and colour scheme."""
from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from fixtures import ERROR, INFO, LIST_INFO, error_fixture, loading_fixture, panel_state
from helpers import inject_panel, panel, tid, wait_revealed


def iso_in(seconds: float) -> str:
    t = dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=seconds)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def test_view_state_modifier_rule(server, open_page):
    page = open_page(server)
    cases = [
        (panel_state("fx-r1", "R1", []), "initial", tid("initial-content")),
        (panel_state("fx-r2", "R2", [], placeholder=INFO), "initial", tid("skeleton")),
        (panel_state("fx-r3", "R3", ["loading"]), "initial-loading", tid("skeleton")),
        (panel_state("fx-r4", "R4", ["loading", "loaded"], info=INFO), "loaded", tid("info")),
        (panel_state("fx-r5", "R5", ["loading", "loaded", "loading"], info=INFO), "loaded", f"{tid('loading')} {tid('info')}"),
        (panel_state("fx-r6", "R6", ["loading", "error"], error=ERROR), "error", tid("error-card")),
        (panel_state("fx-r7", "R7", ["loading", "error", "loading"], error=ERROR), "error", f"{tid('loading')} {tid('error-card')}"),
        # info, then an error: the error is the valid one
        (panel_state("fx-r8", "R8", ["loading", "loaded", "error"], info=INFO, error=ERROR), "error", tid("error-card")),
        # an error, then info: the info is the valid one
        (panel_state("fx-r9", "R9", ["loading", "error", "loaded"], info=INFO, error=ERROR), "loaded", tid("info")),
    ]
    for state, view, selector in cases:
        el = inject_panel(page, state)
        expect(el).to_have_attribute("data-view", view)
        expect(el.locator(selector)).to_have_count(1)
        if view == "initial-loading":
            expect(el).to_have_attribute("data-loading", "true")
    # The server's defaults (the state document's settings) when a panel names no presentation.
    expect(page.locator(f"[data-panel-id='fx-r3'] {tid('loading')}")).to_have_attribute("data-presentation", "material")
    expect(page.locator(f"[data-panel-id='fx-r5'] {tid('loading')}")).to_have_attribute("data-presentation", "horizontal")
    after_error = page.locator(f"[data-panel-id='fx-r7'] {tid('loading')}")
    expect(after_error).to_have_attribute("data-presentation", "overCurrentContent")
    expect(after_error).to_have_attribute("data-alignment", "trailing")


def test_loading_presentation_options_are_drawn(server, new_context):
    # reduced motion: spinners do not rotate, so their boxes are their sizes
    page = new_context(reduced_motion="reduce").new_page()
    page.goto(server.url + "/")
    expect(page.locator(tid("connection-status"))).to_have_attribute("data-state", "open")

    def boxes(kind):
        view = inject_panel(page, loading_fixture(kind))
        wait_revealed(page)
        wrapper = view.locator(tid("loading"))
        # The content dims by an animation that starts at the reveal delay, on its own timer: a
        # loaded machine can read the style before it ran.
        wrapper.evaluate("el => Promise.all(el.querySelector('.loading-content').getAnimations().map((a) => a.finished))")
        content = wrapper.locator(".loading-content").bounding_box()
        indicator = wrapper.locator(tid("loading-indicator")).bounding_box()
        spinner = wrapper.locator(tid("loading-spinner")).bounding_box()
        style = wrapper.evaluate(
            "el => ({opacity: getComputedStyle(el.querySelector('.loading-content')).opacity,"
            " spacing: el.style.getPropertyValue('--spacing')})"
        )
        return wrapper, content, indicator, style, spinner

    w, content, ind, style, spin = boxes("horizontal")  # leading, opacity 0.3, spacing 32
    expect(w).to_have_attribute("data-position", "leading")
    assert ind["x"] + ind["width"] <= content["x"] + 1, (ind, content)
    assert content["x"] - (spin["x"] + spin["width"]) >= 31, (spin, content)
    assert float(style["opacity"]) == pytest.approx(0.3, abs=0.01)
    assert style["spacing"] == "32px"

    w, content, ind, style, spin = boxes("vertical")  # bottom, centre
    expect(w).to_have_attribute("data-position", "bottom")
    assert ind["y"] >= content["y"] + content["height"] - 1
    assert abs((ind["x"] + ind["width"] / 2) - (content["x"] + content["width"] / 2)) < 4

    w, content, ind, style, spin = boxes("overCurrentContent")  # bottomTrailing, opacity 0.5
    expect(w).to_have_attribute("data-alignment", "bottomTrailing")
    assert ind["x"] + ind["width"] <= content["x"] + content["width"] + 1 and ind["x"] > content["x"] + content["width"] / 2
    assert ind["y"] + ind["height"] <= content["y"] + content["height"] + 1 and ind["y"] > content["y"] + content["height"] / 2
    assert float(style["opacity"]) == pytest.approx(0.5, abs=0.01)

    w, content, ind, style, spin = boxes("material")  # overlay over the skeleton, blurred
    assert ind["width"] >= content["width"] and ind["height"] >= content["height"]
    assert "blur" in w.locator(tid("loading-indicator")).evaluate("el => getComputedStyle(el).backdropFilter")
    expect(w.locator(tid("skeleton"))).to_be_attached()

    w, content, ind, style, spin = boxes("redacted")  # skeleton, no visible spinner
    expect(w.locator(tid("skeleton"))).to_be_visible()
    hidden_box = w.locator(tid("loading-indicator")).bounding_box()
    assert hidden_box["width"] <= 1 and hidden_box["height"] <= 1, hidden_box  # only for screen readers

    w, content, ind, style, spin = boxes("custom")
    expect(w.locator(tid("loading-indicator"))).to_contain_text("Checking the release…")
    expect(w.locator(f"{tid('loading-indicator')} svg")).to_have_attribute("data-icon", "download")

    # Values the server never sends fall back to the server's defaults for the type.
    odd = panel_state("fx-odd", "Odd", ["loading", "loaded", "loading"], info=INFO,
                      presentation={"loadingAfterInfo": {"type": "vertical", "position": "sideways", "alignment": "diagonal",
                                                         "contentOpacity": 7}})
    w = inject_panel(page, odd).locator(tid("loading"))
    expect(w).to_have_attribute("data-position", "bottom")
    expect(w).to_have_attribute("data-alignment", "leading")
    unknown = panel_state("fx-unknown-type", "Unknown", ["loading"], presentation={"initialLoading": {"type": "sparkles"}})
    expect(inject_panel(page, unknown).locator(tid("loading"))).to_have_attribute("data-presentation", "material")


# Plays states into the page's store at page times and records, every frame, whether the element
# `selector` is seen (visible and not transparent). Resolves with when each state was really applied
# (timers run late on a busy machine) and the runs the element was seen, as [from, to], all in ms
# from the start.
PLAY_AND_WATCH = """async ({ steps, selector, watchMs }) => {
  const { store } = await import('/store.js');
  const seen = [];
  const applied = [];
  const start = performance.now();
  await new Promise((done) => {
    const frame = () => {
      const el = document.querySelector(selector);
      let visible = false;
      if (el && el.getClientRects().length) {
        const style = getComputedStyle(el);
        visible = style.visibility === 'visible' && Number(style.opacity) > 0.5;
      }
      seen.push([performance.now() - start, visible]);
      if (performance.now() - start < watchMs) requestAnimationFrame(frame); else done();
    };
    steps.forEach(([at, state], i) => setTimeout(() => {
      applied[i] = performance.now() - start;
      store.applyEvent('panel', state, null);
    }, at));
    requestAnimationFrame(frame);
  });
  const runs = [];
  let since = null;
  for (const [t, visible] of seen) {
    if (visible && since === null) since = t;
    if (!visible && since !== null) { runs.push([since, t]); since = null; }
  }
  if (since !== null) runs.push([since, seen[seen.length - 1][0]]);
  return { applied, runs };
}"""

# One frame at 60 Hz. The page draws changes once a frame and the watcher samples once a frame; a CSS
# animation's clock reads the time of the frame it began in, so its delay can end up to a frame
# before the code that started it ran: edges are checked to within two frames.
FRAME_MS = 17


def assert_never_a_flash(watched: dict) -> None:
    """The indicator's rules, judged by when its two states were really applied (the page's timers
    run late on a busy machine): a state that ended before the reveal (300 ms) is never seen; one
    that lasted well past it (400 ms) is; once seen, the indicator stays at least 500 ms and until
    its state ended. In between, a frame may or may not have painted it."""
    runs, (begun, ended) = watched["runs"], watched["applied"]
    lasted = ended - begun
    if lasted < 300 - 2 * FRAME_MS:
        assert runs == [], watched
    elif lasted >= 400:
        assert len(runs) == 1, watched
    else:
        assert len(runs) <= 1, watched
    for shown, hidden in runs:
        assert shown >= begun + 300 - 2 * FRAME_MS, watched
        assert hidden - shown >= 500 - 2 * FRAME_MS, watched
        assert hidden >= ended, watched


@pytest.mark.parametrize("ends_at_ms", [100, 450, 1_000])
def test_a_loading_indicator_is_never_seen_for_a_flash(server, open_page, ends_at_ms):
    """A refresh that ends before the indicator's reveal (300 ms) never shows it; once shown, it stays
    at least 500 ms, even when the load ends 150 ms after it appeared, and until the load ends."""
    page = open_page(server)
    pid = f"fx-flash-{ends_at_ms}"
    loaded = panel_state(pid, "Flash", ["loading", "loaded"], info=INFO)
    inject_panel(page, loaded)
    loading = panel_state(pid, "Flash", ["loading", "loaded", "loading"], info=INFO)
    assert_never_a_flash(page.evaluate(PLAY_AND_WATCH, {
        "steps": [[0, loading], [ends_at_ms, loaded]],
        "selector": f"[data-panel-id='{pid}'] [data-testid='loading-indicator']",
        "watchMs": ends_at_ms + 900,
    }))
    expect(panel(page, pid).locator(tid("loading"))).to_have_count(0)


@pytest.mark.parametrize("ends_at_ms", [100, 450])
def test_an_item_spinner_is_never_seen_for_a_flash(server, open_page, ends_at_ms):
    page = open_page(server)
    pid = f"fx-item-flash-{ends_at_ms}"
    idle = panel_state(pid, "Jobs", ["loading", "loaded"], info=LIST_INFO)
    inject_panel(page, idle)
    busy = {**idle, "modifyingIds": ["nightly"]}
    assert_never_a_flash(page.evaluate(PLAY_AND_WATCH, {
        "steps": [[0, busy], [ends_at_ms, idle]],
        "selector": f"[data-panel-id='{pid}'] [data-testid='item-progress']",
        "watchMs": ends_at_ms + 900,
    }))
    expect(panel(page, pid).locator(tid("item-progress"))).to_have_count(0)


def test_the_skeleton_says_when_the_next_attempt_comes(server, open_page):
    page = open_page(server)
    view = inject_panel(page, panel_state("fx-first-retry", "First", ["loading"],
                                          retry={"attempt": 2, "of": 3, "nextAt": iso_in(2.5)}))
    expect(view).to_have_attribute("data-view", "initial-loading")
    expect(view.locator(f"{tid('skeleton-retry')} {tid('retry-countdown')}")).to_have_text(
        re.compile(r"^Attempt 2 of 3 · next in [23] s$"))


def test_error_card_parts_details_and_preloader(server, open_page):
    page = open_page(server)
    view = inject_panel(page, error_fixture())
    card = view.locator(tid("error-card"))
    expect(card.locator(tid("error-title"))).to_have_text(ERROR["title"])
    expect(card.locator(tid("error-description"))).to_have_text(ERROR["description"])
    expect(card.locator(tid("error-reason"))).to_have_text(ERROR["failureReason"])
    expect(card.locator(tid("error-suggestion"))).to_have_text(ERROR["recoverySuggestion"])
    expect(card.locator(tid("error-primary"))).to_have_text("Check again")
    expect(card.locator(tid("error-secondary"))).to_have_text("Dismiss")  # first secondary-or-cancel
    expect(card.locator(tid("error-option"))).to_have_text(["Open status page", "Restart service"])
    expect(card.locator(tid("error-preloader"))).to_have_count(0)
    detail = card.locator(f"{tid('error-details')} pre")
    expect(detail).to_be_hidden()
    card.locator(f"{tid('error-details')} summary").click()
    expect(detail).to_have_text(ERROR["detail"])
    # A new state keeps the disclosure open and focus where it was; the preloader shows.
    card.locator(tid("error-primary")).focus()
    inject_panel(page, error_fixture(latestValidError={**ERROR, "showPreloader": True}))
    card = view.locator(tid("error-card"))
    expect(card.locator(tid("error-preloader"))).to_be_visible()
    expect(card.locator(f"{tid('error-details')} pre")).to_be_visible()
    expect(card.locator(tid("error-primary"))).to_be_focused()
    # Buttons POST their recovery option.
    with page.expect_request(lambda r: r.url.endswith("/api/panels/fx-error/recover")) as req:
        card.locator(tid("error-option")).first.click()
    assert req.value.post_data_json == {"option": "status"}


def test_stale_info_shows_the_refresh_failed_banner(server, open_page):
    page = open_page(server)
    state = panel_state("fx-stale", "Stale", ["loading", "loaded", "error", "loaded"], info=INFO, error=ERROR, stale=True)
    view = inject_panel(page, state)
    banner = view.locator(tid("stale-banner"))
    expect(banner).to_contain_text("Refresh failed")
    expect(banner).to_contain_text(ERROR["title"])
    expect(view.locator(tid("info"))).to_be_visible()
    expect(view).to_have_attribute("data-stale", "true")
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/api/panels/fx-stale/retry")):
        banner.locator(tid("stale-retry")).click()
    inject_panel(page, {**state, "stale": False})
    expect(view.locator(tid("stale-banner"))).to_have_count(0)


def test_retry_countdown(server, open_page):
    page = open_page(server)
    view = inject_panel(page, error_fixture(retry={"attempt": 2, "of": 3, "nextAt": iso_in(4.5)}))
    countdown = view.locator(tid("retry-countdown"))
    expect(countdown).to_have_text(re.compile(r"^Attempt 2 of 3 · next in [45] s$"))
    expect(countdown).to_have_text(re.compile(r"^Attempt 2 of 3 · next in [23] s$"), timeout=3_000)
    expect(countdown).to_have_text("Attempt 2 of 3 · retrying now…", timeout=5_000)
    inject_panel(page, error_fixture(retry={"attempt": 3, "of": 3}))
    expect(view.locator(tid("retry-countdown"))).to_have_text("Attempt 3 of 3")


def test_server_strings_are_text_never_markup(server, open_page):
    page = open_page(server)
    evil = "<img src=x data-evil=1><b>bold</b>"
    info = {"summary": evil, "fields": [{"label": evil, "value": evil}], "items": [{"id": "i", "title": evil}], "text": evil}
    view = inject_panel(page, panel_state("fx-evil", evil, ["loading", "loaded"], info=info))
    expect(view.locator(tid("info-summary"))).to_have_text(evil)
    expect(page.locator("[data-evil]")).to_have_count(0)
    expect(view.locator("b")).to_have_count(0)
    err = {**ERROR, "title": evil, "icon": "no-such-icon"}
    view = inject_panel(page, panel_state("fx-evil2", "E", ["loading", "error"], error=err))
    expect(view.locator(tid("error-title"))).to_have_text(evil)
    expect(view.locator(f"{tid('error-icon')} svg")).to_have_attribute("data-icon", "alert")


def test_item_action_buttons_post_their_route(server, open_page):
    page = open_page(server)
    view = inject_panel(page, panel_state("fx-items", "Items", ["loading", "loaded"], info=LIST_INFO))
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/api/panels/fx-items/items/thumbs/actions/pause")):
        view.locator(f"{tid('item')}[data-item-id='thumbs'] {tid('item-action')}").first.click()


@pytest.mark.parametrize("width,min_cols,max_cols", [(360, 1, 1), (1280, 3, 3), (2560, 4, 8)])
def test_responsive_layout(server, new_context, problems, width, min_cols, max_cols):
    page = problems.watch(new_context(viewport={"width": width, "height": 900}).new_page())
    page.goto(server.url + "/")
    expect(page.locator(tid("connection-status"))).to_have_attribute("data-state", "open")
    for i in range(6):
        inject_panel(page, panel_state(f"fx-grid-{i}", f"Panel {i}", ["loading", "error"], error=ERROR))
    cols = page.evaluate(
        "() => getComputedStyle(document.querySelector('[data-testid=panel-grid]')).gridTemplateColumns.split(' ').length"
    )
    assert min_cols <= cols <= max_cols, cols
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"horizontal overflow of {overflow}px at {width}px"


def test_dark_mode_follows_the_system(server, new_context):
    colors = {}
    for scheme in ("light", "dark"):
        page = new_context(color_scheme=scheme).new_page()
        page.goto(server.url + "/")
        colors[scheme] = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert colors["light"] != colors["dark"]
    r, g, b = map(int, re.findall(r"\d+", colors["dark"])[:3])
    assert r + g + b < 150, colors["dark"]


def test_reduced_motion_removes_animation(server, new_context):
    page = new_context(reduced_motion="reduce").new_page()
    page.goto(server.url + "/")
    expect(page.locator(tid("connection-status"))).to_have_attribute("data-state", "open")
    view = inject_panel(page, panel_state("fx-motion", "Motion", ["loading", "loaded", "loading"], info=INFO))
    names = view.locator(".spinner").first.evaluate("el => getComputedStyle(el).animationName")
    assert "spin" not in names, names
    page.evaluate(
        "async () => { const m = await import('/store.js'); m.store.applyEvent('toast', {id: 'rm', style: 'info', message: 'hi', durationMs: 60000, position: 'bottom'}, null); }"
    )
    assert page.locator(tid("toast")).evaluate("el => getComputedStyle(el).animationName") == "none"
