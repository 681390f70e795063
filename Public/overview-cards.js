// @ts-check
// The overview's cards and compact lines: one for each panel of a drawn chunk, made with the panel's
// state when the chunk is drawn, and dropped once no drawn chunk holds it. A card or line that is
// dropped stops its timeline's requests, so only panels on screen ever ask for one. A line may have
// its panel's card open under it.

/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./panel.js').PanelView} PanelView */
/** @typedef {import('./compact-row.js').CompactRow} CompactRow */
/** @typedef {import('./overview-chunks.js').Chunk} Chunk */
/** @typedef {import('./overview-chunks.js').Chunks} Chunks */

/**
 * @param {{
 *   chunks: Chunks,
 *   stateOf: (id: string) => PanelState | undefined,
 *   makeCard: (id: string) => PanelView,
 *   makeRow: (id: string) => CompactRow,
 *   tabStop: () => string | null,
 * }} opts makeCard / makeRow: a new card or line for a panel (drawn here with its state); tabStop: the
 *   panel holding the list's tab stop
 */
export function createOverviewCards(opts) {
  /** @type {Map<string, PanelView>} */
  const cards = new Map();
  /** @type {Map<string, CompactRow>} */
  const rows = new Map();
  /** Lines whose card is open. */
  const expanded = new Set();

  /** @param {string} id */
  function cardElement(id) {
    const el = madeFor(cards, id, opts.makeCard, opts.stateOf).el;
    el.dataset.nav = "card";
    joinTabOrder(el, id, opts.tabStop());
    return el;
  }

  /** @param {string} id */
  function rowElement(id) {
    const row = madeFor(rows, id, opts.makeRow, opts.stateOf);
    row.el.dataset.nav = "row";
    joinTabOrder(row.el, id, opts.tabStop());
    if (expanded.has(id)) {
      const card = madeFor(cards, id, opts.makeCard, opts.stateOf);
      delete card.el.dataset.nav;
      card.el.tabIndex = -1;
      row.showCard(card.el);
    } else {
      row.showCard(null);
    }
    return row.el;
  }

  /** Drops the cards and lines no drawn chunk holds: they stop asking for their timelines. */
  function release() {
    const live = liveIds(opts.chunks, expanded);
    dropAllBut(cards, live.cards);
    dropAllBut(rows, live.rows);
  }

  /**
   * Opens or closes a line's card; opened, focus goes to the card.
   * @param {string} id
   */
  function toggle(id) {
    const open = !expanded.has(id);
    if (open) expanded.add(id);
    else expanded.delete(id);
    if (opts.chunks.ofId.get(id)?.drawn) rowElement(id);
    release();
    if (open) cards.get(id)?.el.focus({ preventScroll: true });
  }

  return {
    /** The drawn cards, by panel. */
    cards,
    /** The drawn lines, by panel. */
    rows,
    /** @param {string} id whether the line of a panel has its card open */
    isExpanded: (id) => expanded.has(id),
    /** @param {Chunk} chunk its cards or lines, made if need be */
    elementsOf: (chunk) => chunk.ids.map((id) => (chunk.mode === "card" ? cardElement(id) : rowElement(id))),
    release,
    toggle,
    /**
     * Redraws the cards and lines of panels whose state changed (those not drawn have nothing to do).
     * @param {Map<string, number>} changed panel ids, each with when its newest state arrived
     */
    update(changed) {
      for (const [id, at] of changed) {
        const s = opts.stateOf(id);
        if (!s) continue;
        cards.get(id)?.update(s, at);
        rows.get(id)?.update(s);
      }
    },
  };
}

/** @typedef {ReturnType<typeof createOverviewCards>} OverviewCards */

/**
 * A panel's card or line, made and drawn with the panel's state if there is none yet.
 * @template {{update: (s: PanelState) => void}} T
 * @param {Map<string, T>} made @param {string} id @param {(id: string) => T} make
 * @param {(id: string) => PanelState | undefined} stateOf
 */
function madeFor(made, id, make, stateOf) {
  let view = made.get(id);
  if (!view) {
    view = make(id);
    made.set(id, view);
    const s = stateOf(id);
    if (s) view.update(s);
  }
  return view;
}

/**
 * Only the panel holding the list's tab stop is in the tab order.
 * @param {HTMLElement} el @param {string} id its panel @param {string | null} tabStop
 */
function joinTabOrder(el, id, tabStop) {
  el.tabIndex = id === tabStop ? 0 : -1;
}

/**
 * The panels drawn chunks hold: as cards (a line's open card too), and as lines.
 * @param {Chunks} chunks @param {Set<string>} expanded
 */
function liveIds(chunks, expanded) {
  /** @type {Set<string>} */
  const cards = new Set();
  /** @type {Set<string>} */
  const rows = new Set();
  for (const chunk of chunks.ofEl.values()) {
    if (!chunk.drawn) continue;
    for (const id of chunk.ids) {
      if (chunk.mode === "card") cards.add(id);
      else {
        rows.add(id);
        if (expanded.has(id)) cards.add(id);
      }
    }
  }
  return { cards, rows };
}

/**
 * Destroys and takes out of the page every card or line but those of `live`.
 * @param {Map<string, {el: HTMLElement, destroy: () => void}>} made @param {Set<string>} live
 */
function dropAllBut(made, live) {
  for (const [id, view] of made) {
    if (live.has(id)) continue;
    view.destroy();
    view.el.remove();
    made.delete(id);
  }
}
