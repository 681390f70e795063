// @ts-check
// The overview's keys: the panels are one tab stop (a roving tabindex); arrows move between them (up
// and down by a row of cards), Home and End go to the first and last, Enter focuses a card's primary
// action or opens a line's card, Escape in a line's open card closes it; j and k (app.js, through
// `step`) move from anywhere.
import { drawChunk } from "./overview-chunks.js";

/** @typedef {import('./overview-model.js').Section} Section */
/** @typedef {import('./overview-chunks.js').Chunk} Chunk */
/** @typedef {import('./overview-chunks.js').Chunks} Chunks */
/** @typedef {import('./overview-cards.js').OverviewCards} OverviewCards */

/**
 * @typedef {object} Lookup what a key's way through the panels is found in
 * @property {string[]} list the panels in the order they are drawn
 * @property {Chunks} chunks
 * @property {(chunk: Chunk) => string | null} sectionOf
 */

/** Where Enter goes on a card, first found first. */
const PRIMARY_ACTIONS = ["error-primary", "stale-retry", "load-now", "item-action", "panel-refresh"].map(
  (testid) => `[data-testid='${testid}']`,
);

/**
 * The panel holding the list's tab stop: the one of its panels Tab goes to.
 * @param {Chunks} chunks @param {OverviewCards} cards
 */
export function createTabStop(chunks, cards) {
  /** @type {string | null} */
  let current = null;

  /** @param {string} id its card or line, its chunk drawn first */
  function navElement(id) {
    const chunk = chunks.ofId.get(id);
    if (chunk && !chunk.drawn) drawChunk(chunks, chunk);
    return chunk?.mode === "row" ? cards.rows.get(id)?.el ?? null : cards.cards.get(id)?.el ?? null;
  }

  /** @param {string | null} id */
  function set(id) {
    if (current !== null) {
      const old = current === id ? null : chunks.ofId.get(current)?.drawn ? navElement(current) : null;
      if (old) old.tabIndex = -1;
    }
    current = id;
    if (id !== null && chunks.ofId.get(id)?.drawn) {
      const el = navElement(id);
      if (el) el.tabIndex = 0;
    }
  }

  return {
    get current() {
      return current;
    },
    set,
    /**
     * Keeps the tab stop on a panel the sections list: the first of them when its panel left.
     * @param {Section[]} sections
     */
    keepIn(sections) {
      if (current === null || !chunks.ofId.has(current)) set(sections.find((s) => s.ids.length)?.ids[0] ?? null);
    },
    /**
     * Focuses panel `id`'s card or line and scrolls it into view, when the view lists it.
     * @param {string} id
     */
    focus(id) {
      set(id);
      const el = navElement(id);
      if (!el) return;
      el.focus({ preventScroll: true });
      el.scrollIntoView({ block: "nearest" });
      cards.release();
    },
  };
}

/**
 * @param {HTMLElement} root the list
 * @param {{chunks: Chunks, cards: OverviewCards, tabStop: ReturnType<typeof createTabStop>,
 *   sectionOf: (chunk: Chunk) => string | null}} opts sectionOf: the key of the section a chunk is in
 */
export function createOverviewKeys(root, opts) {
  const { chunks, cards, tabStop } = opts;
  /** The panels in the order they are drawn (sections one after another), for the keys; made when a
   * key needs it, not at every change of the list. */
  /** @type {{list: string[], position: Map<string, number>} | null} */
  let ordered = null;
  /** @type {Section[]} the sections drawn */
  let shown = [];

  function order() {
    if (!ordered) {
      const list = shown.flatMap((s) => s.ids);
      ordered = { list, position: new Map(list.map((id, i) => [id, i])) };
    }
    return ordered;
  }

  root.addEventListener("keydown", (ev) => {
    const el = /** @type {HTMLElement} */ (ev.target);
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const id = el.dataset?.nav ? el.dataset.panelId : undefined;
    if (id === undefined) {
      closeOpenCard(ev, el, cards, tabStop);
      return;
    }
    if (ev.key === "Enter") {
      ev.preventDefault();
      activate(id, chunks, cards);
      return;
    }
    const { list, position } = order();
    const index = position.get(id);
    if (index === undefined) return;
    const to = target({ list, chunks, sectionOf: opts.sectionOf }, index, ev.key);
    if (to === null) return;
    ev.preventDefault();
    const next = list[Math.max(0, Math.min(list.length - 1, to))];
    if (next !== undefined) tabStop.focus(next);
  });

  root.addEventListener("focusin", (ev) => {
    const nav = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (ev.target).closest("[data-nav]"));
    const id = nav?.dataset.panelId;
    if (id && id !== tabStop.current && chunks.ofId.has(id)) tabStop.set(id);
  });

  return {
    /** @param {Section[]} sections the sections now drawn */
    show(sections) {
      shown = sections;
      ordered = null;
    },
    /**
     * Moves the focus to the next (1) or previous (-1) panel from the one focus is in; from outside
     * the panels, to the list's tab stop.
     * @param {number} step
     */
    step(step) {
      const from = /** @type {HTMLElement | null} */ (document.activeElement?.closest("[data-nav]") ?? null)?.dataset.panelId;
      // From outside the panels, the first key goes to the list's tab stop.
      const { list, position } = order();
      const index = from === undefined ? -1 : position.get(from) ?? -1;
      const next = index < 0 ? tabStop.current ?? list[0] : list[Math.max(0, Math.min(list.length - 1, index + step))];
      if (next !== undefined) tabStop.focus(next);
    },
  };
}

/**
 * Escape in an open card of a line closes it, and focus goes back to the line.
 * @param {KeyboardEvent} ev @param {HTMLElement} el where the key was pressed, in no card or line
 * @param {OverviewCards} cards @param {ReturnType<typeof createTabStop>} tabStop
 */
function closeOpenCard(ev, el, cards, tabStop) {
  const row = el.closest("[data-nav='row']");
  const rowId = /** @type {HTMLElement | null} */ (row)?.dataset.panelId;
  if (ev.key === "Escape" && rowId && cards.isExpanded(rowId) && !el.closest("dialog")) {
    ev.preventDefault();
    cards.toggle(rowId);
    tabStop.focus(rowId);
  }
}

/**
 * Enter on a panel: a line opens its card; a card focuses its primary action, the first one shown.
 * @param {string} id @param {Chunks} chunks @param {OverviewCards} cards
 */
function activate(id, chunks, cards) {
  const chunk = chunks.ofId.get(id);
  if (chunk?.mode === "row") {
    cards.toggle(id);
    return;
  }
  const el = cards.cards.get(id)?.el;
  for (const selector of PRIMARY_ACTIONS) {
    const action = /** @type {HTMLElement | null} */ (el?.querySelector(selector));
    if (action && action.offsetParent !== null) {
      action.focus();
      return;
    }
  }
}

/**
 * The index of the panel `key` leads to from the panel at `index`; null for another key.
 * @param {Lookup} at @param {number} index @param {string} key
 */
function target(at, index, key) {
  const chunk = at.chunks.ofId.get(at.list[index]);
  const across = chunk?.mode === "card" ? at.chunks.columns : 1;
  switch (key) {
    case "ArrowRight":
      return index + 1;
    case "ArrowLeft":
      return index - 1;
    case "ArrowDown":
      return sameSection(at, index, index + across) ? index + across : nextSectionStart(at, index);
    case "ArrowUp":
      return sameSection(at, index, index - across) ? index - across : index - 1;
    case "Home":
      return 0;
    case "End":
      return at.list.length - 1;
    default:
      return null;
  }
}

/** @param {Lookup} at @param {number} a @param {number} b */
function sameSection(at, a, b) {
  const ca = at.chunks.ofId.get(at.list[a] ?? "");
  const cb = at.chunks.ofId.get(at.list[b] ?? "");
  if (!ca || !cb) return false;
  return at.sectionOf(ca) === at.sectionOf(cb);
}

/** @param {Lookup} at @param {number} index */
function nextSectionStart(at, index) {
  let i = index + 1;
  while (i < at.list.length && sameSection(at, index, i)) i++;
  return Math.min(i, at.list.length - 1);
}
