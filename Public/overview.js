// @ts-check
// The overview draws the model's sections: a heading per group (a button that collapses it, and the
// group's counts), then its panels as cards or as compact lines; a collapsed group still lists its
// failing panels, as lines. Its parts:
//
//   overview-sections.js  the groups' headings and counts, and where each section goes in the list
//   overview-chunks.js    the panels cut into chunks and blocks, drawn only near the screen
//   overview-cards.js     the cards and lines of the drawn chunks, dropped when none holds them
//   overview-keys.js      the tab stop and the keys between panels
//
// This module puts them together and draws a view: render() after each change of what the view
// lists, update() and drawCounts() after changes of the panels' states.
import { config } from "./config.js";
import { h } from "./dom.js";
import { createChunks, measureGrid, followWidth, layoutChunks, forgetBlock, drawAll, drawVisible } from "./overview-chunks.js";
import { createSections, drawHeading } from "./overview-sections.js";
import { createOverviewCards } from "./overview-cards.js";
import { createTabStop, createOverviewKeys } from "./overview-keys.js";

/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./panel.js').PanelView} PanelView */
/** @typedef {import('./compact-row.js').CompactRow} CompactRow */
/** @typedef {import('./overview-model.js').Section} Section */
/** @typedef {import('./view-url.js').View} View */

/**
 * @param {{
 *   root: HTMLElement,
 *   stateOf: (id: string) => PanelState | undefined,
 *   makeCard: (id: string) => PanelView,
 *   makeRow: (id: string) => CompactRow,
 *   onToggleGroup: (key: string) => void,
 *   onRelayout: () => void,
 * }} opts makeCard / makeRow: a new card or line for a panel (drawn here with its state);
 *   onRelayout: the width fits another number of columns, so the sections must be drawn again
 */
export function createOverview(opts) {
  const { root } = opts;
  // An empty grid, never drawn, that tells how many columns of cards fit; measured again only when
  // the list's width changes (measuring forces a layout).
  const probe = h("div", { class: ["panel-grid", "grid-probe"], attrs: { "aria-hidden": "true" } });
  root.replaceChildren(probe);
  const chunks = createChunks(measureGrid(probe), {
    elementsOf: (chunk) => cards.elementsOf(chunk),
    release: () => cards.release(),
  });
  const cards = createOverviewCards({
    chunks,
    stateOf: opts.stateOf,
    makeCard: opts.makeCard,
    makeRow: opts.makeRow,
    tabStop: () => tabStop.current,
  });
  const sections = createSections(root, opts.onToggleGroup);
  const tabStop = createTabStop(chunks, cards);
  const keys = createOverviewKeys(root, { chunks, cards, tabStop, sectionOf: sections.sectionOf });
  followWidth(chunks, root, probe, opts.onRelayout);

  /**
   * Draws a view of the model's sections.
   * @param {Section[]} next
   * @param {View} view
   * @param {number} deckSize how many panels the deck has
   */
  function render(next, view, deckSize) {
    chunks.whole = deckSize <= config.overview.drawAllUpTo;
    keys.show(next);
    sections.keepOnly(new Set(next.map((s) => s.key)), (gone) => {
      for (const block of gone.blocks) forgetBlock(chunks, block);
    });
    let stale = false;
    const els = next.map((section) => {
      const sv = sections.viewOf(section);
      drawHeading(sv, section);
      if (layoutChunks(chunks, sv, section, section.collapsed || view.density === "compact" ? "row" : "card")) stale = true;
      return sv.el;
    });
    sections.arrange(els);
    tabStop.keepIn(next);
    if (chunks.whole) drawAll(chunks);
    else if (stale) drawVisible(chunks);
    cards.release();
  }

  return {
    render,
    update: cards.update,
    step: keys.step,
    toggleCard: cards.toggle,
    focusPanel: tabStop.focus,
    drawCounts: sections.drawCounts,
    /** @param {string} id the drawn card of a panel, if it has one */
    cardOf: (id) => cards.cards.get(id),
    /** The drawn cards. */
    cards: () => cards.cards.entries(),
    /** The panels drawn as a card or a line. */
    drawnIds: () => new Set([...cards.cards.keys(), ...cards.rows.keys()]),
  };
}

/** @typedef {ReturnType<typeof createOverview>} Overview */
