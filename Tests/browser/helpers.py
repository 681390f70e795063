"""Helpers for the browser tests, and the page's stable selectors.

Selectors (data-testid unless noted) — the page keeps these stable for tests:

  connection-status    header pill; attribute data-state = connecting | open | down
  connection-banner    the "reconnecting" banner (hidden unless the stream has been down > 500 ms)
  connection-detail    banner text ("Reconnecting (attempt 2) · next try in 1 s")
  reconnect-now        the banner's "Reconnect now" button
  panel                one panel: <section data-panel-id=ID data-view=VIEW data-phase=PHASE
                       data-loading=true|false data-pinned=true|false data-stale=true|false>
                       VIEW is the ViewStateModifier branch: initial-loading | loaded | error | initial
  panel-body, panel-tools, panel-refresh, phase-label
  load-time            the footer's "took 4 ms": the panel state's loadMs (empty without one)
  debug-badge          "debug" badge (visible while the panel is debugPinned)
  panel-offline-note   "May be stale" (visible while disconnected)
  skeleton             the redacted placeholder (or the generic skeleton when there is no placeholder)
  loading              a loading presentation wrapper: data-presentation, data-position, data-alignment
  loading-indicator    its indicator (revealed after 300 ms); loading-spinner inside it
  info                 the loaded view; info-summary, info-fields, info-items, item (data-item-id),
                       item-action, item-progress (spinner of an item in modifyingIds), info-image, info-text
  stale-banner         "Refresh failed" banner over stale info; stale-retry
  initial-content      the initial view without placeholder; load-now
  panel-heartbeat      a heartbeat panel's section under the body: heartbeat-expects, heartbeat-standing,
                       heartbeat-url-field / heartbeat-url-copy, heartbeat-curl-field / heartbeat-curl-copy,
                       heartbeat-copy-status (role=status); heartbeat-waiting is the initial content's line
  error-card           the universal error view (data-kind); error-icon, error-title, error-description,
                       error-reason, error-suggestion, retry-countdown, error-preloader,
                       error-primary, error-secondary, error-option (further options), error-details
  toast-host           top-layer popover holding the toasts and the live regions
  live-polite          role=status aria-live=polite (present from page load)
  live-assertive       role=alert aria-live=assertive (present from page load)
  toast                the visible toast: data-style, data-toast-id, data-duration-ms, data-position;
                       toast-message, toast-action, toast-close
  restored-badge       "From before restart" (while the panel state says restored: true); the panel
                       also carries data-restored=true|false
  panel-history        the card's timeline section (data-panel-id; hidden until the server sends the
                       panel's uptime report): current-health (data-state, data-since), uptime with
                       uptime-24h / uptime-7d / uptime-30d (dt + dd), timeline
  timeline             a timeline (history-timeline in the dialog): timeline-strip (role=group, its
                       aria-label the text alternative), timeline-slot (a button: data-index, data-state,
                       data-from, data-to; one has tabindex=0), timeline-tooltip (role=tooltip popover),
                       timeline-start, timeline-end, sparkline (svg) with one sparkline-run per stretch
  history-open         the card's "History of …" button (hidden until the timeline is drawn)
  summary              the overview's counts: summary-total, count-up / count-failing / count-loading /
                       count-unknown / count-pinned (toggle buttons: aria-pressed, data-count)
  search, sort, density-cards, density-compact, overview-status   the overview's controls and its
                       "12 of 3,000 panels match"
  panels               the overview: group (a <section>, data-group-id, data-collapsed) with group-toggle
                       (aria-expanded), group-counts (group-count-<state>); group-none (the panels in no
                       group, no heading); panel-grid (a chunk of cards or lines); cards and lines carry
                       data-nav (the one tab stop of the list: tabindex=0)
  panel-row            a compact line (data-panel-id, data-health = up | failing | loading | unknown):
                       row-title, row-summary, row-toggle (aria-expanded; opens the card under the line)
  history-dialog       the history <dialog> (address #history=<panelId>): history-title, history-close,
                       history-range (select: 1h, 24h, 7d, 30d, custom), history-custom with
                       history-start, history-end, history-apply, history-custom-error; history-current,
                       history-chart-status, history-status, history-list of history-entry (data-state,
                       data-at): history-entry-state, history-entry-time, history-entry-facts,
                       history-entry-title, history-entry-summary, history-entry-details; history-older
                       and, among the entries, history-audit-entry (data-action, data-at): audit-actor,
                       history-audit-text (holding audit-said)
  audit-open           the header's "Audit" button; opens audit-dialog: audit-status, audit-log of audit-entry
                       (data-action): audit-actor, audit-text (what was done, then audit-said: what the
                       caller wrote, quoted, in a <bdi>), audit-role, audit-panel; audit-close
  deck-notice          the deck-level notice region (role=alert, above the panels) holding an error-card
  maintenance-line     "Maintenance: reason (until 04:00)" over a card's body (data-maintenance-id); a compact
                       line's row-maintenance; maintenance-open (header) opens maintenance-dialog: maintenance-active
                       (data-maintenance-id) with maintenance-end, maintenance-panel / maintenance-group (checkboxes),
                       maintenance-minutes, maintenance-reason, maintenance-start, maintenance-problem, maintenance-close
  debug-bar, debug-open, panel-debug        debug controls (exist only with --debug)
  debug-dialog         the <dialog>; debug-panel (select), debug-current, debug-loading, debug-loaded,
                       debug-error-kind (select), debug-error, debug-reset, debug-live, debug-info,
                       debug-items, debug-modifying, debug-modifying-apply, debug-status, debug-close
"""
from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

HERE = Path(__file__).resolve().parent
REFERENCE_DIR = HERE / "reference"
OUTPUT_DIR = HERE / "output"


def tid(name: str) -> str:
    return f"[data-testid='{name}']"


def panel(page: Page, panel_id: str) -> Locator:
    return page.locator(f"[data-testid='panel'][data-panel-id='{panel_id}']")


def wait_live(page: Page, timeout: float = 15_000) -> None:
    """Waits until the page's stream (its own or the leader tab's) is open and the panels are drawn."""
    expect(page.locator(tid("connection-status"))).to_have_attribute("data-state", "open", timeout=timeout)
    expect(page.locator(tid("panel")).first).to_be_attached(timeout=timeout)


# ---- fixture states rendered through the page's own store ---------------------------------------


def wait_revealed(page: Page) -> None:
    """Waits until every delayed indicator on the page (`.reveal`, shown once loading has lasted the
    reveal delay) has appeared."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('.reveal')].every((e) => getComputedStyle(e).visibility === 'visible')"
    )


def inject_panel(page: Page, state: dict) -> Locator:
    """Draws a fixture PanelState through the page's store (as if the stream had sent it)."""
    page.evaluate(
        "async (s) => { const m = await import('/store.js'); m.store.applyEvent('panel', s, null); }", state
    )
    return panel(page, state["id"])


def inject_toast(page: Page, toast: dict) -> Locator:
    page.evaluate(
        "async (t) => { const m = await import('/store.js'); m.store.applyEvent('toast', t, null); }", toast
    )
    return page.locator(tid("toast"))


def record_toast_times(page: Page) -> None:
    """Starts recording, in page time, when toasts appear and disappear: window.__toastLog."""
    page.evaluate(
        """() => {
        window.__toastLog = [];
        const slot = document.querySelector('.toast-slot');
        new MutationObserver((records) => {
          for (const r of records) {
            for (const n of r.addedNodes) if (n.dataset && n.dataset.testid === 'toast')
              window.__toastLog.push({ kind: 'shown', id: n.dataset.toastId, style: n.dataset.style,
                                       message: n.textContent, at: performance.now(), duration: Number(n.dataset.durationMs) });
            for (const n of r.removedNodes) if (n.dataset && n.dataset.testid === 'toast')
              window.__toastLog.push({ kind: 'gone', id: n.dataset.toastId, at: performance.now() });
          }
        }).observe(slot, { childList: true });
      }"""
    )


def toast_log(page: Page) -> list[dict]:
    return page.evaluate("() => window.__toastLog")


def toast_gone_at(page: Page, shown: dict) -> float | None:
    """When the toast of a log entry (kind "shown") left the page, in page time."""
    log = toast_log(page)
    start = next(i for i, e in enumerate(log) if e == shown)
    return next((e["at"] for e in log[start + 1 :] if e["kind"] == "gone" and e["id"] == shown["id"]), None)


# ---- screenshot comparison ------------------------------------------------------------------------

#: a pixel differs when one of its channels differs by more than this (0-255)
PIXEL_THRESHOLD = int(os.environ.get("SNAPSHOT_PIXEL_THRESHOLD", "40"))
#: the share of differing pixels allowed
MAX_DIFF_RATIO = float(os.environ.get("SNAPSHOT_MAX_DIFF_RATIO", "0.005"))


def compare_snapshot(png: bytes, name: str) -> None:
    """Compares a PNG with Tests/browser/reference/<name>.png within a small tolerance.
    UPDATE_SNAPSHOTS=1 writes the reference instead."""
    from PIL import Image, ImageChops

    ref_path = REFERENCE_DIR / f"{name}.png"
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    actual_path = OUTPUT_DIR / f"{name}.actual.png"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        REFERENCE_DIR.mkdir(parents=True, exist_ok=True)
        ref_path.write_bytes(png)
        return
    if not ref_path.exists():
        actual_path.write_bytes(png)
        raise AssertionError(
            f"no reference image {ref_path.relative_to(HERE.parents[1])}; this run's image is in {actual_path}.\n"
            "Look at it, then create the references with:\n"
            "  UPDATE_SNAPSHOTS=1 Tests/browser/run.sh -k snapshot\n"
            "and commit Tests/browser/reference/."
        )
    actual = Image.open(io.BytesIO(png)).convert("RGBA")
    expected = Image.open(ref_path).convert("RGBA")
    if actual.size != expected.size:
        actual_path.write_bytes(png)
        raise AssertionError(f"{name}: size {actual.size} differs from the reference {expected.size} (see {actual_path})")
    diff = ImageChops.difference(actual, expected)
    # a pixel counts when its largest channel difference exceeds the threshold
    channels = diff.split()
    peak = channels[0]
    for c in channels[1:]:
        peak = ImageChops.lighter(peak, c)
    mask = peak.point(lambda v: 255 if v > PIXEL_THRESHOLD else 0)
    differing = mask.histogram()[255]
    ratio = differing / (actual.size[0] * actual.size[1])
    if ratio > MAX_DIFF_RATIO:
        actual_path.write_bytes(png)
        mask.save(OUTPUT_DIR / f"{name}.diff.png")
        raise AssertionError(
            f"{name}: {differing} pixels ({ratio:.2%}) differ from the reference (allowed {MAX_DIFF_RATIO:.2%}); "
            f"see {actual_path} and {name}.diff.png. If the change is intended: UPDATE_SNAPSHOTS=1 Tests/browser/run.sh -k snapshot"
        )


class SmallDisk:
    """A tmpfs of the test's own (the tests run as root): a real disk to fill up. `fill()` takes
    every free byte, `free()` gives them back, `unmount()` ends it, lazily, so a server still
    holding a file there does not stop it."""

    def __init__(self, folder: Path, size: str = "4m"):
        self.folder = folder
        self.filler = folder / "filler"
        folder.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(folder)], check=True)

    def fill(self) -> None:
        # Unbuffered: a buffered file would fail again when closed, flushing what the disk refused.
        with open(self.filler, "wb", buffering=0) as out:
            try:
                while True:
                    out.write(b"\0" * 65536)
            except OSError:
                pass

    def free(self) -> None:
        self.filler.unlink()

    def unmount(self) -> None:
        subprocess.run(["umount", "-l", str(self.folder)], check=True)


def churn_deck(folder: Path, panels: int) -> Path:
    """A deck whose panels change on every load: random bytes from a command, every second."""
    deck = folder / "churn.yaml"
    lines = ["title: Churn\ndefaults: { refresh: 1s }\npanels:\n"]
    for index in range(panels):
        lines.append(f"  - id: p{index}\n    command: {{ run: [sh, -c, 'od -An -N4 -tx1 /dev/urandom'] }}\n")
    deck.write_text("".join(lines))
    return deck


def sse_events(stream):
    """What a `/events` stream sends, as a page's EventSource takes it: (id, name, data) of each
    event that has an id, in order."""
    name, event_id, data = "message", None, []
    for raw in stream:
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("id: "):
            event_id = int(line[4:])
        elif line.startswith("data: "):
            data.append(line[6:])
        elif line == "":
            if event_id is not None:
                yield event_id, name, "\n".join(data)
            name, event_id, data = "message", None, []
