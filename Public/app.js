// @ts-check
// Wiring: the store feeds the views; the leader tab's stream (or the relay, in the other tabs) feeds
// the store; clicks go out through api.js. No module below decides anything the server decides.
import { config } from "./config.js";
import { createApi } from "./api.js";
import { store } from "./store.js";
import { createEventStream } from "./stream.js";
import { createTabs } from "./tabs.js";
import { createPanelView } from "./panel.js";
import { createToaster } from "./toast.js";
import { createConnectionView } from "./connection.js";
import { refreshCountdowns } from "./error-card.js";
import { refreshSince } from "./timeline-figures.js";
import { setShownMoment } from "./shown-moment.js";
import { installHistory } from "./history.js";
import { createNoticeView } from "./notice.js";
import { installMaintenanceControl } from "./maintenance-control.js";
import { installIncidentControl } from "./incident-control.js";
import { createIncidentBanner } from "./incidents.js";
import { createOverviewModel, listsByState } from "./overview-model.js";
import { createOverview } from "./overview.js";
import { createOverviewControls } from "./overview-controls.js";
import { createCompactRow } from "./compact-row.js";
import { createSummaryBar, documentTitle } from "./summary.js";
import { createFaviconBadge } from "./favicon.js";
import { readView, writeView } from "./view-url.js";
import { createDesktopNotifications } from "./desktop-notifications.js";
import { installNotify } from "./notify.js";
import { installAudit } from "./audit.js";
import { setCaller, allows } from "./access.js";
import { installTravel } from "./travel.js";

/** @typedef {import('./debug.js').Debug} Debug */
/** @typedef {import('./view-url.js').View} View */

/**
 * @template {HTMLElement} T
 * @param {string} selector
 * @returns {T}
 */
function $(selector) {
  const el = document.querySelector(selector);
  if (!el) throw new Error(`index.html lacks ${selector}`);
  return /** @type {T} */ (el);
}

const panelsRoot = $("#panels");
const emptyState = $("#empty");
const deckTitle = $("#deck-title");
const headerTools = $("#header-tools");

let localToasts = 0;
const toaster = createToaster({
  host: $("#toast-host"),
  onAction: (toast) => {
    if (toast.panelId && toast.action) void api.recover(toast.panelId, toast.action.id);
  },
});

const api = createApi({
  onError: (failure) =>
    toaster.show({
      id: `local-${++localToasts}`,
      style: "error",
      message: failure.message,
      durationMs: store.settings?.toast.durationMs ?? 0,
      position: store.settings?.toast.position ?? "bottom",
    }),
});

const connectionView = createConnectionView({
  banner: $("#connection-banner"),
  detail: $("#connection-detail"),
  reconnectButton: $("#reconnect-now"),
  pill: $("#connection-status"),
  announce: toaster.announce,
  onReconnectNow: () => reconnectNow(),
});

// ---- panels: the overview -------------------------------------------------------------------------

/** @type {import('./panel.js').PanelActions} */
const panelActions = {
  retry: (id) => api.retry(id),
  recover: (id, option) => api.recover(id, option),
  itemAction: (id, item, action) => api.itemAction(id, item, action),
  uptime: (id, query) => api.uptime(id, query),
  pingPath: (id) => api.pingPath(id),
  openHistory: (id, opener, slot) => historyView.open(id, opener, slot),
  openPanel: (id) => overview.focusPanel(id),
};

const model = createOverviewModel();
/** @type {View} */
let view = readView(location.search);

const overview = createOverview({
  root: panelsRoot,
  stateOf: (id) => store.panel(id),
  makeCard: (id) => {
    const card = createPanelView(id, panelActions);
    debug?.decorate(card, id);
    return card;
  },
  makeRow: (id) =>
    createCompactRow(id, {
      actions: panelActions,
      settings: () => store.settings?.history ?? null,
      onToggle: (panelId) => overview.toggleCard(panelId),
    }),
  onToggleGroup: (key) => {
    const collapsed = view.collapsed.includes(key) ? view.collapsed.filter((k) => k !== key) : [...view.collapsed, key];
    changeView({ collapsed }, { push: false });
  },
  onRelayout: () => relist(),
});

const desktopNotifications = createDesktopNotifications({
  host: headerTools,
  onOpenPanel: (id) => overview.focusPanel(id),
});

const summaryBar = createSummaryBar($("#summary"), {
  onSelect: (state) => changeView({ state }, { push: true }),
});
const favicon = createFaviconBadge(/** @type {HTMLLinkElement} */ ($("link[rel='icon']")));
const overviewStatus = $("#overview-status");
/** @type {ReturnType<typeof setTimeout> | undefined} */
let addressTimer;

const controls = createOverviewControls({
  search: $("#search"),
  sort: $("#sort"),
  density: $(".density"),
  // Typing answers at once; the address follows in place once typing pauses.
  onSearch: (q) => {
    view = { ...view, q };
    relist();
    clearTimeout(addressTimer);
    addressTimer = setTimeout(() => writeView(view, { push: false }), config.overview.addressDelayMs);
  },
  onSort: (sort) => changeView({ sort }, { push: true }),
  onDensity: (density) => changeView({ density }, { push: true }),
  onStep: (step) => overview.step(step),
});

/**
 * A person changed the view: into the address, then drawn.
 * @param {Partial<View>} patch
 * @param {{push: boolean}} how push: a new history entry (Back returns to the view before)
 */
function changeView(patch, how) {
  clearTimeout(addressTimer);
  view = { ...view, ...patch };
  writeView(view, how);
  controls.sync(view);
  relist();
}

window.addEventListener("popstate", () => {
  view = readView(location.search);
  controls.sync(view);
  relist();
});

/** Draws the sections the view selects, and says how many panels match. */
function relist() {
  const sections = model.sections(view);
  overview.render(sections, view, model.size);
  summaryBar.render(model.counts, view.state);
  const matching = sections.reduce((n, s) => n + s.matching, 0);
  const filtered = Boolean(view.q.trim() || view.state);
  const status = filtered ? `${matching.toLocaleString()} of ${model.size.toLocaleString()} panels match` : "";
  if (overviewStatus.textContent !== status) overviewStatus.textContent = status;
  renderEmpty(filtered && matching === 0);
}

/** @param {boolean} [noMatch] a filter leaves no panel */
function renderEmpty(noMatch = false) {
  const none = store.order.length === 0;
  emptyState.hidden = !none && !noMatch;
  emptyState.textContent = noMatch
    ? "No panel matches. Clear the search or the state filter to see every panel."
    : store.synced
      ? "This deck has no panels."
      : "Connecting to StateDeck…";
}

function renderCounts() {
  summaryBar.render(model.counts, view.state);
  const title = documentTitle(store.title, model.counts.failing);
  if (document.title !== title) document.title = title;
  void favicon.show(model.counts.failing);
}

// Changes are drawn once a frame, however many arrive: a thousand a second cost one pass a frame.
// A tab in the background gets no frames, so a timer draws them there (its title and icon follow).
/** Panels whose state changed since the last pass, each with when its newest state arrived. */
/** @type {Map<string, number>} */
const dirty = new Map();
let relistNeeded = false;
/** A panel's health or pin changed: the groups' counts change, and what a view by state lists. */
let statesChanged = false;
let passScheduled = false;

function schedulePass() {
  if (passScheduled) return;
  passScheduled = true;
  if (document.hidden) setTimeout(pass, config.overview.hiddenFlushMs);
  else requestAnimationFrame(pass);
}
// A pass waiting for a frame when the tab goes to the background would wait until it comes back.
document.addEventListener("visibilitychange", () => {
  if (document.hidden && passScheduled) setTimeout(pass, config.overview.hiddenFlushMs);
});

function pass() {
  if (!passScheduled) return;
  passScheduled = false;
  if (relistNeeded || (statesChanged && listsByState(view))) relist();
  else if (statesChanged) overview.drawCounts(model.countsOf);
  relistNeeded = false;
  statesChanged = false;
  overview.update(dirty);
  dirty.clear();
  renderCounts();
  if (config.markAppliedEvents) performance.mark("statedeck:applied", { detail: { eventId: store.lastEventId } });
}

// ---- the history view and the deck's notice ---------------------------------------------------------

const historyView = installHistory({
  api,
  store,
  onDialogOpen: (dialog) => toaster.hostIn(dialog),
  onDialogClose: () => toaster.hostIn(document.body),
  // The card's History button, or the card itself while the button is hidden (no timeline yet):
  // focus on a hidden button would be lost.
  openerFor: (id) => {
    const card = overview.cardOf(id);
    const button = card?.historyButton;
    return button && !button.hidden ? button : card?.el ?? null;
  },
});
const noticeView = createNoticeView($("#deck-notice"));
const maintenanceControl = installMaintenanceControl({
  host: headerTools,
  store,
  api,
  onDialogOpen: (dialog) => toaster.hostIn(dialog),
  onDialogClose: () => toaster.hostIn(document.body),
});
const incidentBanner = createIncidentBanner($("#incident-banner"));
// The roles decide whether this page may write: `incidentControl.setWritable(false)` hides every
// control that opens, updates or resolves one.
const incidentControl = installIncidentControl({
  host: headerTools,
  store,
  api,
  onDialogOpen: (dialog) => toaster.hostIn(dialog),
  onDialogClose: () => toaster.hostIn(document.body),
});

installNotify({
  api,
  store,
  host: headerTools,
  // After the desktop notifications toggle, before the connection's pill.
  before: $("#connection-status"),
  onDialogOpen: (dialog) => toaster.hostIn(dialog),
  onDialogClose: () => toaster.hostIn(document.body),
});

installAudit({
  api,
  host: headerTools,
  // After the Notifications button, before the connection's pill.
  before: $("#connection-status"),
  onDialogOpen: (dialog) => toaster.hostIn(dialog),
  onDialogClose: () => toaster.hostIn(document.body),
});

// ---- time travel: the board at a past moment -------------------------------------------------------

/** True while the board shows a past moment: the stream's events wait unapplied, no tab is sent it. */
let inPast = false;

/** What the role allows may differ between a past moment and the live board (access.js). */
function regate() {
  incidentControl.setWritable(allows("incidents"));
  void syncDebug();
}

const travel = installTravel({
  api,
  host: headerTools,
  // After the Audit button, before the connection's pill.
  before: $("#connection-status"),
  banner: $("#moment-banner"),
  region: $("#travel"),
  onMoment: (moment) => {
    inPast = true;
    setShownMoment(moment.at);
    document.body.dataset.moment = "past";
    store.applySnapshot(moment, { authoritative: true });
    regate();
  },
  // A page opened at a moment that cannot be shown has no board: the banner is all it says.
  onFailed: () => {
    if (!store.synced) emptyState.hidden = true;
  },
  onLive: () => {
    inPast = false;
    setShownMoment(null);
    delete document.body.dataset.moment;
    regate();
    void api.getState().then((doc) => {
      if (doc && !inPast) store.applySnapshot(doc, { authoritative: true });
    });
  },
});

/** The changes to the live deck (the store's, or the stream's while a past moment is shown) after
 * which the open timeline reads its marks again: an incident's change arrives as the stream's
 * `incident` and the store tells it as `incidents`. */
const timelineKinds = new Set(["panel", "incidents", "incident", "snapshot"]);

// A past moment drawn on the board is no change to the live deck.
store.subscribe((change) => {
  if (!inPast && timelineKinds.has(change.kind)) travel.deckChanged();
});

// ---- debug (loaded only when the server runs with --debug) ---------------------------------------

/** @type {Debug | null} */
let debug = null;
let debugWanted = false;
/** Loads of debug.js that failed (the server went away meanwhile): a browser keeps a failed module
 * import, so the next try asks under another fragment, which the request leaves out. */
let debugLoadFailures = 0;

async function syncDebug() {
  // Only for a role that may force states: others get no debug control at all.
  debugWanted = store.debug && allows("debug");
  if (debugWanted && !debug) {
    /** @type {typeof import('./debug.js')} */
    let loaded;
    try {
      loaded = await import(debugLoadFailures ? `./debug.js#${debugLoadFailures}` : "./debug.js");
    } catch {
      // The state drawn next tries again.
      debugLoadFailures += 1;
      return;
    }
    const { installDebug } = loaded;
    if (!debugWanted || debug) return;
    debug = installDebug({
      api,
      store,
      panelsRoot,
      headerSlot: headerTools,
      onDialogOpen: (dialog) => toaster.hostIn(dialog),
      onDialogClose: () => toaster.hostIn(document.body),
    });
    for (const [id, card] of overview.cards()) debug.decorate(card, id);
  } else if (!debugWanted && debug) {
    debug.uninstall();
    debug = null;
  }
}

function renderMeta() {
  deckTitle.textContent = store.title || "StateDeck";
  document.title = documentTitle(store.title, model.counts.failing);
  connectionView.setReplay(store.replay);
  void syncDebug();
}

store.subscribe((change) => {
  switch (change.kind) {
    case "meta":
      renderMeta();
      break;
    case "snapshot": {
      // A reconnection's snapshot, for one: debug.js may not have loaded while the server was away.
      void syncDebug();
      model.setGroups(store.groups);
      model.reset(store.order, store.panel);
      // A new state document may come from a restarted server: the timelines already drawn are
      // asked for again (a panel new to the page asks when it is first drawn).
      for (const [, card] of overview.cards()) card.refreshTimeline();
      // Only the cards and lines drawn now are redrawn; one drawn later takes the new state then.
      const now = performance.now();
      for (const id of overview.drawnIds()) dirty.set(id, now);
      relistNeeded = true;
      schedulePass();
      break;
    }
    case "notice":
      noticeView.update(store.notice);
      break;
    case "maintenance":
      maintenanceControl.update();
      break;
    case "incidents":
      incidentBanner.update(store.incidents);
      incidentControl.update();
      break;
    case "panel": {
      const state = store.panel(change.id);
      if (!state) break;
      const changed = model.update(state);
      if (changed === "list") relistNeeded = true;
      else if (changed === "state") statesChanged = true;
      dirty.set(change.id, performance.now());
      schedulePass();
      break;
    }
    case "toast":
      toaster.show(change.toast);
      break;
    case "connection":
      connectionView.update(store.connection);
      break;
  }
});

// ---- the stream, shared by the tabs ---------------------------------------------------------------

/**
 * Applies one stream event given as its JSON text; false when the text is not JSON.
 * @param {string} type
 * @param {string} text
 * @param {string | null} id
 */
function applyEventText(type, text, id) {
  if (inPast) {
    if (timelineKinds.has(type)) travel.deckChanged();
    return true;
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return false;
  }
  if (type === "notification") desktopNotifications.hear(data, id);
  else store.applyEvent(type, data, id);
  return true;
}

const stream = createEventStream({
  url: config.routes.events,
  silenceMs: () => (store.settings ? store.settings.pingIntervalMs * config.deadStreamFactor : null),
  lastEventId: () => (store.lastEventId === null ? null : String(store.lastEventId)),
  onEvent: (e) => {
    const id = e.hasId && e.lastEventId ? e.lastEventId : null;
    if (!applyEventText(e.type, e.data, id)) return;
    tabs?.relayEvent(e.type, e.data, id);
  },
  onStatus: (s) => {
    store.setConnection(s);
    tabs?.relayConnection(s);
  },
});

// Who the user is comes with the state document, so the first panels are drawn with the controls
// their role allows (access.js). A page opened at a past moment takes that moment (travel.js) and
// neither asks for the live state nor opens the stream.
const bootstrap = Promise.all([travel.bootedAt === null ? api.getState() : null, api.getCaller()]).then(([doc, caller]) => {
  setCaller(caller);
  incidentControl.setWritable(allows("incidents"));
  void syncDebug();
  if (doc) store.applySnapshot(doc, { authoritative: false });
});

const tabs = travel.bootedAt !== null ? null : createTabs({
  onBecomeLeader: () => {
    // Open the stream once the state document is in, so the stream resumes right after it
    // (Last-Event-ID) instead of sending the same state again.
    void bootstrap.finally(() => stream.start());
  },
  getSync: () => ({ snapshot: store.synced && !inPast ? store.toSnapshot() : null, connection: store.connection }),
  onEvent: applyEventText,
  onConnection: (c) => store.setConnection(c),
  onSync: (snapshot, c) => {
    if (snapshot && !inPast) store.applySnapshot(snapshot, { authoritative: false });
    store.setConnection(c);
  },
  onReconnectRequest: () => stream.reconnectNow(),
});

// ---- housekeeping ---------------------------------------------------------------------------------

setInterval(() => {
  refreshCountdowns(panelsRoot);
  refreshSince(document);
  connectionView.tick();
}, config.tickMs);

/** The leader reconnects at once; another tab asks the leader to. */
function reconnectNow() {
  if (!tabs) return;
  if (tabs.isLeader) stream.reconnectNow();
  else tabs.requestReconnect();
}
// Back online, or back in front (a background leader's timers may be throttled): try at once.
window.addEventListener("online", () => {
  if (store.connection.status === "down") reconnectNow();
});
document.addEventListener("visibilitychange", () => {
  if (!document.hidden && store.connection.status === "down") reconnectNow();
});

window.addEventListener("pagehide", () => stream.stop());
window.addEventListener("pageshow", (ev) => {
  // Back from the back/forward cache: the stream and the tab relay were torn down; start afresh.
  if (ev.persisted) location.reload();
});

controls.sync(view);
relist();
connectionView.update(store.connection);
historyView.syncWithAddress();
