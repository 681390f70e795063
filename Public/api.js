// @ts-check
// Every HTTP call the page makes (PROTOCOL.md routes). A failed call (network error or an error
// answer `{"error": {"code", "message"}}`) is reported once through `onError`, which app.js turns
// into an error toast; the call then resolves to null instead of throwing.
import { config } from "./config.js";

/** @typedef {import('./types.js').StateDocument} StateDocument */
/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./types.js').Info} Info */

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
      if (!callOpts.quiet) {
        opts.onError({ status: 0, code: "network", message: "Could not reach the StateDeck server." });
      }
      return null;
    }
    const text = await res.text().catch(() => "");
    /** @type {any} */
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!res.ok) {
      if (!callOpts.quiet) opts.onError(describeFailure(res.status, json, path));
      return null;
    }
    return json ?? {};
  }

  return {
    /** @returns {Promise<StateDocument | null>} */
    getState: () => call("GET", config.routes.state, undefined, { quiet: true }),
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
  };
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
