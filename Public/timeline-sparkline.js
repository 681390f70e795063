// @ts-check
// The load-time line under a strip: each slot's average load time as hand-made SVG, one polyline per
// run of slots with timed loads, so a slot without one breaks the line rather than reads as zero.
import { h } from "./dom.js";
import { loadTimeText, countText } from "./timeline-text.js";

/** @typedef {import('./types.js').UptimeSlot} UptimeSlot */

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * The average load time of each slot as a polyline, broken where a slot has no timed load; null
 * when no slot has one.
 * @param {UptimeSlot[]} slots
 */
export function sparkline(slots) {
  const values = slots.map((s) => (typeof s.avgMs === "number" && Number.isFinite(s.avgMs) ? s.avgMs : null));
  const known = /** @type {number[]} */ (values.filter((v) => v !== null));
  if (!known.length) return null;
  const top = Math.max(...known, 1);
  const low = Math.min(...known);
  const height = 100;
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "sparkline");
  svg.setAttribute("viewBox", `0 0 ${slots.length} ${height}`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("role", "img");
  svg.setAttribute("data-testid", "sparkline");
  svg.setAttribute(
    "aria-label",
    `Average load time per slot: ${loadTimeText(low)} to ${loadTimeText(top)}, in ${countText(known.length, "slot", "slots")} with timed loads`,
  );
  /** @type {string[]} */
  let run = [];
  /** @type {number[]} */
  let runX = [];
  const y = (/** @type {number} */ v) => (height - 4 - (v / top) * (height - 8)).toFixed(2);
  const flush = () => {
    if (!run.length) return;
    const line = document.createElementNS(SVG_NS, "polyline");
    // A slot alone is drawn as a short level stroke across its width, so it is seen at all.
    const points = run.length === 1 ? [`${(runX[0] - 0.35).toFixed(2)},${run[0]}`, `${(runX[0] + 0.35).toFixed(2)},${run[0]}`] : run.map((v, k) => `${runX[k].toFixed(2)},${v}`);
    line.setAttribute("points", points.join(" "));
    line.setAttribute("data-testid", "sparkline-run");
    svg.appendChild(line);
    run = [];
    runX = [];
  };
  values.forEach((v, i) => {
    if (v === null) {
      flush();
      return;
    }
    run.push(y(v));
    runX.push(i + 0.5);
  });
  flush();
  return h(
    "div",
    { class: "sparkline-wrap" },
    h("span", { class: "sparkline-scale", attrs: { "aria-hidden": "true" }, text: `load time · peak ${loadTimeText(top)}` }),
    svg,
  );
}
