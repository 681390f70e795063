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
import { refreshSince } from "./timeline.js";
import { installHistory } from "./history.js";
import { createNoticeView } from "./notice.js";

/** @typedef {import('./panel.js').PanelView} PanelView */
/** @typedef {import('./debug.js').Debug} Debug */

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

// ---- panels -------------------------------------------------------------------------------------

/** @type {Map<string, PanelView>} */
const views = new Map();
/** @type {import('./panel.js').PanelActions} */
const panelActions = {
  retry: (id) => api.retry(id),
  recover: (id, option) => api.recover(id, option),
  itemAction: (id, item, action) => api.itemAction(id, item, action),
  uptime: (id, query) => api.uptime(id, query),
  openHistory: (id, opener, slot) => historyView.open(id, opener, slot),
};

// ---- the history view and the deck's notice ---------------------------------------------------------

const historyView = installHistory({
  api,
  store,
  onDialogOpen: (dialog) => toaster.hostIn(dialog),
  onDialogClose: () => toaster.hostIn(document.body),
  openerFor: (id) => views.get(id)?.historyButton ?? views.get(id)?.el ?? null,
});
const noticeView = createNoticeView($("#deck-notice"));

/** @param {string} id */
function viewFor(id) {
  let view = views.get(id);
  if (!view) {
    view = createPanelView(id, panelActions);
    views.set(id, view);
    debug?.decorate(view, id);
  }
  return view;
}

function reconcilePanels() {
  const order = store.order;
  for (const [id, view] of views) {
    if (!order.includes(id)) {
      view.destroy();
      view.el.remove();
      views.delete(id);
    }
  }
  order.forEach((id, index) => {
    const view = viewFor(id);
    const state = store.panel(id);
    if (state) view.update(state);
    if (panelsRoot.children[index] !== view.el) panelsRoot.insertBefore(view.el, panelsRoot.children[index] ?? null);
  });
  renderEmpty();
}

function renderEmpty() {
  const none = store.order.length === 0;
  emptyState.hidden = !none;
  emptyState.textContent = store.synced ? "This deck has no panels." : "Connecting to StateDeck…";
}

// ---- debug (loaded only when the server runs with --debug) ---------------------------------------

/** @type {Debug | null} */
let debug = null;
let debugWanted = false;

async function syncDebug() {
  debugWanted = store.debug;
  if (debugWanted && !debug) {
    const { installDebug } = await import("./debug.js");
    if (!debugWanted || debug) return;
    debug = installDebug({
      api,
      store,
      panelsRoot,
      headerSlot: headerTools,
      onDialogOpen: (dialog) => toaster.hostIn(dialog),
      onDialogClose: () => toaster.hostIn(document.body),
    });
    for (const [id, view] of views) debug.decorate(view, id);
  } else if (!debugWanted && debug) {
    debug.uninstall();
    debug = null;
  }
}

function renderMeta() {
  const title = store.title || "StateDeck";
  deckTitle.textContent = title;
  document.title = title === "StateDeck" ? title : `${title} · StateDeck`;
  void syncDebug();
}

store.subscribe((change) => {
  switch (change.kind) {
    case "meta":
      renderMeta();
      break;
    case "snapshot": {
      const drawn = [...views.values()];
      reconcilePanels();
      // A new state document may come from a restarted server: the timelines already drawn are
      // asked for again (a panel new to the page asks when it is first drawn).
      for (const view of drawn) if (view.el.isConnected) view.refreshTimeline();
      break;
    }
    case "notice":
      noticeView.update(store.notice);
      break;
    case "panel": {
      const state = store.panel(change.id);
      if (!state) break;
      const isNew = !views.has(change.id);
      viewFor(change.id).update(state);
      if (isNew) reconcilePanels();
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
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return false;
  }
  store.applyEvent(type, data, id);
  return true;
}

const stream = createEventStream({
  url: config.routes.events,
  silenceMs: () => (store.settings ? store.settings.pingIntervalMs * config.deadStreamFactor : null),
  lastEventId: () => (store.lastEventId === null ? null : String(store.lastEventId)),
  onEvent: (e) => {
    const id = e.hasId && e.lastEventId ? e.lastEventId : null;
    if (!applyEventText(e.type, e.data, id)) return;
    if (config.markAppliedEvents) performance.mark("statedeck:applied", { detail: { eventId: Number(id) } });
    tabs.relayEvent(e.type, e.data, id);
  },
  onStatus: (s) => {
    store.setConnection(s);
    tabs.relayConnection(s);
  },
});

const bootstrap = api.getState().then((doc) => {
  if (doc) store.applySnapshot(doc, { authoritative: false });
});

const tabs = createTabs({
  onBecomeLeader: () => {
    // Open the stream once the state document is in, so the stream resumes right after it
    // (Last-Event-ID) instead of sending the same state again.
    void bootstrap.finally(() => stream.start());
  },
  getSync: () => ({ snapshot: store.synced ? store.toSnapshot() : null, connection: store.connection }),
  onEvent: applyEventText,
  onConnection: (c) => store.setConnection(c),
  onSync: (snapshot, c) => {
    if (snapshot) store.applySnapshot(snapshot, { authoritative: false });
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

renderEmpty();
connectionView.update(store.connection);
historyView.syncWithAddress();
