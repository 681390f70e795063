// @ts-check
// The figures beside a strip: the panel's health now ("Down since 10:42 (17 min)"), its relative part
// kept current by refreshSince() from what the line keeps in its data attributes (a line drawn as of
// a past moment keeps it, and stays as it was then), and the up ratios over 24 h, 7 d and 30 d.
import { h } from "./dom.js";
import { currentText, ratioText } from "./timeline-text.js";

/** @typedef {import('./types.js').UptimeReport} UptimeReport */
/** @typedef {import('./types.js').CurrentHealth} CurrentHealth */
/** @typedef {import('./types.js').TimeStretch} TimeStretch */

/**
 * The health-now line; refreshSince() keeps its relative part current.
 * @param {CurrentHealth | null | undefined} current
 * @param {string} [testid]
 */
export function currentLine(current, testid = "current-health") {
  const el = h("p", { class: "current-health", data: { testid } });
  setCurrentLine(el, current);
  return el;
}

/**
 * Redraws a health-now line.
 * @param {HTMLElement} el
 * @param {CurrentHealth | null | undefined} current
 * @param {TimeStretch[]} [unwatched] the report's stretches not watched
 * @param {number | null} [asOf] the past moment the health is as of (epoch ms), null for now
 */
export function setCurrentLine(el, current, unwatched = [], asOf = null) {
  const gap = current ? unwatched.find((stretch) => stretch.to === current.watchedSince) : undefined;
  for (const [key, value] of Object.entries({ state: current?.state, since: current?.since,
    watchedSince: current?.watchedSince, notWatchedFrom: gap?.from, asOf: asOf === null ? undefined : String(asOf) })) {
    if (current && typeof current.since === "string" && value) el.dataset[key] = value;
    else delete el.dataset[key];
  }
  const text = currentText(current, asOf ?? Date.now(), gap?.from);
  if (el.textContent !== text) el.textContent = text;
}

/**
 * Updates every health-now line under `root` (one as of a past moment stays as it was then).
 * @param {ParentNode} root
 */
export function refreshSince(root) {
  const now = Date.now();
  for (const node of root.querySelectorAll(".current-health[data-since]:not([data-as-of])")) {
    const el = /** @type {HTMLElement} */ (node);
    const state = /** @type {CurrentHealth["state"]} */ (el.dataset.state ?? "unknown");
    const text = currentText({ state, since: el.dataset.since ?? "", watchedSince: el.dataset.watchedSince },
      now, el.dataset.notWatchedFrom);
    if (el.textContent !== text) el.textContent = text;
  }
}

/**
 * The three up ratios as a description list.
 * @param {UptimeReport} report
 */
export function ratioList(report) {
  /** @type {[string, string, number | null | undefined][]} */
  const rows = [["24h", "24 h", report["24h"]], ["7d", "7 d", report["7d"]], ["30d", "30 d", report["30d"]]];
  return h(
    "dl",
    { class: "uptime", data: { testid: "uptime" } },
    rows.map(([key, label, ratio]) =>
      h(
        "div",
        { class: "uptime-figure", data: { testid: `uptime-${key}` } },
        h("dt", { text: label }),
        h("dd", { text: ratioText(ratio), attrs: { title: typeof ratio === "number" ? `Up ${ratioText(ratio)} of the time it was checked` : "No data" } }),
      ),
    ),
  );
}
