// @ts-check
// The overview's sections as drawn: a heading per group (a button that collapses it, and the group's
// counts) over a body that holds the group's chunks (overview-chunks.js); the panels in no group are
// a body alone, without a heading. The sections follow the list's first child, the grid probe.
import { h, icon } from "./dom.js";

/** @typedef {import('./overview-model.js').Section} Section */
/** @typedef {import('./overview-model.js').Counts} Counts */
/** @typedef {import('./overview-chunks.js').Chunk} Chunk */
/** @typedef {import('./overview-chunks.js').Block} Block */

/**
 * @typedef {object} SectionView
 * @property {HTMLElement} el
 * @property {HTMLElement} body
 * @property {HTMLButtonElement | null} toggle
 * @property {HTMLElement | null} label
 * @property {HTMLElement | null} counts
 * @property {Chunk[]} chunks
 * @property {Block[]} blocks
 */

/** The order a group's counts are told in: problems first. */
const GROUP_COUNTS = /** @type {const} */ ([
  ["failing", "failing"],
  ["loading", "loading"],
  ["unknown", "unknown"],
  ["up", "up"],
  ["pinned", "debug-pinned"],
]);

/**
 * @param {HTMLElement} root the list
 * @param {(key: string) => void} onToggleGroup a group's heading was clicked
 */
export function createSections(root, onToggleGroup) {
  /** @type {Map<string, SectionView>} */
  const views = new Map();
  return {
    /**
     * A section's view, made the first time it is drawn.
     * @param {Section} section @returns {SectionView}
     */
    viewOf(section) {
      let view = views.get(section.key);
      if (view) return view;
      view = sectionView(section, onToggleGroup);
      views.set(section.key, view);
      return view;
    },
    /**
     * Takes out of the page the sections not in `keys`, each after `onGone`.
     * @param {Set<string>} keys @param {(view: SectionView) => void} onGone
     */
    keepOnly(keys, onGone) {
      for (const [key, view] of views) {
        if (keys.has(key)) continue;
        onGone(view);
        view.el.remove();
        views.delete(key);
      }
    },
    /**
     * Puts the sections' elements in this order after the grid probe, moving only those out of place.
     * @param {HTMLElement[]} els
     */
    arrange(els) {
      els.forEach((el, i) => {
        if (root.children[i + 1] !== el) root.insertBefore(el, root.children[i + 1] ?? null);
      });
    },
    /** @param {Chunk} chunk @returns {string | null} the key of the section it is in */
    sectionOf(chunk) {
      for (const [key, view] of views) if (view.chunks.includes(chunk)) return key;
      return null;
    },
    /**
     * Redraws the groups' counts (the panels' states changed, not what the view lists).
     * @param {(key: string) => Counts} countsOf
     */
    drawCounts(countsOf) {
      for (const [key, view] of views) drawCounts(view, countsOf(key));
    },
  };
}

/**
 * @param {Section} section @param {(key: string) => void} onToggleGroup
 * @returns {SectionView}
 */
function sectionView(section, onToggleGroup) {
  const body = h("div", { class: "group-body", attrs: { id: `group-body-${section.key || "none"}` } });
  if (!section.group) {
    return { el: h("div", { class: "group group-none", data: { testid: "group-none" } }, body), body, toggle: null, label: null, counts: null, chunks: [], blocks: [] };
  }
  const key = section.key;
  const label = h("span", { class: "group-label" });
  const toggle = /** @type {HTMLButtonElement} */ (
    h(
      "button",
      {
        class: "group-toggle",
        attrs: { type: "button", "aria-controls": body.id, "aria-expanded": "true" },
        data: { testid: "group-toggle" },
        on: { click: () => onToggleGroup(key) },
      },
      icon("chevron-down", { class: "chevron" }),
      label,
    )
  );
  const counts = h("span", { class: "group-counts", data: { testid: "group-counts" } });
  const headingId = `group-title-${key}`;
  return {
    el: h(
      "section",
      { class: "group", data: { testid: "group", "group-id": key }, attrs: { "aria-labelledby": headingId } },
      h("div", { class: "group-head" }, h("h2", { class: "group-title", attrs: { id: headingId } }, toggle), counts),
      body,
    ),
    body,
    toggle,
    label,
    counts,
    chunks: [],
    blocks: [],
  };
}

/** @param {SectionView} view @param {Section} section */
export function drawHeading(view, section) {
  if (!view.toggle || !view.label || !section.group) return;
  view.label.textContent = section.group.title;
  view.toggle.setAttribute("aria-expanded", String(!section.collapsed));
  view.el.dataset.collapsed = String(section.collapsed);
  drawCounts(view, section.counts);
}

/** @param {SectionView} view @param {Counts} counts */
function drawCounts(view, counts) {
  if (!view.counts) return;
  const key = GROUP_COUNTS.map(([state]) => counts[state]).join(" ");
  if (view.counts.dataset.key === key) return;
  view.counts.dataset.key = key;
  view.counts.replaceChildren(
    ...GROUP_COUNTS.filter(([state]) => counts[state] > 0).map(([state, label]) =>
      h("span", { class: "group-count", data: { state, testid: `group-count-${state}` }, text: `${counts[state]} ${label}` }),
    ),
  );
}
