// @ts-check
// The overview draws the model's sections: a heading per group (a button that collapses it, and the
// group's counts), then its panels as cards or as compact lines; a collapsed group still lists its
// failing panels, as lines.
//
// Thousands of panels stay fast because only what is near the screen exists: each section's panels
// are cut into chunks of a few rows, and a chunk's cards or lines are made when the chunk comes
// within a screen of the viewport and dropped when it leaves (an IntersectionObserver); a chunk
// without them keeps its last height, or an estimate, so the scroll bar tells the truth. The chunks
// are grouped in blocks, and a block far from the screen holds no chunk, only their height: for
// 10,000 panels the browser lays out and watches some fifty blocks and the chunks of the one or two
// near the screen, not 830 chunks (it computes every watched element's intersection in each frame
// that changes anything). A card or line that is dropped stops its timeline's requests, so only
// panels on screen ever ask for one.
// A deck of up to config.overview.drawAllUpTo panels is drawn whole, so the browser's find in page
// finds every panel of it.
//
// Keys: the panels are one tab stop (a roving tabindex); arrows move between them (up and down by a
// row of cards), Home and End go to the first and last, Enter focuses a card's primary action or
// opens a line's card; j and k (app.js) move from anywhere.
import { config } from "./config.js";
import { h, icon } from "./dom.js";

/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./panel.js').PanelView} PanelView */
/** @typedef {import('./compact-row.js').CompactRow} CompactRow */
/** @typedef {import('./overview-model.js').Section} Section */
/** @typedef {import('./overview-model.js').Counts} Counts */
/** @typedef {import('./view-url.js').View} View */

/**
 * @typedef {object} Chunk
 * @property {HTMLElement} el
 * @property {"card" | "row"} mode
 * @property {string[]} ids
 * @property {boolean} drawn whether its cards or lines are in it
 * @property {number} height its height while not drawn: as last drawn, or estimated
 * @property {Block} block
 */

/**
 * @typedef {object} Block
 * @property {HTMLElement} el
 * @property {Chunk[]} chunks
 * @property {boolean} open whether its chunks are in it (and watched); closed, it has their height
 */

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

/** Where Enter goes on a card, first found first. */
const PRIMARY_ACTIONS = ["error-primary", "stale-retry", "load-now", "item-action", "panel-refresh"].map(
  (testid) => `[data-testid='${testid}']`,
);

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
  /** @type {Map<string, PanelView>} */
  const cards = new Map();
  /** @type {Map<string, CompactRow>} */
  const rows = new Map();
  /** Lines whose card is open. */
  const expanded = new Set();
  /** @type {Map<string, SectionView>} */
  const sectionViews = new Map();
  /** @type {Map<Element, Chunk>} */
  const chunkOfEl = new Map();
  /** @type {Map<Element, Block>} */
  const blockOfEl = new Map();
  /** @type {Map<string, Chunk>} */
  const chunkOfId = new Map();
  /** @type {Section[]} the sections drawn */
  let shown = [];
  /** The panels in the order they are drawn (sections one after another), for the keys; made when a
   * key needs it, not at every change of the list. */
  /** @type {{list: string[], position: Map<string, number>} | null} */
  let ordered = null;

  function order() {
    if (!ordered) {
      const list = shown.flatMap((s) => s.ids);
      ordered = { list, position: new Map(list.map((id, i) => [id, i])) };
    }
    return ordered;
  }
  /** The panel holding the list's tab stop. */
  /** @type {string | null} */
  let current = null;
  let columns = 1;
  /** The space between two chunks of cards (a line between lines is 1 px), for blocks' heights. */
  let cardGap = 0;

  // An empty grid, never drawn, that tells how many columns of cards fit; measured again only when
  // the list's width changes (measuring forces a layout).
  const probe = h("div", { class: ["panel-grid", "grid-probe"], attrs: { "aria-hidden": "true" } });
  root.replaceChildren(probe);
  columns = measureColumns();

  const near =
    "IntersectionObserver" in globalThis
      ? new IntersectionObserver(onNear, { rootMargin: config.overview.nearMargin })
      : null;

  /** Whether every chunk is drawn, near the screen or not (a deck of few panels). */
  let whole = false;

  /** @param {IntersectionObserverEntry[]} entries */
  function onNear(entries) {
    if (whole) return;
    /** @type {(Chunk | Block)[]} */
    const coming = [];
    /** @type {Chunk[]} */
    const leaving = [];
    /** @type {Block[]} */
    const closing = [];
    for (const e of entries) {
      const item = chunkOfEl.get(e.target) ?? blockOfEl.get(e.target);
      if (!item) continue;
      if (e.isIntersecting) coming.push(item);
      else if ("drawn" in item) leaving.push(item);
      else closing.push(item);
    }
    // Heights are all read before anything is written: one layout, not one per chunk.
    undraw(leaving, closing);
    for (const item of coming) {
      if ("drawn" in item) draw(item);
      else open(item);
    }
    release();
  }

  function measureColumns() {
    const style = getComputedStyle(probe);
    cardGap = parseFloat(style.rowGap) || 0;
    const tracks = style.gridTemplateColumns.split(" ").filter(Boolean).length;
    return Math.max(1, tracks);
  }

  /** @param {"card" | "row"} mode */
  function chunkSize(mode) {
    return mode === "card" ? columns * config.overview.cardRows : config.overview.compactRows;
  }

  /** @param {Chunk} chunk */
  function estimatedHeight(chunk) {
    if (chunk.mode === "row") return chunk.ids.length * config.overview.rowHeightPx;
    return Math.ceil(chunk.ids.length / columns) * config.overview.cardHeightPx;
  }

  // ---- cards and lines ------------------------------------------------------------------------

  /** @param {string} id @param {HTMLElement} el */
  function joinTabOrder(id, el) {
    el.tabIndex = id === current ? 0 : -1;
  }

  /** @param {string} id */
  function cardFor(id) {
    let card = cards.get(id);
    if (!card) {
      card = opts.makeCard(id);
      cards.set(id, card);
      const s = opts.stateOf(id);
      if (s) card.update(s);
    }
    return card;
  }

  /** @param {string} id */
  function cardElement(id) {
    const el = cardFor(id).el;
    el.dataset.nav = "card";
    joinTabOrder(id, el);
    return el;
  }

  /** @param {string} id */
  function rowElement(id) {
    let row = rows.get(id);
    if (!row) {
      row = opts.makeRow(id);
      rows.set(id, row);
      const s = opts.stateOf(id);
      if (s) row.update(s);
    }
    row.el.dataset.nav = "row";
    joinTabOrder(id, row.el);
    if (expanded.has(id)) {
      const card = cardFor(id);
      delete card.el.dataset.nav;
      card.el.tabIndex = -1;
      row.showCard(card.el);
    } else {
      row.showCard(null);
    }
    return row.el;
  }

  /** @param {Chunk} chunk */
  function draw(chunk) {
    open(chunk.block);
    const els = chunk.ids.map((id) => (chunk.mode === "card" ? cardElement(id) : rowElement(id)));
    const same = chunk.drawn && els.length === chunk.el.children.length && els.every((el, i) => chunk.el.children[i] === el);
    if (!same) chunk.el.replaceChildren(...els);
    chunk.drawn = true;
    chunk.el.dataset.drawn = "true";
    chunk.el.style.removeProperty("height");
  }

  /**
   * Drops the cards or lines of chunks, and the chunks of blocks, that left the screen's surroundings
   * (not those holding the focus); each keeps its height.
   * @param {Chunk[]} chunks @param {Block[]} blocks
   */
  function undraw(chunks, blocks) {
    const closing = blocks.filter((block) => block.open && !block.el.contains(document.activeElement));
    const leaving = [...chunks, ...closing.flatMap((block) => block.chunks)].filter(
      (chunk) => chunk.drawn && !chunk.el.contains(document.activeElement),
    );
    const heights = leaving.map((chunk) => chunk.el.offsetHeight);
    leaving.forEach((chunk, i) => empty(chunk, heights[i]));
    for (const block of closing) {
      for (const chunk of block.chunks) near?.unobserve(chunk.el);
      block.el.replaceChildren();
      block.open = false;
      sizeBlock(block);
    }
  }

  /**
   * Takes a chunk's cards or lines out of it, leaving it a height.
   * @param {Chunk} chunk @param {number} height
   */
  function empty(chunk, height) {
    chunk.height = height;
    chunk.el.style.height = `${height}px`;
    chunk.el.replaceChildren();
    chunk.drawn = false;
    delete chunk.el.dataset.drawn;
  }

  /**
   * Puts a block's chunks in it, watched from now on.
   * @param {Block} block
   */
  function open(block) {
    if (block.open) return;
    block.open = true;
    block.el.style.removeProperty("height");
    block.el.replaceChildren(...block.chunks.map((chunk) => chunk.el));
    for (const chunk of block.chunks) near?.observe(chunk.el);
  }

  /**
   * A closed block is as tall as its chunks with the space between them.
   * @param {Block} block
   */
  function sizeBlock(block) {
    if (block.open || !block.chunks.length) return;
    const gap = block.chunks[0].mode === "card" ? cardGap : 1;
    const height = `${block.chunks.reduce((sum, chunk) => sum + chunk.height, gap * (block.chunks.length - 1))}px`;
    if (block.el.style.height !== height) block.el.style.height = height;
  }

  /** Drops the cards and lines no drawn chunk holds: they stop asking for their timelines. */
  function release() {
    /** @type {Set<string>} */
    const liveCards = new Set();
    /** @type {Set<string>} */
    const liveRows = new Set();
    for (const chunk of chunkOfEl.values()) {
      if (!chunk.drawn) continue;
      for (const id of chunk.ids) {
        if (chunk.mode === "card") liveCards.add(id);
        else {
          liveRows.add(id);
          if (expanded.has(id)) liveCards.add(id);
        }
      }
    }
    for (const [id, card] of cards) {
      if (liveCards.has(id)) continue;
      card.destroy();
      card.el.remove();
      cards.delete(id);
    }
    for (const [id, row] of rows) {
      if (liveRows.has(id)) continue;
      row.destroy();
      row.el.remove();
      rows.delete(id);
    }
  }

  // ---- sections -------------------------------------------------------------------------------

  /** @param {Section} section @returns {SectionView} */
  function sectionView(section) {
    let view = sectionViews.get(section.key);
    if (view) return view;
    const body = h("div", { class: "group-body", attrs: { id: `group-body-${section.key || "none"}` } });
    if (!section.group) {
      view = { el: h("div", { class: "group group-none", data: { testid: "group-none" } }, body), body, toggle: null, label: null, counts: null, chunks: [], blocks: [] };
    } else {
      const key = section.key;
      const label = h("span", { class: "group-label" });
      const toggle = /** @type {HTMLButtonElement} */ (
        h(
          "button",
          {
            class: "group-toggle",
            attrs: { type: "button", "aria-controls": body.id, "aria-expanded": "true" },
            data: { testid: "group-toggle" },
            on: { click: () => opts.onToggleGroup(key) },
          },
          icon("chevron-down", { class: "chevron" }),
          label,
        )
      );
      const counts = h("span", { class: "group-counts", data: { testid: "group-counts" } });
      const headingId = `group-title-${key}`;
      view = {
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
    sectionViews.set(section.key, view);
    return view;
  }

  /** @param {SectionView} view @param {Section} section */
  function drawHeading(view, section) {
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

  /** @param {Chunk} chunk a chunk leaving the page */
  function forget(chunk) {
    near?.unobserve(chunk.el);
    chunkOfEl.delete(chunk.el);
    for (const id of chunk.ids) if (chunkOfId.get(id) === chunk) chunkOfId.delete(id);
  }

  /** @param {Block} block a block leaving the page */
  function forgetBlock(block) {
    near?.unobserve(block.el);
    blockOfEl.delete(block.el);
    for (const chunk of block.chunks) forget(chunk);
    block.el.remove();
  }

  /**
   * Cuts a section's panels into chunks, and the chunks into blocks, reusing those it had.
   * @param {SectionView} view @param {Section} section @param {"card" | "row"} mode
   * @returns {boolean} whether a chunk on screen may lack its panels: a block or chunk was made, or a
   *   chunk's panels changed (the observer tells of them only a frame or two later)
   */
  function layoutChunks(view, section, mode) {
    let stale = false;
    view.body.dataset.mode = mode;
    const size = chunkSize(mode);
    const perBlock = config.overview.blockChunks;
    const wanted = Math.ceil(section.ids.length / size);
    const wantedBlocks = Math.ceil(wanted / perBlock);
    while (view.blocks.length > wantedBlocks) forgetBlock(/** @type {Block} */ (view.blocks.pop()));
    while (view.chunks.length > wanted) {
      const gone = /** @type {Chunk} */ (view.chunks.pop());
      forget(gone);
      gone.el.remove();
      // The last chunk is its block's last, if the block is still there.
      if (gone.block.chunks.at(-1) === gone) gone.block.chunks.pop();
    }
    while (view.blocks.length < wantedBlocks) {
      const el = h("div", { class: "panel-block" });
      const block = { el, chunks: /** @type {Chunk[]} */ ([]), open: false };
      view.blocks.push(block);
      blockOfEl.set(el, block);
      view.body.appendChild(el);
      near?.observe(el);
      stale = true;
    }
    for (let i = 0; i < wanted; i++) {
      const from = i * size;
      const to = Math.min(section.ids.length, from + size);
      let chunk = view.chunks[i];
      if (!chunk || chunk.mode !== mode) {
        const block = view.blocks[Math.floor(i / perBlock)];
        const el = h("div", { class: ["panel-grid", `panel-grid-${mode}`], data: { testid: "panel-grid" } });
        const fresh = { el, mode, ids: /** @type {string[]} */ ([]), drawn: false, height: 0, block };
        block.chunks[i % perBlock] = fresh;
        if (block.open) {
          if (chunk) chunk.el.replaceWith(el);
          else block.el.appendChild(el);
          near?.observe(el);
        }
        if (chunk) forget(chunk);
        view.chunks[i] = fresh;
        chunkOfEl.set(el, fresh);
        chunk = fresh;
        stale = true;
      }
      // Compared in place: most chunks keep their panels, and no copy of them is made.
      let changed = to - from !== chunk.ids.length;
      for (let k = from; !changed && k < to; k++) changed = section.ids[k] !== chunk.ids[k - from];
      if (!changed) continue;
      for (const id of chunk.ids) if (chunkOfId.get(id) === chunk) chunkOfId.delete(id);
      chunk.ids = section.ids.slice(from, to);
      for (const id of chunk.ids) chunkOfId.set(id, chunk);
      if (chunk.drawn && (whole || chunk.el.contains(document.activeElement))) draw(chunk);
      else {
        // Drawn again only near the screen: at once on it (drawVisible), else once the observer,
        // asked afresh, reports it near; a search does not wait for cards nobody sees yet.
        if (chunk.drawn) {
          near?.unobserve(chunk.el);
          near?.observe(chunk.el);
        }
        empty(chunk, estimatedHeight(chunk));
        stale = true;
      }
    }
    for (const block of view.blocks) sizeBlock(block);
    return stale;
  }

  /** Draws at once the chunks in the viewport (the observer would a frame or two later, and draws
   * those near it then): the blocks on screen are opened, then their chunks on screen drawn, each
   * measured before anything is written. */
  function drawVisible() {
    /** @param {Element} el */
    const onScreen = (el) => {
      const r = el.getBoundingClientRect();
      return r.bottom >= 0 && r.top <= innerHeight;
    };
    const blocks = [...blockOfEl.values()].filter((block) => !block.open && onScreen(block.el));
    for (const block of blocks) open(block);
    const chunks = [...chunkOfEl.values()].filter((chunk) => chunk.block.open && !chunk.drawn && onScreen(chunk.el));
    for (const chunk of chunks) draw(chunk);
  }

  /**
   * Draws a view of the model's sections.
   * @param {Section[]} next
   * @param {View} view
   * @param {number} deckSize how many panels the deck has
   */
  function render(next, view, deckSize) {
    whole = deckSize <= config.overview.drawAllUpTo;
    shown = next;
    ordered = null;
    const keys = new Set(next.map((s) => s.key));
    for (const [key, sv] of sectionViews) {
      if (keys.has(key)) continue;
      for (const block of sv.blocks) forgetBlock(block);
      sv.el.remove();
      sectionViews.delete(key);
    }
    /** @type {HTMLElement[]} */
    const order = [];
    let stale = false;
    for (const section of next) {
      const sv = sectionView(section);
      drawHeading(sv, section);
      if (layoutChunks(sv, section, section.collapsed || view.density === "compact" ? "row" : "card")) stale = true;
      order.push(sv.el);
    }
    order.forEach((el, i) => {
      if (root.children[i + 1] !== el) root.insertBefore(el, root.children[i + 1] ?? null);
    });
    if (current === null || !chunkOfId.has(current)) setCurrent(next.find((s) => s.ids.length)?.ids[0] ?? null);
    if (whole) for (const chunk of chunkOfEl.values()) draw(chunk);
    else if (stale) drawVisible();
    release();
  }

  // ---- keys -----------------------------------------------------------------------------------

  /** @param {string} id */
  function navElement(id) {
    const chunk = chunkOfId.get(id);
    if (chunk && !chunk.drawn) draw(chunk);
    return chunk?.mode === "row" ? rows.get(id)?.el ?? null : cards.get(id)?.el ?? null;
  }

  /** @param {string | null} id */
  function setCurrent(id) {
    if (current !== null) {
      const old = current === id ? null : chunkOfId.get(current)?.drawn ? navElement(current) : null;
      if (old) old.tabIndex = -1;
    }
    current = id;
    if (id !== null && chunkOfId.get(id)?.drawn) {
      const el = navElement(id);
      if (el) el.tabIndex = 0;
    }
  }

  /** @param {string} id */
  function focusPanel(id) {
    setCurrent(id);
    const el = navElement(id);
    if (!el) return;
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: "nearest" });
    release();
  }

  /**
   * The panel `key` leads to from the panel at `index`.
   * @param {number} index
   * @param {string} key
   */
  function target(index, key) {
    const { list } = order();
    const chunk = chunkOfId.get(list[index]);
    const across = chunk?.mode === "card" ? columns : 1;
    switch (key) {
      case "ArrowRight":
        return index + 1;
      case "ArrowLeft":
        return index - 1;
      case "ArrowDown":
        return sameSection(index, index + across) ? index + across : nextSectionStart(index);
      case "ArrowUp":
        return sameSection(index, index - across) ? index - across : index - 1;
      case "Home":
        return 0;
      case "End":
        return list.length - 1;
      default:
        return null;
    }
  }

  /** @param {number} a @param {number} b */
  function sameSection(a, b) {
    const { list } = order();
    const ca = chunkOfId.get(list[a] ?? "");
    const cb = chunkOfId.get(list[b] ?? "");
    if (!ca || !cb) return false;
    return sectionOfChunk(ca) === sectionOfChunk(cb);
  }

  /** @param {Chunk} chunk */
  function sectionOfChunk(chunk) {
    for (const [key, sv] of sectionViews) if (sv.chunks.includes(chunk)) return key;
    return null;
  }

  /** @param {number} index */
  function nextSectionStart(index) {
    const { list } = order();
    let i = index + 1;
    while (i < list.length && sameSection(index, i)) i++;
    return Math.min(i, list.length - 1);
  }

  /** @param {string} id */
  function activate(id) {
    const chunk = chunkOfId.get(id);
    if (chunk?.mode === "row") {
      toggleCard(id);
      return;
    }
    const el = cards.get(id)?.el;
    for (const selector of PRIMARY_ACTIONS) {
      const action = /** @type {HTMLElement | null} */ (el?.querySelector(selector));
      if (action && action.offsetParent !== null) {
        action.focus();
        return;
      }
    }
  }

  /**
   * Opens or closes a line's card; opened, focus goes to the card.
   * @param {string} id
   */
  function toggleCard(id) {
    const open = !expanded.has(id);
    if (open) expanded.add(id);
    else expanded.delete(id);
    const chunk = chunkOfId.get(id);
    if (chunk?.drawn) rowElement(id);
    release();
    if (open) cards.get(id)?.el.focus({ preventScroll: true });
  }

  root.addEventListener("keydown", (ev) => {
    const el = /** @type {HTMLElement} */ (ev.target);
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const id = el.dataset?.nav ? el.dataset.panelId : undefined;
    if (id === undefined) {
      // Escape in an open card of a line closes it, and focus goes back to the line.
      const row = el.closest("[data-nav='row']");
      const rowId = /** @type {HTMLElement | null} */ (row)?.dataset.panelId;
      if (ev.key === "Escape" && rowId && expanded.has(rowId) && !el.closest("dialog")) {
        ev.preventDefault();
        toggleCard(rowId);
        focusPanel(rowId);
      }
      return;
    }
    if (ev.key === "Enter") {
      ev.preventDefault();
      activate(id);
      return;
    }
    const { list, position } = order();
    const index = position.get(id);
    if (index === undefined) return;
    const to = target(index, ev.key);
    if (to === null) return;
    ev.preventDefault();
    const next = list[Math.max(0, Math.min(list.length - 1, to))];
    if (next !== undefined) focusPanel(next);
  });

  root.addEventListener("focusin", (ev) => {
    const nav = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (ev.target).closest("[data-nav]"));
    const id = nav?.dataset.panelId;
    if (id && id !== current && chunkOfId.has(id)) setCurrent(id);
  });

  // A new width may fit another number of columns: the chunks are cut again.
  if ("ResizeObserver" in globalThis) {
    let width = root.clientWidth;
    new ResizeObserver(() => {
      if (root.clientWidth === width) return;
      width = root.clientWidth;
      const measured = measureColumns();
      if (measured === columns) return;
      columns = measured;
      opts.onRelayout();
    }).observe(root);
  }

  return {
    render,
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
      const next = index < 0 ? current ?? list[0] : list[Math.max(0, Math.min(list.length - 1, index + step))];
      if (next !== undefined) focusPanel(next);
    },
    toggleCard,
    /** Focuses panel `id`'s card or line and scrolls it into view, when the view lists it. */
    focusPanel,
    /**
     * Redraws the groups' counts (the panels' states changed, not what the view lists).
     * @param {(key: string) => Counts} countsOf
     */
    drawCounts(countsOf) {
      for (const [key, sv] of sectionViews) drawCounts(sv, countsOf(key));
    },
    /** @param {string} id the drawn card of a panel, if it has one */
    cardOf: (id) => cards.get(id),
    /** The drawn cards. */
    cards: () => cards.entries(),
    /** The panels drawn as a card or a line. */
    drawnIds: () => new Set([...cards.keys(), ...rows.keys()]),
  };
}

/** @typedef {ReturnType<typeof createOverview>} Overview */
