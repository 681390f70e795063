// @ts-check
// The page's own settings in one table: its timings, names and routes. What the server decides
// (presentation defaults, error kinds, the ping interval, toast duration and position) reaches the
// page in the state document's `settings`, never as a copy here.

export const config = Object.freeze({
  /** A loading indicator (a panel's or an item's) is either never seen or seen long enough to read:
   * it appears only once loading has lasted `revealAfterMs`, and once it has appeared it stays at
   * least `minimumShownMs`, even if the loading ends sooner. */
  indicator: Object.freeze({ revealAfterMs: 300, minimumShownMs: 500 }),
  /** The "reconnecting" banner appears only after the stream has been down this long. */
  bannerDelayMs: 500,
  /** Reconnection backoff: base * factor^(attempt-1), capped, then spread by ±jitter (a fraction). */
  backoff: Object.freeze({ baseMs: 500, factor: 2, capMs: 10_000, jitter: 0.3 }),
  /** A stream silent for more than this many of the server's ping intervals is treated as dead. */
  deadStreamFactor: 2,
  /** Countdowns ("next in 4 s") and relative times are refreshed this often. */
  tickMs: 1_000,
  /** A panel's uptime and timeline (GET /api/panels/{id}/uptime) is asked for when the panel is
   * first drawn, `settleMs` after its phase turns loaded or error (a burst of changes asks once),
   * and every `refreshMs`, while the panel is on screen and once it has been on screen `seenMs`. */
  uptime: Object.freeze({ refreshMs: 60_000, settleMs: 1_000, seenMs: 150 }),
  /** Time travel (travel.js): the deck-wide timeline spans 24 h or 7 days, reading the newest
   * `pages` pages of `pageSize` changes, then only what came since (travel-marks.js); a drag asks for the moment under the scrubber once it rests
   * `dragRestMs`; "What changed" lists the `beforeMs` before the chosen moment. While the strip is
   * open its marks are read again once the deck changed, at most every `reloadMs`, and every
   * `idleReloadMs` when nothing did, so its end (now) moves. */
  travel: Object.freeze({ pageSize: 500, pages: 20, dragRestMs: 150, beforeMs: 3_600_000, reloadMs: 2_000, idleReloadMs: 30_000 }),
  /** The header's audit list: the newest signed actions of the deck (GET /api/audit) it lists. */
  auditList: Object.freeze({ limit: 100 }),
  /** The overview: panels are drawn in chunks of `cardRows` rows of cards or `compactRows` lines,
   * only while a chunk is within `nearMargin` of the viewport; a chunk never drawn is given an
   * estimated height (`cardHeightPx` per row of cards, `rowHeightPx` per line); chunks are grouped
   * `blockChunks` to a block, and a block far from the viewport holds none; a deck of up to
   * `drawAllUpTo` panels is drawn whole, so find in page finds each of them. A tab in the
   * background, where animation frames stop, applies changes every `hiddenFlushMs`; a search is
   * written into the address `addressDelayMs` after the last key. */
  overview: Object.freeze({
    drawAllUpTo: 200,
    cardRows: 3,
    compactRows: 30,
    blockChunks: 16,
    nearMargin: "100% 0px",
    cardHeightPx: 330,
    rowHeightPx: 41,
    hiddenFlushMs: 500,
    addressDelayMs: 300,
  }),
  /** The history dialog: how many changes a page lists, the ranges offered besides a custom one
   * (`defaultRange` is chosen when the dialog opens), and how many slots its timeline has. */
  historyView: Object.freeze({
    pageSize: 50,
    /** The most of a panel's signed actions (GET /api/audit) listed among its changes for a range. */
    auditLimit: 200,
    ranges: Object.freeze([
      Object.freeze({ id: "1h", label: "1 h", spanMs: 3_600_000, span: "1h" }),
      Object.freeze({ id: "24h", label: "24 h", spanMs: 86_400_000, span: "24h" }),
      Object.freeze({ id: "7d", label: "7 d", spanMs: 604_800_000, span: "7d" }),
      Object.freeze({ id: "30d", label: "30 d", spanMs: 2_592_000_000, span: "30d" }),
    ]),
    defaultRange: "24h",
    timelineSlots: 120,
  }),
  /** With `?bench` in the address, each applied stream event leaves a `statedeck:applied`
   * performance mark carrying its event id, for `make bench` (off otherwise: marks accumulate). */
  markAppliedEvents: new URLSearchParams(location.search).has("bench"),
  /** Clicks in a row on a panel that open the debug dialog. */
  debugClickCount: 3,
  /** Cross-tab sharing of the one event stream: the leader relays the events of `relayEveryMs` at once. */
  tabs: Object.freeze({ lockName: "statedeck-stream-leader", channelName: "statedeck-relay", relayEveryMs: 16 }),
  /** Icons in icons.svg; any other name the server sends is drawn as `fallbackIcon`. */
  icons: Object.freeze([
    "alert", "wifi-off", "clock", "server", "wrench", "search", "lock", "file-warning", "terminal",
    "hard-drive", "download", "x", "refresh", "check", "info", "sliders", "activity", "chevron-down",
    "history", "bell", "bell-off",
  ]),
  fallbackIcon: "alert",
  iconSprite: "icons.svg",
  /** The localStorage key that keeps whether desktop notifications are wanted. */
  desktopNotificationsKey: "statedeck.desktopNotifications",
  /** Routes of PROTOCOL.md. */
  routes: Object.freeze({
    state: "/api/state",
    stateAt: (/** @type {string} */ at) => `/api/state${queryString({ at })}`,
    fixtureAt: (/** @type {string} */ at) => `/api/state${queryString({ at, format: "fixture" })}`,
    changes: (/** @type {Record<string, string | number | null | undefined>} */ query) => `/api/changes${queryString(query)}`,
    events: "/events",
    retry: (/** @type {string} */ id) => `/api/panels/${enc(id)}/retry`,
    recover: (/** @type {string} */ id) => `/api/panels/${enc(id)}/recover`,
    itemAction: (/** @type {string} */ id, /** @type {string} */ item, /** @type {string} */ action) =>
      `/api/panels/${enc(id)}/items/${enc(item)}/actions/${enc(action)}`,
    debugState: (/** @type {string} */ id) => `/api/debug/panels/${enc(id)}/state`,
    pingPath: (/** @type {string} */ id) => `/api/panels/${enc(id)}/ping`,
    uptime: (/** @type {string} */ id, /** @type {Record<string, string | number | null | undefined>} */ query) =>
      `/api/panels/${enc(id)}/uptime${queryString(query)}`,
    history: (/** @type {string} */ id, /** @type {Record<string, string | number | null | undefined>} */ query) =>
      `/api/panels/${enc(id)}/history${queryString(query)}`,
    maintenance: "/api/maintenance",
    endMaintenance: (/** @type {string} */ id) => `/api/maintenance/${enc(id)}`,
    incidents: "/api/incidents",
    incidentList: (/** @type {number} */ limit) => `/api/incidents${queryString({ limit })}`,
    incidentUpdates: (/** @type {string} */ id) => `/api/incidents/${enc(id)}/updates`,
    notifyTest: "/api/notify/test",
    notifyLog: "/api/notify/log",
    audit: (/** @type {Record<string, string | number | null | undefined>} */ query) => `/api/audit${queryString(query)}`,
    caller: "/api/caller",
  }),
});

/** @param {string} segment */
function enc(segment) {
  return encodeURIComponent(segment);
}

/**
 * "?a=1&b=2" from the given values, leaving out null and undefined ones; "" when none is left.
 * @param {Record<string, string | number | null | undefined>} query
 */
function queryString(query) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== null && v !== undefined && v !== "") params.set(k, String(v));
  const text = params.toString();
  return text ? `?${text}` : "";
}
