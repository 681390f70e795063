// @ts-check
// A card's shell, built once: the header (status dot, title, badges, the History and Refresh
// buttons), the place of the body, and the footer (phase, since when, how long the newest load took,
// the retry line). The draw functions put a state's title, badges, labels, locations, maintenance,
// heartbeat and footer in it.
import { h, button, whileBusy, replaceChildren, clockTime } from "./dom.js";
import { retryLine } from "./error-card.js";
import { loadTimeText } from "./timeline-text.js";
import { renderLocations } from "./locations.js";
import { createHeartbeatView } from "./heartbeat.js";
import { maintenanceLine } from "./maintenance.js";

/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./panel.js').PanelActions} PanelActions */
/** @typedef {import('./panel-body.js').ViewKind} ViewKind */

const PHASE_LABEL = /** @type {Record<string, string>} */ ({
  initial: "Not loaded",
  loading: "Loading",
  loaded: "Up to date",
  error: "Failed",
});

/** The header's badges: debug and restored are in it only while they apply; the offline note always
 * is, and shows while the connection is down. */
function badges() {
  const pinnedBadge = h("span", {
    class: ["badge", "badge-debug"],
    text: "debug",
    data: { testid: "debug-badge" },
    attrs: { title: "Forced by a debug state: scheduled loads are paused" },
  });
  const restoredBadge = h("span", {
    class: ["badge", "badge-restored"],
    text: "From before restart",
    data: { testid: "restored-badge" },
    attrs: { title: "Shown as it was before the server restarted, until the first load since the restart ends" },
  });
  const offlineNote = h("span", {
    class: ["badge", "badge-offline"],
    text: "May be stale",
    data: { testid: "panel-offline-note" },
    attrs: { title: "Disconnected from the server: this data may be out of date" },
  });
  return { pinnedBadge, restoredBadge, offlineNote };
}

/**
 * @param {string} panelId
 * @param {PanelActions} actions
 */
export function createPanelShell(panelId, actions) {
  const titleId = `panel-title-${panelId}`;
  const title = h("h2", { class: "panel-title", attrs: { id: titleId } });
  const { pinnedBadge, restoredBadge, offlineNote } = badges();
  const refresh = button({
    label: "Refresh",
    icon: "refresh",
    iconOnly: true,
    class: ["btn-icon", "panel-refresh"],
    key: "refresh",
    testid: "panel-refresh",
    needs: "retry",
    onClick: (ev) => whileBusy(/** @type {HTMLButtonElement} */ (ev.currentTarget), () => actions.retry(panelId)),
  });
  const historyButton = button({
    label: "History",
    icon: "history",
    iconOnly: true,
    class: ["btn-icon", "panel-history-open"],
    key: "history",
    testid: "history-open",
    onClick: (ev) => actions.openHistory(panelId, /** @type {HTMLElement} */ (ev.currentTarget)),
  });
  historyButton.hidden = true;
  const tools = h("div", { class: "panel-tools", data: { testid: "panel-tools" } }, historyButton, refresh);
  const heading = h("div", { class: "panel-heading" }, h("span", { class: "status-dot", attrs: { "aria-hidden": "true" } }), title, offlineNote);
  const body = h("div", { class: "panel-body", data: { testid: "panel-body" } });
  const phaseLabel = h("span", { class: "phase-label", data: { testid: "phase-label" } });
  const updated = h("time", { class: "updated" });
  const loadTime = h("span", { class: "load-time", data: { testid: "load-time" }, attrs: { title: "How long the newest load took" } });
  const readings = h("dl", { class: "readings", data: { testid: "readings" }, attrs: { title: "What the newest load measured" } });
  const footerExtra = h("span", { class: "footer-extra" });
  const el = h(
    "section",
    { class: "panel", data: { testid: "panel", "panel-id": panelId }, attrs: { "aria-labelledby": titleId, tabindex: -1 } },
    h(
      "header",
      { class: "panel-header" },
      heading,
      tools,
    ),
    body,
    h("footer", { class: "panel-footer" }, phaseLabel, updated, loadTime, readings, footerExtra),
  );
  return {
    el, title, heading, pinnedBadge, restoredBadge, offlineNote, refresh, historyButton, tools, body,
    phaseLabel, updated, loadTime, readings, footerExtra,
    /** @type {HTMLElement | null} the locations drawn over the body, for a panel checked from several places */
    locations: null,
    /** @type {import('./heartbeat.js').HeartbeatView | null} under the body, for a heartbeat panel; made at its first status */
    heartbeat: null,
    /** @type {HTMLElement | null} over the body while the panel is under a maintenance window */
    maintenance: null,
  };
}

/** @typedef {ReturnType<typeof createPanelShell>} PanelShell */

/**
 * Draws a state's title, badges and buttons' names in the header, and what it is on the card.
 * @param {PanelShell} shell @param {PanelState} s @param {ViewKind} view @param {boolean} loading
 */
export function drawShell(shell, s, view, loading) {
  const { el, heading, pinnedBadge, restoredBadge, offlineNote, historyButton } = shell;
  shell.title.textContent = s.title;
  // The badge exists only while pinned (without --debug no debug element is in the DOM).
  if (s.debugPinned && !pinnedBadge.isConnected) heading.insertBefore(pinnedBadge, offlineNote);
  else if (!s.debugPinned) pinnedBadge.remove();
  if (s.restored && !restoredBadge.isConnected) heading.insertBefore(restoredBadge, offlineNote);
  else if (!s.restored) restoredBadge.remove();
  // A heartbeat is never loaded: only its job's pings change it.
  shell.refresh.hidden = Boolean(s.heartbeat);
  shell.refresh.setAttribute("aria-label", `Refresh ${s.title}`);
  historyButton.setAttribute("aria-label", `History of ${s.title}`);
  historyButton.title = `History of ${s.title}`;
  el.dataset.view = view;
  el.dataset.phase = s.phase;
  el.dataset.loading = String(loading);
  el.dataset.pinned = String(Boolean(s.debugPinned));
  el.dataset.stale = String(Boolean(s.stale));
  el.dataset.restored = String(Boolean(s.restored));
  el.dataset.heartbeat = String(Boolean(s.heartbeat));
  shell.body.setAttribute("aria-busy", String(loading));
}

/**
 * Draws a state's locations and maintenance window over the body, and its footer.
 * @param {PanelShell} shell @param {PanelState} s @param {ViewKind} view
 */
export function drawLocationsAndFooter(shell, s, view) {
  const nextLocations = renderLocations(s);
  if (shell.locations && nextLocations) shell.locations.replaceWith(nextLocations);
  else if (nextLocations) shell.el.insertBefore(nextLocations, shell.body);
  else shell.locations?.remove();
  shell.locations = nextLocations;
  drawMaintenance(shell, s);

  shell.phaseLabel.textContent = s.queued && s.isLoading ? "Queued"
    : s.heartbeat && s.phase === "initial" ? "Waiting" : PHASE_LABEL[s.phase] ?? s.phase;
  const when = clockTime(s.since);
  shell.updated.textContent = when ? `since ${when}` : "";
  if (s.since) shell.updated.setAttribute("datetime", s.since);
  else shell.updated.removeAttribute("datetime");
  // The server's own field, sent with each change: checks that show the same result send
  // nothing, so this is the newest load time as of the newest change or snapshot.
  shell.loadTime.textContent = typeof s.loadMs === "number" && s.phase !== "initial" ? `took ${loadTimeText(s.loadMs)}` : "";
  // Measurements of the same load (a ping's round trips), as the server sent them with it.
  const readings = view === "loaded" && !s.stale && Array.isArray(s.readings) ? s.readings : [];
  replaceChildren(shell.readings, ...readings.map((r) =>
    h("div", { class: "reading" }, h("dt", { text: String(r.label ?? "") }), h("dd", { text: String(r.value ?? "") }))));
  replaceChildren(shell.footerExtra, view === "loaded" && !s.stale && s.retry ? retryLine(s.retry) : null);
}

/**
 * Draws the maintenance window a panel is under over its body, or removes the line.
 * @param {PanelShell} shell @param {PanelState} s
 */
function drawMaintenance(shell, s) {
  const next = maintenanceLine(s.maintenance);
  if (shell.maintenance && next) shell.maintenance.replaceWith(next);
  else if (next) shell.el.insertBefore(next, shell.locations ?? shell.body);
  else shell.maintenance?.remove();
  shell.maintenance = next;
  shell.el.dataset.maintenance = String(Boolean(next));
}

/**
 * Draws a heartbeat panel's status under the body (its section made at the first one), or removes it.
 * @param {PanelShell} shell @param {PanelState} s @param {ViewKind} view @param {PanelActions} actions
 */
export function drawHeartbeat(shell, s, view, actions) {
  if (!s.heartbeat) {
    shell.heartbeat?.el.remove();
    return;
  }
  shell.heartbeat ??= createHeartbeatView(s.id, () => actions.pingPath(s.id));
  if (!shell.heartbeat.el.isConnected) shell.body.after(shell.heartbeat.el);
  shell.heartbeat.update(s, s.heartbeat, view === "initial" && s.health !== "down");
}
