// @ts-check
// The summary bar: how many panels are up, failing, loading, unknown and pinned by a debug state.
// Each count is a toggle button: pressed, the overview shows only those panels; pressed again, all.
// The failing count tells root causes from consequences: "3 failing, 12 because of them" (a failing
// panel whose dependency is down too is a consequence); "2 flapping" follows while any panel flaps.
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
  // After the failing count while some failing panels fail because of others.
  const because = h("span", { class: "count-because", data: { testid: "count-because" } });
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
      h("span", { class: "count-label" }, ` ${label}`, state === "failing" ? because : null),
    );
    /** What the button shows, so that a count that did not change is not drawn again. */
    const drawn = { count: -1, consequences: -1, pressed: false };
    return { state, el, value, drawn };
  });
  const flapping = h("span", { class: "count-flapping", data: { testid: "count-flapping" }, attrs: { hidden: true } });
  let drawnFlapping = -1;
  root.replaceChildren(total, ...buttons.map((b) => b.el), flapping);

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
        const consequences = b.state === "failing" ? counts.consequences : 0;
        if (n === b.drawn.count && consequences === b.drawn.consequences && pressed === b.drawn.pressed) continue;
        b.drawn.count = n;
        b.drawn.consequences = consequences;
        b.drawn.pressed = pressed;
        b.value.textContent = numberFormat.format(n - consequences);
        if (b.state === "failing") because.textContent = consequences ? `, ${numberFormat.format(consequences)} because of them` : "";
        b.el.setAttribute("aria-pressed", String(pressed));
        b.el.dataset.count = String(n);
        // The pinned count exists only while something is pinned (a debug-server affair).
        b.el.hidden = b.state === "pinned" && n === 0 && !pressed;
      }
      if (counts.flapping !== drawnFlapping) {
        drawnFlapping = counts.flapping;
        flapping.textContent = `${numberFormat.format(counts.flapping)} flapping`;
        flapping.hidden = counts.flapping === 0;
      }
    },
  };
}
