// @ts-check
// Every default of the page in one table. Nothing else in Public/ hard-codes a delay, a name or a route.

export const config = Object.freeze({
  /** A loading indicator appears only after this long, so fast loads do not flash. */
  spinnerDelayMs: 300,
  /** The "reconnecting" banner appears only after the stream has been down this long. */
  bannerDelayMs: 500,
  /** Reconnection backoff: base * factor^(attempt-1), capped, then spread by ±jitter (a fraction). */
  backoff: Object.freeze({ baseMs: 500, factor: 2, capMs: 10_000, jitter: 0.3 }),
  /** The server sends `: ping` at least this often while idle (PROTOCOL.md). */
  pingIntervalMs: 15_000,
  /** A stream silent for more than this many ping intervals is treated as dead. */
  deadStreamFactor: 2,
  /** Toasts made by the page itself (a failed HTTP call) stay this long. */
  localToastDurationMs: 6_000,
  /** Used when a server toast carries no usable durationMs. */
  defaultToastDurationMs: 4_000,
  /** Countdowns ("next in 4 s") and relative times are refreshed this often. */
  tickMs: 1_000,
  /** With `?bench` in the address, each applied stream event leaves a `statedeck:applied`
   * performance mark carrying its event id, for `make bench` (off otherwise: marks accumulate). */
  markAppliedEvents: new URLSearchParams(location.search).has("bench"),
  /** Clicks in a row on a panel that open the debug dialog (seed 004: tap three times). */
  debugClickCount: 3,
  /** Cross-tab sharing of the one event stream. */
  tabs: Object.freeze({ lockName: "statedeck-stream-leader", channelName: "statedeck-relay" }),
  /** Loading presentations when the server sends none (seed 004's defaults). */
  presentationDefaults: Object.freeze({
    initialLoading: Object.freeze({ type: "material" }),
    loadingAfterInfo: Object.freeze({ type: "horizontal" }),
    loadingAfterError: Object.freeze({ type: "overCurrentContent", alignment: "trailing" }),
  }),
  /** Option defaults per presentation type. */
  presentationOptions: Object.freeze({
    material: Object.freeze({ alignment: "center", contentOpacity: 1, spacing: 8 }),
    horizontal: Object.freeze({ position: "trailing", alignment: "center", contentOpacity: 0.5, spacing: 12 }),
    vertical: Object.freeze({ position: "top", alignment: "center", contentOpacity: 0.5, spacing: 12 }),
    overCurrentContent: Object.freeze({ alignment: "center", contentOpacity: 0.5, spacing: 12 }),
    redacted: Object.freeze({ alignment: "center", contentOpacity: 1, spacing: 0 }),
    custom: Object.freeze({ alignment: "center", contentOpacity: 0.35, spacing: 10, message: "Loading…" }),
  }),
  /** Icons in icons.svg; any other name the server sends is drawn as `fallbackIcon`. */
  icons: Object.freeze([
    "alert", "wifi-off", "clock", "server", "wrench", "search", "lock", "file-warning", "terminal",
    "hard-drive", "download", "x", "refresh", "check", "info", "sliders", "activity", "chevron-down",
  ]),
  fallbackIcon: "alert",
  iconSprite: "icons.svg",
  /** Error kinds offered by the debug dialog (PROTOCOL.md's list). */
  errorKinds: Object.freeze([
    "noNetwork", "unreachable", "timeout", "serverError", "serverMaintenance", "notFound", "unauthorized",
    "invalidResponse", "commandFailed", "outOfSpace", "updateAvailable", "updateRequired", "unknown",
  ]),
  /** Routes of PROTOCOL.md. */
  routes: Object.freeze({
    state: "/api/state",
    events: "/events",
    retry: (/** @type {string} */ id) => `/api/panels/${enc(id)}/retry`,
    recover: (/** @type {string} */ id) => `/api/panels/${enc(id)}/recover`,
    itemAction: (/** @type {string} */ id, /** @type {string} */ item, /** @type {string} */ action) =>
      `/api/panels/${enc(id)}/items/${enc(item)}/actions/${enc(action)}`,
    debugState: (/** @type {string} */ id) => `/api/debug/panels/${enc(id)}/state`,
  }),
});

/** @param {string} segment */
function enc(segment) {
  return encodeURIComponent(segment);
}

/** @returns {number} how long a silent stream may stay silent before it is treated as dead */
export function deadStreamAfterMs() {
  return config.pingIntervalMs * config.deadStreamFactor;
}
