// @ts-check
// Every HTTP call the page makes (PROTOCOL.md routes). A failed call (network error or an error
// answer `{"error": {"code", "message"}}`) is reported once through `onError`, which app.js turns
// into an error toast; the call then resolves to null instead of throwing.
import { config } from "./config.js";

/** @typedef {import('./types.js').StateDocument} StateDocument */
/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./types.js').Info} Info */
/** @typedef {import('./types.js').UptimeReport} UptimeReport */
/** @typedef {import('./types.js').HistoryPage} HistoryPage */
/** @typedef {import('./types.js').MaintenanceWindow} MaintenanceWindow */
/** @typedef {import('./types.js').Incident} Incident */
/** @typedef {import('./types.js').IncidentStatus} IncidentStatus */
/** @typedef {import('./types.js').NotifyTestAnswer} NotifyTestAnswer */
/** @typedef {import('./types.js').NotifyLog} NotifyLog */
/** @typedef {import('./types.js').AuditLog} AuditLog */
/** @typedef {import('./types.js').Moment} Moment */
/** @typedef {import('./types.js').ChangesPage} ChangesPage */

/**
 * What a read answers: the document, or why there is none. Reads for drawing (the timeline, the
 * history dialog) report their failure where they draw, not as a toast.
 * @template T
 * @typedef {{ok: true, data: T} | {ok: false, failure: ApiFailure}} ReadResult
 */

/**
 * @typedef {object} ApiFailure
 * @property {number} status 0 for a network error
 * @property {string} code the server's error code, or "network"
 * @property {string} message
 */

/**
 * @param {{onError: (failure: ApiFailure) => void, fetchImpl?: typeof fetch}} opts
 */
export function createApi(opts) {
  const doFetch = opts.fetchImpl ?? ((input, init) => fetch(input, init));

  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @param {{quiet?: boolean}} [callOpts] quiet: do not report a failure
   * @returns {Promise<any | null>}
   */
  async function call(method, path, body, callOpts = {}) {
    const result = await send(method, path, body);
    if (result.ok) return result.data;
    if (!callOpts.quiet) opts.onError(result.failure);
    return null;
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @returns {Promise<ReadResult<any>>}
   */
  const send = (method, path, body) => request(doFetch, method, path, body);

  return {
    /** @returns {Promise<StateDocument | null>} */
    getState: () => call("GET", config.routes.state, undefined, { quiet: true }),
    /**
     * The state document as it was at `at` (PROTOCOL.md, "Moments"); its failure is drawn in the
     * moment's banner.
     * @param {string} at
     * @returns {Promise<ReadResult<Moment>>}
     */
    stateAt: (at) => send("GET", config.routes.stateAt(at)),
    /**
     * A page of every panel's changes, oldest first (`order: "newest"`: newest first, the cursor reading back).
     * @param {{from?: string, to?: string, limit?: number, cursor?: string | null, order?: "oldest" | "newest"}} query
     * @returns {Promise<ReadResult<ChangesPage>>}
     */
    changes: (query) => send("GET", config.routes.changes(query)),
    /** @returns {Promise<import('./access.js').CallerDocument | null>} */
    getCaller: () => call("GET", config.routes.caller, undefined, { quiet: true }),
    /** @param {string} panelId */
    retry: (panelId) => call("POST", config.routes.retry(panelId)),
    /** @param {string} panelId @param {string} option */
    recover: (panelId, option) => call("POST", config.routes.recover(panelId), { option }),
    /** @param {string} panelId @param {string} itemId @param {string} actionId */
    itemAction: (panelId, itemId, actionId) => call("POST", config.routes.itemAction(panelId, itemId, actionId)),
    /**
     * @param {string} panelId
     * @param {Record<string, unknown>} body one of PROTOCOL.md's debug bodies
     * @returns {Promise<PanelState | null>}
     */
    debugState: (panelId, body) => call("POST", config.routes.debugState(panelId), body),
    /**
     * A panel's uptime and timeline.
     * @param {string} panelId
     * @param {{span?: string, slots?: number, to?: string}} query
     * @returns {Promise<ReadResult<UptimeReport>>}
     */
    uptime: (panelId, query) => send("GET", config.routes.uptime(panelId, query)),
    /**
     * The path a heartbeat's job pings, for an operator; its failure is drawn on the card.
     * @param {string} panelId
     * @returns {Promise<ReadResult<{pingPath: string}>>}
     */
    pingPath: (panelId) => send("GET", config.routes.pingPath(panelId)),
    /**
     * A page of a panel's stored changes, newest first.
     * @param {string} panelId
     * @param {{from?: string, to?: string, limit?: number, cursor?: string | null}} query
     * @returns {Promise<ReadResult<HistoryPage>>}
     */
    history: (panelId, query) => send("GET", config.routes.history(panelId, query)),
    ...maintenanceCalls(call),
    ...incidentCalls(call, send),
    ...notifyCalls(send),
  };
}

/**
 * Starting and ending maintenance windows, through `call`.
 * @param {(method: string, path: string, body?: unknown) => Promise<any | null>} call
 */
function maintenanceCalls(call) {
  return {
    /**
     * Starts a maintenance window now.
     * @param {{panels: string[], groups: string[], minutes: number, reason: string}} body
     * @returns {Promise<MaintenanceWindow | null>}
     */
    startMaintenance: (body) => call("POST", config.routes.maintenance, body),
    /**
     * Ends an active maintenance window now.
     * @param {string} id
     * @returns {Promise<MaintenanceWindow | null>}
     */
    endMaintenance: (id) => call("DELETE", config.routes.endMaintenance(id)),
  };
}

/**
 * Listing, opening and updating incidents: the list through `send` (the dialog draws its failure),
 * the writes through `call` (a failure is toasted).
 * @param {(method: string, path: string, body?: unknown) => Promise<any | null>} call
 * @param {(method: string, path: string, body?: unknown) => Promise<ReadResult<any>>} send
 */
function incidentCalls(call, send) {
  return {
    /**
     * Open and past incidents, newest opened first.
     * @param {number} limit
     * @returns {Promise<ReadResult<{incidents: Incident[]}>>}
     */
    listIncidents: (limit) => send("GET", config.routes.incidentList(limit)),
    /**
     * Opens an incident, or an announcement without panels.
     * @param {{title: string, panels: string[], status: IncidentStatus, message: string}} body
     * @returns {Promise<Incident | null>}
     */
    openIncident: (body) => call("POST", config.routes.incidents, body),
    /**
     * Adds an update; status `resolved` resolves the incident.
     * @param {string} id
     * @param {{status: IncidentStatus, message: string}} body
     * @returns {Promise<Incident | null>}
     */
    updateIncident: (id, body) => call("POST", config.routes.incidentUpdates(id), body),
  };
}

/**
 * A notify target's test and the notification log, through `send`: their failures are drawn in
 * the notifications dialog, not toasted.
 * @param {(method: string, path: string, body?: unknown) => Promise<ReadResult<any>>} send
 */
function notifyCalls(send) {
  return {
    /**
     * A test notification sent to every notify target named `target`.
     * @param {string} target
     * @returns {Promise<ReadResult<NotifyTestAnswer>>}
     */
    notifyTest: (target) => send("POST", config.routes.notifyTest, { target }),
    /**
     * The notification log, newest first.
     * @returns {Promise<ReadResult<NotifyLog>>}
     */
    notifyLog: () => send("GET", config.routes.notifyLog),
    /**
     * The signed actions, newest first: of one panel or the whole deck, between two times.
     * @param {{panel?: string, since?: string, until?: string, limit?: number}} query
     * @returns {Promise<ReadResult<AuditLog>>}
     */
    audit: (query) => send("GET", config.routes.audit(query)),
  };
}

/**
 * One call: its JSON document, or why there is none.
 * @param {typeof fetch} doFetch
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<ReadResult<any>>}
 */
async function request(doFetch, method, path, body) {
  /** @type {RequestInit} */
  const init = { method, headers: { Accept: "application/json" }, cache: "no-store" };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, "Content-Type": "application/json" };
  }
  let res;
  try {
    res = await doFetch(path, init);
  } catch (err) {
    return { ok: false, failure: { status: 0, code: "network", message: "Could not reach the StateDeck server." } };
  }
  const text = await res.text().catch(() => "");
  /** @type {any} */
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) return { ok: false, failure: describeFailure(res.status, json, path) };
  return { ok: true, data: json ?? {} };
}

/**
 * @param {number} status
 * @param {any} json
 * @param {string} path
 * @returns {ApiFailure}
 */
export function describeFailure(status, json, path) {
  const err = json && typeof json === "object" ? json.error : null;
  if (err && typeof err.message === "string" && err.message) {
    return { status, code: typeof err.code === "string" ? err.code : "internal", message: err.message };
  }
  return { status, code: "internal", message: `The server answered ${status} to ${path}.` };
}

/** @typedef {ReturnType<typeof createApi>} Api */
