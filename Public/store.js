// @ts-check
// The page's copy of the server's state: panel states by id (in deck order), the deck title and debug
// flag, the groups, the last toast, the deck-level notice, the maintenance windows, the incidents and
// the stream's health. It applies the stream events of PROTOCOL.md (snapshot, panel, toast, notice,
// maintenance, incidents) and tells its listeners what changed.
// Panels travel as patches (only what changed; a new panel's fields that are not at their default), and
// the store keeps each one whole: it derives nothing beyond the three fields the protocol leaves out
// because they repeat others (see applyPatch).

/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./types.js').StateDocument} StateDocument */
/** @typedef {import('./types.js').Toast} Toast */
/** @typedef {import('./types.js').ConnectionState} ConnectionState */
/** @typedef {import('./types.js').Settings} Settings */
/** @typedef {import('./types.js').Notice} Notice */
/** @typedef {import('./types.js').PanelGroup} PanelGroup */
/** @typedef {import('./types.js').MaintenanceStatus} MaintenanceStatus */
/** @typedef {import('./types.js').MaintenanceWindow} MaintenanceWindow */
/** @typedef {import('./types.js').Incident} Incident */
/** @typedef {import('./types.js').Replay} Replay */

/**
 * @typedef {{kind: "snapshot"} | {kind: "panel", id: string} | {kind: "toast", toast: Toast}
 *   | {kind: "connection"} | {kind: "meta"} | {kind: "notice"} | {kind: "maintenance"} | {kind: "incidents"}} Change
 */

/**
 * A notice as sent, or null when the value is not one (the server clears it with null).
 * @param {unknown} value
 * @returns {Notice | null}
 */
function asNotice(value) {
  if (!value || typeof value !== "object") return null;
  const n = /** @type {Notice} */ (value);
  return typeof n.title === "string" ? n : null;
}

/**
 * A panel as the server's defaults describe it before any patch: what a patch leaves out of a panel
 * new to the page.
 * @param {string} id
 * @param {Settings | null} settings
 * @returns {PanelState}
 */
function blankPanel(id, settings) {
  return {
    id, title: id, group: null, phase: "initial", health: "unknown", since: null, isInitialLoading: false, isLoading: false,
    latestValidInfo: null, latestInfo: null, latestValidError: null, latestError: null, latestNonLoading: null,
    modifyingIds: null, presentation: /** @type {PanelState["presentation"]} */ (settings?.presentation ?? {}),
    placeholder: null, retry: null, debugPinned: false, stale: false, restored: false, queued: false,
    locations: null, locationsSummary: null, loadMs: null, readings: null, heartbeat: null,
    dependsOn: [], probableCauses: [], flapping: null,
  };
}

/**
 * `base` with `patch` applied. Patches never carry `latestInfo` while `latestValidInfo` is set, nor
 * `latestError` while `latestValidError` is, nor `latestNonLoading`: those repeat the valid fields.
 * @param {PanelState} base
 * @param {Partial<PanelState>} patch
 * @returns {PanelState}
 */
export function applyPatch(base, patch) {
  return withRepeatedFields({ ...base, ...patch });
}

/**
 * A panel new to the page from its compact form: the defaults, then the form written over them in
 * place (one object made per panel, not two: a state document brings thousands).
 * @param {Partial<PanelState> & {id: string}} compact
 * @param {Settings | null} settings
 * @returns {PanelState}
 */
function panelFromCompact(compact, settings) {
  return withRepeatedFields(Object.assign(blankPanel(compact.id, settings), compact));
}

/**
 * `next` with the three fields patches leave out set from the fields they repeat.
 * @param {PanelState} next
 * @returns {PanelState}
 */
function withRepeatedFields(next) {
  if (next.latestValidInfo) next.latestInfo = next.latestValidInfo;
  if (next.latestValidError) next.latestError = next.latestValidError;
  next.latestNonLoading = next.latestValidInfo
    ? { info: next.latestValidInfo }
    : next.latestValidError ? { error: next.latestValidError } : null;
  return next;
}

/**
 * What a store holds.
 * @typedef {object} Held
 * @property {Map<string, PanelState>} panels by id
 * @property {string[]} order the panels' ids in deck order
 * @property {string} title
 * @property {boolean} debug
 * @property {Replay | null} replay
 * @property {PanelGroup[]} groups
 * @property {Settings | null} settings
 * @property {boolean} synced a state document has been applied
 * @property {number | null} lastEventId
 * @property {Toast | null} toast
 * @property {Notice | null} notice
 * @property {MaintenanceStatus} maintenance
 * @property {Incident[]} incidents
 * @property {ConnectionState} connection
 */

/** @returns {Held} */
function nothingHeld() {
  return {
    panels: new Map(),
    order: [],
    title: "",
    debug: false,
    replay: null,
    groups: [],
    settings: null,
    synced: false,
    lastEventId: null,
    toast: null,
    notice: null,
    maintenance: { active: [], next: [] },
    incidents: [],
    connection: { status: "connecting", attempt: 0, downSince: null, nextRetryAt: null },
  };
}

/**
 * @param {unknown} v a state document's `replay`
 * @returns {Replay | null}
 */
function asReplay(v) {
  if (!v || typeof v !== "object") return null;
  const { file, at } = /** @type {Record<string, unknown>} */ (v);
  return typeof file === "string" && typeof at === "string" ? { file, at } : null;
}

/** @param {unknown} v */
function toId(v) {
  if (v === null || v === undefined || v === "") return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/**
 * Replaces what is held with a state document (see the store's applySnapshot).
 * @param {Held} held
 * @param {StateDocument} doc
 * @param {{authoritative: boolean, eventId?: number | string | null}} opts
 * @param {(change: Change) => void} emit
 * @returns {boolean} whether it was applied
 */
function applySnapshot(held, doc, opts, emit) {
  if (!doc || !Array.isArray(doc.panels)) return false;
  const docId = toId(doc.lastEventId) ?? toId(opts.eventId);
  if (!opts.authoritative && held.synced && held.lastEventId !== null && (docId === null || docId < held.lastEventId)) {
    return false;
  }
  const replay = asReplay(doc.replay);
  const metaChanged = doc.title !== held.title || Boolean(doc.debug) !== held.debug || JSON.stringify(replay) !== JSON.stringify(held.replay);
  held.title = typeof doc.title === "string" ? doc.title : "";
  held.debug = Boolean(doc.debug);
  held.replay = replay;
  if (doc.settings && typeof doc.settings === "object") held.settings = doc.settings;
  held.groups = Array.isArray(doc.groups) ? doc.groups : [];
  held.lastEventId = docId ?? held.lastEventId;
  held.panels.clear();
  held.order = [];
  for (const p of doc.panels) {
    if (!p || typeof p.id !== "string") continue;
    if (!held.panels.has(p.id)) held.order.push(p.id);
    held.panels.set(p.id, panelFromCompact(p, held.settings));
  }
  held.synced = true;
  const nextNotice = asNotice(doc.notice);
  const noticeChanged = JSON.stringify(nextNotice) !== JSON.stringify(held.notice);
  held.notice = nextNotice;
  if (metaChanged) emit({ kind: "meta" });
  emit({ kind: "snapshot" });
  if (noticeChanged) emit({ kind: "notice" });
  held.maintenance = asMaintenance(doc.maintenance);
  emit({ kind: "maintenance" });
  held.incidents = asIncidents(doc.incidents);
  emit({ kind: "incidents" });
  // The toast in a state document is news only if it differs from the last one heard
  // (a reconnecting tab must not re-show, and re-arm, the toast it is already showing).
  if (doc.toast && JSON.stringify(doc.toast) !== JSON.stringify(held.toast)) {
    held.toast = doc.toast;
    emit({ kind: "toast", toast: doc.toast });
  }
  return true;
}

/**
 * Applies a stream event other than a snapshot (see the store's applyEvent).
 * @param {Held} held
 * @param {string} type
 * @param {any} data
 * @param {number | string | null} eventId
 * @param {(change: Change) => void} emit
 */
function applyChange(held, type, data, eventId, emit) {
  const id = toId(eventId);
  if (id !== null && held.lastEventId !== null && id <= held.lastEventId) return;
  if (type === "panel") {
    if (!data || typeof data.id !== "string") return;
    if (id !== null) held.lastEventId = id;
    const panel = held.panels.get(data.id);
    if (!panel) held.order.push(data.id);
    held.panels.set(data.id, panel ? applyPatch(panel, data) : panelFromCompact(data, held.settings));
    emit({ kind: "panel", id: data.id });
  } else if (type === "toast") {
    if (!data || typeof data.message !== "string") return;
    if (id !== null) held.lastEventId = id;
    held.toast = data;
    emit({ kind: "toast", toast: data });
  } else if (type === "notice") {
    if (data !== null && !asNotice(data)) return;
    if (id !== null) held.lastEventId = id;
    held.notice = asNotice(data);
    emit({ kind: "notice" });
  } else if (type === "maintenance") {
    if (id !== null) held.lastEventId = id;
    held.maintenance = asMaintenance(data);
    emit({ kind: "maintenance" });
  } else if (type === "window") {
    if (!data || (data.list !== "active" && data.list !== "next") || typeof data.key !== "string") return;
    if (id !== null) held.lastEventId = id;
    const list = /** @type {"active" | "next"} */ (data.list);
    held.maintenance = { ...held.maintenance, [list]: withWindow(held.maintenance[list], data.key, data.window) };
    emit({ kind: "maintenance" });
  } else if (type === "incidents") {
    if (id !== null) held.lastEventId = id;
    held.incidents = asIncidents(data);
    emit({ kind: "incidents" });
  } else if (type === "incident") {
    if (!data || typeof data.id !== "string") return;
    if (id !== null) held.lastEventId = id;
    held.incidents = withIncident(held.incidents, data.id, data.incident);
    emit({ kind: "incidents" });
  }
}

/**
 * `list` with the incident of `id` replaced by `incident`, or left out when it is null (it left
 * the state document): newest opened first, as the server orders them.
 * @param {Incident[]} list
 * @param {string} id
 * @param {any} incident
 * @returns {Incident[]}
 */
function withIncident(list, id, incident) {
  const kept = list.filter((i) => i.id !== id).concat(asIncidents([incident]));
  return kept.sort((a, b) => (a.openedAt === b.openedAt ? (a.id < b.id ? 1 : -1) : a.openedAt < b.openedAt ? 1 : -1));
}

/**
 * `list` with the window of `key` (`id@from`) replaced by `window`, or left out when it is null:
 * by start, then id, as the server orders them.
 * @param {MaintenanceWindow[]} list
 * @param {string} key
 * @param {any} window
 * @returns {MaintenanceWindow[]}
 */
function withWindow(list, key, window) {
  const kept = list.filter((w) => `${w.id}@${w.from}` !== key).concat(asMaintenance({ active: [window] }).active);
  return kept.sort((a, b) => (a.from === b.from ? (a.id < b.id ? -1 : 1) : a.from < b.from ? -1 : 1));
}

/**
 * The incidents as sent; those without an id or updates are left out.
 * @param {any} v
 * @returns {Incident[]}
 */
function asIncidents(v) {
  return Array.isArray(v) ? v.filter((i) => i && typeof i.id === "string" && Array.isArray(i.updates) && i.updates.length) : [];
}

/**
 * The maintenance status as sent; nothing active or next when the value is not one.
 * @param {any} v
 * @returns {MaintenanceStatus}
 */
function asMaintenance(v) {
  const list = (/** @type {any} */ l) => (Array.isArray(l) ? l.filter((w) => w && typeof w.id === "string") : []);
  return { active: list(v?.active), next: list(v?.next) };
}

/**
 * @param {Held} held
 * @returns {StateDocument}
 */
function snapshotOf(held) {
  const { title, debug, replay, settings, groups, lastEventId, panels, order, notice, maintenance, incidents } = held;
  return { title, debug, replay, settings: settings ?? undefined, groups, lastEventId: lastEventId ?? 0, panels: order.map((id) => /** @type {PanelState} */ (panels.get(id))), toast: null, notice, maintenance, incidents };
}

/** Who hears a store's changes. */
function createListeners() {
  /** @type {Set<(c: Change) => void>} */
  const listeners = new Set();
  return {
    /** @param {Change} change */
    emit(change) {
      for (const l of listeners) l(change);
    },
    /** @param {(c: Change) => void} listener @returns {() => void} */
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function createStore() {
  const held = nothingHeld();
  const { emit, subscribe } = createListeners();

  const store = {
    subscribe,

    /**
     * Replaces everything with a state document.
     * @param {StateDocument} doc
     * @param {{authoritative: boolean, eventId?: number | string | null}} opts authoritative: it came
     *   from the stream (always applied); otherwise (GET /api/state, another tab) it is applied only
     *   when it is not older than what the store already holds.
     * @returns {boolean} whether it was applied
     */
    applySnapshot(doc, opts) {
      return applySnapshot(held, doc, opts, emit);
    },

    /**
     * Applies one stream event. Events whose id is not newer than the last applied one are dropped
     * (a tab can hear the same event twice: relayed, and in a state document).
     * @param {string} type "snapshot" | "panel" | "toast" | "notice" | "maintenance" | "window" | "incidents" | "incident"; others are ignored
     * @param {any} data the parsed JSON: for "panel", a patch of the panel's state
     * @param {number | string | null} [eventId]
     */
    applyEvent(type, data, eventId = null) {
      if (type === "snapshot") store.applySnapshot(data, { authoritative: true, eventId });
      else applyChange(held, type, data, eventId, emit);
    },

    /** @param {ConnectionState} next */
    setConnection(next) {
      held.connection = next;
      emit({ kind: "connection" });
    },

    /** @returns {StateDocument} the current state as a state document (for a new tab) */
    toSnapshot: () => snapshotOf(held),

    /** @param {string} id */
    panel: (id) => held.panels.get(id),
    get order() {
      return held.order.slice();
    },
    get title() { return held.title; },
    get debug() { return held.debug; },
    /** The fixture a replay server shows, null for a live deck. */
    get replay() { return held.replay; },
    /** The deck's groups, in the order of their first panels. */
    get groups() { return held.groups; },
    /** The server's drawing settings, from the newest state document; null before the first. */
    get settings() { return held.settings; },
    get synced() { return held.synced; },
    get lastEventId() { return held.lastEventId; },
    get toast() { return held.toast; },
    /** The deck-level notice, or null. */
    get notice() { return held.notice; },
    /** The maintenance windows holding now and next. */
    get maintenance() { return held.maintenance; },
    /** The incidents open, and those resolved less than a day ago, newest opened first. */
    get incidents() { return held.incidents; },
    get connection() { return held.connection; },
  };
  return store;
}

/** The page's one store (tests reach it with `import("/store.js")` to render fixture states). */
export const store = createStore();

/** @typedef {ReturnType<typeof createStore>} Store */
