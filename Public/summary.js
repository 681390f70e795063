// @ts-check
// The summary bar: how many panels are up, failing, loading, unknown and pinned by a debug state.
// Each count is a toggle button: pressed, the overview shows only those panels; pressed again, all.
// The failing count also goes into the document title ("(3) Local stack · StateDeck"), so a tab in
// the background tells that something broke; the favicon's badge is favicon.js.
import { h } from "./dom.js";

/** @typedef {import('./overview-model.js').Counts} Counts */
/** @typedef {import('./overview-model.js').StateFilter} StateFilter */

/** @type {{state: StateFilter, label: string}[]} */
const COUNTS = [
  { state: "up", label: "up" },
  { state: "failing", label: "failing" },
  { state: "loading", label: "loading" },
  { state: "unknown", label: "unknown" },
  { state: "pinned", label: "debug-pinned" },
];

const numberFormat = new Intl.NumberFormat();

/**
 * The document title for a deck title and a failing count: "(3) Local stack · StateDeck".
 * @param {string} deckTitle
 * @param {number} failing
 */
export function documentTitle(deckTitle, failing) {
  const title = !deckTitle || deckTitle === "StateDeck" ? "StateDeck" : `${deckTitle} · StateDeck`;
  return failing > 0 ? `(${failing}) ${title}` : title;
}

/**
 * @param {HTMLElement} root the bar's element
 * @param {{onSelect: (state: StateFilter | null) => void}} opts a count was pressed: filter to its
 *   state, or null to show every state again
 */
export function createSummaryBar(root, opts) {
  const total = h("span", { class: "summary-total", data: { testid: "summary-total" } });
  /** @type {StateFilter | null} */
  let active = null;
  /** The total drawn: only what changed is drawn again (counts change many times a second). */
  let drawnTotal = -1;
  const buttons = COUNTS.map(({ state, label }) => {
    const value = h("span", { class: "count-value" });
    const el = h(
      "button",
      {
        class: "count",
        attrs: { type: "button", "aria-pressed": "false" },
        data: { testid: `count-${state}`, state },
        on: { click: () => opts.onSelect(active === state ? null : state) },
      },
      h("span", { class: "count-dot", attrs: { "aria-hidden": "true" } }),
      value,
      h("span", { class: "count-label", text: ` ${label}` }),
    );
    /** What the button shows, so that a count that did not change is not drawn again. */
    const drawn = { count: -1, pressed: false };
    return { state, el, value, drawn };
  });
  root.replaceChildren(total, ...buttons.map((b) => b.el));

  return {
    /**
     * @param {Counts} counts
     * @param {StateFilter | null} state the state the overview filters to
     */
    render(counts, state) {
      active = state;
      const all = counts.up + counts.failing + counts.loading + counts.unknown;
      if (all !== drawnTotal) {
        drawnTotal = all;
        total.textContent = `${numberFormat.format(all)} ${all === 1 ? "panel" : "panels"}`;
      }
      for (const b of buttons) {
        const n = counts[b.state];
        const pressed = state === b.state;
        if (n === b.drawn.count && pressed === b.drawn.pressed) continue;
        b.drawn.count = n;
        b.drawn.pressed = pressed;
        b.value.textContent = numberFormat.format(n);
        b.el.setAttribute("aria-pressed", String(pressed));
        b.el.dataset.count = String(n);
        // The pinned count exists only while something is pinned (a debug-server affair).
        b.el.hidden = b.state === "pinned" && n === 0 && !pressed;
      }
    },
  };
}
