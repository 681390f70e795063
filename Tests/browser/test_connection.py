"""Connection status: killing and restarting the server."""
from __future__ import annotations

from playwright.sync_api import expect

from helpers import panel, tid

BANNER_DELAY_MS = 500


def test_killing_and_restarting_the_server_shows_the_banner_after_500ms_and_recovers_every_panel(server, open_page):
    page = open_page(server)
    # Something the restarted server will not have: a debug-forced error on alpha.
    server.force("alpha", {"state": "error", "error": {"kind": "unreachable"}})
    alpha = panel(page, "alpha")
    expect(alpha).to_have_attribute("data-view", "error")
    expect(alpha).to_have_attribute("data-pinned", "true")

    banner = page.locator(tid("connection-banner"))
    page.evaluate(
        """() => {
        window.__bannerShownAt = null;
        const banner = document.querySelector('[data-testid=connection-banner]');
        new MutationObserver(() => { if (!banner.hidden && window.__bannerShownAt === null) window.__bannerShownAt = performance.now(); })
          .observe(banner, { attributes: true, attributeFilter: ['hidden'] });
      }"""
    )
    killed_at = page.evaluate("performance.now()")
    server.kill()
    expect(banner).to_be_visible(timeout=5_000)
    shown_after = page.evaluate("window.__bannerShownAt") - killed_at
    assert BANNER_DELAY_MS <= shown_after <= BANNER_DELAY_MS + 2_500, shown_after  # a blip shows nothing
    expect(page.locator(tid("connection-status"))).to_have_attribute("data-state", "down")
    expect(page.locator(tid("reconnect-now"))).to_be_visible()
    expect(page.locator(tid("connection-detail"))).to_contain_text("attempt")
    # While disconnected every panel says its data may be stale.
    for note in page.locator(tid("panel-offline-note")).all():
        expect(note).to_be_visible()

    # Wait until the backoff's next attempt is at least 5 s away (a restart on a busy machine takes
    # seconds), so that only the button can reconnect sooner: the reconnection below is its doing.
    page.evaluate(
        """async () => {
        window.__statedeckStore = (await import('/store.js')).store;
        window.__openedAt = null;
        const status = document.querySelector('[data-testid=connection-status]');
        new MutationObserver(() => { if (status.dataset.state === 'open' && window.__openedAt === null) window.__openedAt = Date.now(); })
          .observe(status, { attributes: true, attributeFilter: ['data-state'] });
      }"""
    )
    page.wait_for_function("() => window.__statedeckStore.connection.nextRetryAt - Date.now() > 5_000", timeout=30_000)
    scheduled = page.evaluate("window.__statedeckStore.connection.nextRetryAt")
    server.restart()
    page.locator(tid("reconnect-now")).click()
    expect(page.locator(tid("connection-status"))).to_have_attribute("data-state", "open", timeout=2_000)
    opened_at = page.evaluate("window.__openedAt")
    assert opened_at is not None and opened_at < scheduled, "the stream reconnected only when the backoff came round"
    expect(banner).to_be_hidden(timeout=15_000)
    expect(page.locator(tid("connection-status"))).to_have_attribute("data-state", "open")
    for note in page.locator(tid("panel-offline-note")).all():
        expect(note).to_be_hidden()

    # Every panel is back in sync with the new server (a snapshot or the replayed events).
    expect(alpha).to_have_attribute("data-pinned", "false", timeout=10_000)
    server.settle()
    for p in server.state()["panels"]:
        view = panel(page, p["id"])
        expect(view).to_have_attribute("data-phase", p["phase"], timeout=10_000)
        expect(view).to_have_attribute("data-pinned", str(bool(p["debugPinned"])).lower())
        expect(view.locator(tid("info") if p["phase"] == "loaded" else tid("error-card"))).to_be_visible()


def test_the_stream_reconnects_by_itself_with_backoff(server, open_page):
    page = open_page(server)
    server.kill()
    expect(page.locator(tid("connection-banner"))).to_be_visible(timeout=5_000)
    server.restart()
    # No click: the jittered backoff (0.5 s, 1 s, 2 s, … capped at 10 s) reconnects.
    expect(page.locator(tid("connection-banner"))).to_be_hidden(timeout=20_000)
    expect(page.locator(tid("connection-status"))).to_have_attribute("data-state", "open")
