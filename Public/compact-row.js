// @ts-check
// One panel as one line of the compact overview: its state, title, timeline strip (small), and the
// info's summary (or the error's title), with a button that opens the panel's full card under the
// line, where every action of the card is.
import { h, button } from "./dom.js";
import { createPanelTimeline } from "./panel-timeline.js";
import { healthOf } from "./overview-model.js";
import { locationsDisagree } from "./locations.js";
import { createPanelNotes } from "./panel-notes.js";
import { maintenanceText } from "./maintenance.js";

/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./panel.js').PanelActions} PanelActions */

const HEALTH_LABEL = /** @type {Record<string, string>} */ ({
  up: "Up",
  failing: "Failing",
  loading: "Loading",
  unknown: "Not loaded",
});

/**
 * What the line says about a state: the info's summary, the error's title, or the state's name.
 * @param {PanelState} s
 */
export function rowSummary(s) {
  // A dismissed card leaves the source down: the line names the failure, not the info kept.
  if (s.health === "down" && !s.latestValidError) return `Still failing${s.latestError ? `: ${s.latestError.title}` : ""} (card dismissed)`;
  if (s.latestValidInfo) return s.latestValidInfo.summary ?? "";
  if (s.latestValidError) return s.latestValidError.title;
  // A heartbeat loads nothing: before a run ends it waits for its job.
  if (s.heartbeat) return s.heartbeat.lastPing ? "Running" : "Waiting for first ping";
  if (s.isInitialLoading) return "Loading…";
  return "Not loaded yet";
}

/**
 * @typedef {{actions: PanelActions, settings: () => import('./types.js').HistorySettings | null | undefined,
 *   onToggle: (panelId: string) => void}} RowOptions onToggle: the line's button asks to open or close the card
 */

/**
 * The line's elements and the place of the card under it, built once.
 * @param {string} panelId
 * @param {RowOptions} opts
 */
function rowElements(panelId, opts) {
  const cardId = `row-card-${panelId}`;
  const title = h("span", { class: "row-title", data: { testid: "row-title" } });
  const summary = h("span", { class: "row-summary", data: { testid: "row-summary" } });
  const pinned = h("span", { class: ["badge", "badge-debug"], text: "debug", attrs: { hidden: true } });
  // A panel checked from several places: the server's line over them, after the summary.
  const locations = h("span", { class: "row-locations", data: { testid: "row-locations" } });
  // Why it probably fails and whether it flaps, after the summary.
  const notes = createPanelNotes("span", opts.actions.openPanel);
  const maintenance = h("span", { class: "row-maintenance", data: { testid: "row-maintenance" } });
  const toggle = button({
    label: "Open card",
    icon: "chevron-down",
    iconOnly: true,
    class: ["btn-icon", "row-toggle"],
    testid: "row-toggle",
    onClick: () => opts.onToggle(panelId),
  });
  toggle.setAttribute("aria-controls", cardId);
  toggle.setAttribute("aria-expanded", "false");
  const cardSlot = h("div", { class: "row-card", attrs: { id: cardId } });
  const timeline = createPanelTimeline(panelId, {
    load: (query) => opts.actions.uptime(panelId, query),
    settings: opts.settings,
    onAvailable: () => {},
    watch: title,
    onSlot: (slot) => opts.actions.openHistory(panelId, toggle, slot),
    compact: true,
  });
  const line = h(
    "div",
    { class: "row-line" },
    h("span", { class: "status-dot", attrs: { "aria-hidden": "true" } }),
    title,
    pinned,
    timeline.el,
    h("span", { class: "row-text" }, summary, notes.el, locations, maintenance),
    toggle,
  );
  const el = h(
    "div",
    {
      class: "panel-row",
      attrs: { role: "group", tabindex: -1 },
      data: { testid: "panel-row", "panel-id": panelId },
    },
    line,
    cardSlot,
  );
  return { el, title, summary, pinned, locations, notes, maintenance, toggle, cardSlot, timeline };
}

/**
 * Draws a state in the line (not its toggle's label nor its strip).
 * @param {ReturnType<typeof rowElements>} row
 * @param {PanelState} s
 */
function drawLine(row, s) {
  const { el, title, summary, pinned, locations, notes, maintenance } = row;
  const health = healthOf(s);
  el.dataset.health = health;
  el.dataset.phase = s.phase;
  el.dataset.loading = String(Boolean(s.isLoading));
  if (title.textContent !== s.title) title.textContent = s.title;
  const text = rowSummary(s);
  if (summary.textContent !== text) summary.textContent = text;
  summary.title = text;
  pinned.hidden = !s.debugPinned;
  const where = s.locations?.length ? s.locationsSummary ?? "" : "";
  if (locations.textContent !== where) locations.textContent = where;
  locations.dataset.disagree = String(locationsDisagree(s));
  notes.update(s);
  const under = s.maintenance ? maintenanceText(s.maintenance) : "";
  if (maintenance.textContent !== under) maintenance.textContent = under;
  el.dataset.maintenance = String(Boolean(s.maintenance));
  // The group's name says the state too, so a screen reader hears it from the line alone.
  // A heartbeat with no result yet is not "not loaded": its summary says what it waits for.
  const said = s.heartbeat && health === "unknown" ? text : `${HEALTH_LABEL[health]}${text ? `, ${text}` : ""}`;
  const noted = [notes.text, where, under].filter(Boolean).map((t) => `; ${t}`).join("");
  el.setAttribute("aria-label", `${s.title}: ${said}${noted}`);
}

/**
 * @param {string} panelId
 * @param {RowOptions} opts
 */
export function createCompactRow(panelId, opts) {
  const row = rowElements(panelId, opts);
  const { el, toggle, cardSlot, timeline } = row;
  /** @type {PanelState | null} */
  let current = null;

  function labelToggle() {
    const label = `${cardSlot.firstChild ? "Close" : "Open"} the card of ${current?.title ?? panelId}`;
    toggle.setAttribute("aria-label", label);
    toggle.title = label;
  }

  return {
    el,
    /** @param {PanelState} s */
    update(s) {
      current = s;
      drawLine(row, s);
      labelToggle();
      timeline.update(s);
    },
    /**
     * Shows the panel's card under the line, or none.
     * @param {HTMLElement | null} card
     */
    showCard(card) {
      if (card) {
        if (cardSlot.firstChild !== card) cardSlot.replaceChildren(card);
      } else {
        cardSlot.replaceChildren();
      }
      el.dataset.expanded = String(Boolean(card));
      toggle.setAttribute("aria-expanded", String(Boolean(card)));
      labelToggle();
    },
    /** Stops the strip's requests (the line left the screen or the deck). */
    destroy: () => timeline.destroy(),
  };
}

/** @typedef {ReturnType<typeof createCompactRow>} CompactRow */
