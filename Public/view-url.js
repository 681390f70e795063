// @ts-check
// The overview's view lives in the address's query, so a view is bookmarkable, shareable, survives a
// reload and follows back and forward: `?q=pay&state=failing&sort=problems&density=compact&collapsed=a,b`.
// Only what differs from the default is written, and other parameters (`bench`) and the hash (the
// history dialog's `#history=<id>`) are kept as they are.

/** @typedef {import('./overview-model.js').StateFilter} StateFilter */

/**
 * @typedef {object} View
 * @property {string} q search text
 * @property {StateFilter | null} state only the panels in this state
 * @property {"declared" | "problems"} sort declared order, or failing, loading, unknown, up
 * @property {"cards" | "compact"} density cards, or one line per panel
 * @property {string[]} collapsed ids of the collapsed groups
 */

const STATES = ["up", "failing", "loading", "unknown", "pinned"];

/** @returns {View} */
export function defaultView() {
  return { q: "", state: null, sort: "declared", density: "cards", collapsed: [] };
}

/**
 * The view an address's query names; anything unknown reads as the default.
 * @param {string} search `location.search`
 * @returns {View}
 */
export function readView(search) {
  const params = new URLSearchParams(search);
  const view = defaultView();
  view.q = params.get("q") ?? "";
  const state = params.get("state");
  if (state && STATES.includes(state)) view.state = /** @type {StateFilter} */ (state);
  if (params.get("sort") === "problems") view.sort = "problems";
  if (params.get("density") === "compact") view.density = "compact";
  view.collapsed = (params.get("collapsed") ?? "").split(",").filter(Boolean);
  return view;
}

/**
 * The query for a view, keeping the query's other parameters.
 * @param {View} view
 * @param {string} search the current `location.search`
 * @returns {string} "" or "?…"
 */
export function viewSearch(view, search) {
  const params = new URLSearchParams(search);
  /** @type {[string, string][]} */
  const own = [
    ["q", view.q],
    ["state", view.state ?? ""],
    ["sort", view.sort === "declared" ? "" : view.sort],
    ["density", view.density === "cards" ? "" : view.density],
    ["collapsed", [...new Set(view.collapsed)].join(",")],
  ];
  for (const [key, value] of own) {
    if (value) params.set(key, value);
    else params.delete(key);
  }
  // URLSearchParams writes "a,b" as "a%2Cb": commas are kept readable.
  const text = params.toString().replace(/%2C/gi, ",");
  return text ? `?${text}` : "";
}

/**
 * Writes a view into the address: a new history entry (`push`) for a choice a person would go back
 * from, or in place for typing and collapsing.
 * @param {View} view
 * @param {{push: boolean}} opts
 */
export function writeView(view, opts) {
  const search = viewSearch(view, location.search);
  if (search === location.search) return;
  const url = `${location.pathname}${search}${location.hash}`;
  if (opts.push) history.pushState({}, "", url);
  else history.replaceState(history.state, "", url);
}
