// @ts-check
// "What changed": the deck's changes between two moments (GET /api/changes?order=newest), nearest
// the moment first, each as its time, its panel's title and what it went from and to (phase,
// health, summary, as the server recorded them); a busy hour lists the one page nearest the moment
// and says so. Picking one moves the board to it; "Export fixture" downloads the moment shown.
import { config } from "./config.js";
import { h, replaceChildren } from "./dom.js";
import { momentLabel } from "./travel-url.js";

/** @typedef {import('./types.js').DeckChange} DeckChange */
/** @typedef {import('./types.js').ChangeSide} ChangeSide */

/**
 * One side of a change, as a small coloured tag and the summary.
 * @param {ChangeSide | null} side
 */
function sideText(side) {
  if (!side) return h("span", { class: "change-side", text: "first seen" });
  return h(
    "span",
    { class: "change-side" },
    h("span", { class: "change-health", data: { health: side.health }, text: `${side.phase} · ${side.health}` }),
    side.summary ? h("span", { class: "change-summary", text: side.summary }) : "",
  );
}

/**
 * @param {DeckChange} change
 * @param {(change: DeckChange) => void} onPick
 */
function changeItem(change, onPick) {
  return h(
    "li",
    { data: { testid: "travel-change", panel: change.panel, at: change.at } },
    h(
      "button",
      { class: "travel-change", attrs: { type: "button" }, on: { click: () => onPick(change) } },
      h("time", { attrs: { datetime: change.at }, text: momentLabel(change.at) }),
      h("strong", { class: "change-title", text: change.title }),
      sideText(change.from),
      h("span", { class: "change-arrow", attrs: { "aria-hidden": "true" }, text: "→" }),
      sideText(change.to),
    ),
  );
}

/**
 * The section; `draw` fills it for the moment shown.
 * @param {{onPick: (change: DeckChange) => void}} opts
 */
export function createChangesView(opts) {
  const heading = h("h2", { class: "travel-changes-heading", text: "What changed" });
  const exportLink = h("a", { class: "btn btn-small btn-ghost", data: { testid: "travel-export" }, attrs: { download: "" }, text: "Export fixture" });
  const status = h("p", { class: "travel-changes-status", data: { testid: "travel-changes-status" }, attrs: { role: "status" } });
  const list = h("ol", { class: "travel-changes-list", data: { testid: "travel-changes" } });
  const el = h("section", { class: "travel-changes", attrs: { "aria-label": "What changed" } }, h("div", { class: "travel-changes-head" }, heading, exportLink), status, list);
  return {
    el,
    /**
     * @param {{from: string, to: string} | null} range null while live: nothing chosen yet
     * @param {import('./api.js').ReadResult<import('./types.js').ChangesPage> | null} answer null while asking
     */
    draw(range, answer) {
      exportLink.hidden = !range;
      if (range) exportLink.href = config.routes.fixtureAt(range.to);
      heading.textContent = range ? `What changed, ${momentLabel(range.from)} to ${momentLabel(range.to)}` : "What changed";
      const changes = answer?.ok ? answer.data.changes : [];
      status.textContent = !range
        ? "Pick a moment on the timeline."
        : !answer
          ? "Loading…"
          : !answer.ok
            ? answer.failure.message
            : !changes.length
              ? "Nothing changed in that hour."
              : answer.data.next
                ? `The ${changes.length} changes nearest the moment; earlier ones in that hour are not listed.`
                : "";
      replaceChildren(list, ...changes.map((c) => changeItem(c, opts.onPick)));
    },
  };
}
