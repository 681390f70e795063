// @ts-check
// Thousands of panels stay fast because only what is near the screen exists: each section's panels
// are cut into chunks of a few rows, and a chunk's cards or lines are made when the chunk comes
// within a screen of the viewport and dropped when it leaves (an IntersectionObserver); a chunk
// without them keeps its last height, or an estimate, so the scroll bar tells the truth. The chunks
// are grouped in blocks, and a block far from the screen holds no chunk, only their height: for
// 10,000 panels the browser lays out and watches some fifty blocks and the chunks of the one or two
// near the screen, not 830 chunks (it computes every watched element's intersection in each frame
// that changes anything).
// A deck of up to config.overview.drawAllUpTo panels is drawn whole, so the browser's find in page
// finds every panel of it.
//
// The chunks are data (`Chunks`) and the functions here change them: the overview lays them out,
// its keys draw the chunk a key goes to, and its cards are released by what the chunks hold.
import { config } from "./config.js";
import { h } from "./dom.js";

/** @typedef {import('./overview-model.js').Section} Section */
/** @typedef {import('./overview-sections.js').SectionView} SectionView */

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
 * @typedef {object} Chunks every section's chunks and blocks, and what watches them
 * @property {Map<Element, Chunk>} ofEl
 * @property {Map<Element, Block>} blockOfEl
 * @property {Map<string, Chunk>} ofId the chunk a panel is in
 * @property {IntersectionObserver | null} near tells of chunks and blocks coming near the screen
 * @property {boolean} whole whether every chunk is drawn, near the screen or not (a deck of few panels)
 * @property {number} columns how many columns of cards fit
 * @property {number} cardGap the space between two chunks of cards (a line between lines is 1 px),
 *   for blocks' heights
 * @property {(chunk: Chunk) => HTMLElement[]} elementsOf a chunk's cards or lines, made if need be
 * @property {() => void} release drops the cards and lines no drawn chunk holds
 */

/**
 * @param {{columns: number, cardGap: number}} grid as measured (measureGrid)
 * @param {{elementsOf: Chunks["elementsOf"], release: Chunks["release"]}} opts
 * @returns {Chunks}
 */
export function createChunks(grid, opts) {
  /** @type {Chunks} */
  const chunks = {
    ofEl: new Map(),
    blockOfEl: new Map(),
    ofId: new Map(),
    near: null,
    whole: false,
    columns: grid.columns,
    cardGap: grid.cardGap,
    elementsOf: opts.elementsOf,
    release: opts.release,
  };
  chunks.near =
    "IntersectionObserver" in globalThis
      ? new IntersectionObserver((entries) => onNear(chunks, entries), { rootMargin: config.overview.nearMargin })
      : null;
  return chunks;
}

/**
 * How many columns of cards fit, and the space between two rows of them, as an empty grid (the
 * probe, never drawn) is laid out; measuring forces a layout, so it is done again only when the
 * list's width changes.
 * @param {HTMLElement} probe
 */
export function measureGrid(probe) {
  const style = getComputedStyle(probe);
  const cardGap = parseFloat(style.rowGap) || 0;
  const tracks = style.gridTemplateColumns.split(" ").filter(Boolean).length;
  return { columns: Math.max(1, tracks), cardGap };
}

/**
 * A new width may fit another number of columns: then `onColumns`, and the chunks are cut again.
 * @param {Chunks} chunks @param {HTMLElement} root the list @param {HTMLElement} probe
 * @param {() => void} onColumns
 */
export function followWidth(chunks, root, probe, onColumns) {
  if (!("ResizeObserver" in globalThis)) return;
  let width = root.clientWidth;
  new ResizeObserver(() => {
    if (root.clientWidth === width) return;
    width = root.clientWidth;
    const measured = measureGrid(probe);
    chunks.cardGap = measured.cardGap;
    if (measured.columns === chunks.columns) return;
    chunks.columns = measured.columns;
    onColumns();
  }).observe(root);
}

/** @param {Chunks} chunks @param {IntersectionObserverEntry[]} entries */
function onNear(chunks, entries) {
  if (chunks.whole) return;
  /** @type {(Chunk | Block)[]} */
  const coming = [];
  /** @type {Chunk[]} */
  const leaving = [];
  /** @type {Block[]} */
  const closing = [];
  for (const e of entries) {
    const item = chunks.ofEl.get(e.target) ?? chunks.blockOfEl.get(e.target);
    if (!item) continue;
    if (e.isIntersecting) coming.push(item);
    else if ("drawn" in item) leaving.push(item);
    else closing.push(item);
  }
  // Heights are all read before anything is written: one layout, not one per chunk.
  undraw(chunks, leaving, closing);
  for (const item of coming) {
    if ("drawn" in item) drawChunk(chunks, item);
    else open(chunks, item);
  }
  chunks.release();
}

/** @param {Chunks} chunks @param {"card" | "row"} mode */
function chunkSize(chunks, mode) {
  return mode === "card" ? chunks.columns * config.overview.cardRows : config.overview.compactRows;
}

/** @param {Chunks} chunks @param {Chunk} chunk */
function estimatedHeight(chunks, chunk) {
  if (chunk.mode === "row") return chunk.ids.length * config.overview.rowHeightPx;
  return Math.ceil(chunk.ids.length / chunks.columns) * config.overview.cardHeightPx;
}

/**
 * Puts a chunk's cards or lines in it, its block opened first.
 * @param {Chunks} chunks @param {Chunk} chunk
 */
export function drawChunk(chunks, chunk) {
  open(chunks, chunk.block);
  const els = chunks.elementsOf(chunk);
  const same = chunk.drawn && els.length === chunk.el.children.length && els.every((el, i) => chunk.el.children[i] === el);
  if (!same) chunk.el.replaceChildren(...els);
  chunk.drawn = true;
  chunk.el.dataset.drawn = "true";
  chunk.el.style.removeProperty("height");
}

/** @param {Chunks} chunks */
export function drawAll(chunks) {
  for (const chunk of chunks.ofEl.values()) drawChunk(chunks, chunk);
}

/**
 * Drops the cards or lines of chunks, and the chunks of blocks, that left the screen's surroundings
 * (not those holding the focus); each keeps its height.
 * @param {Chunks} chunks @param {Chunk[]} leavingChunks @param {Block[]} blocks
 */
function undraw(chunks, leavingChunks, blocks) {
  const closing = blocks.filter((block) => block.open && !block.el.contains(document.activeElement));
  const leaving = [...leavingChunks, ...closing.flatMap((block) => block.chunks)].filter(
    (chunk) => chunk.drawn && !chunk.el.contains(document.activeElement),
  );
  const heights = leaving.map((chunk) => chunk.el.offsetHeight);
  leaving.forEach((chunk, i) => empty(chunk, heights[i]));
  for (const block of closing) {
    for (const chunk of block.chunks) chunks.near?.unobserve(chunk.el);
    block.el.replaceChildren();
    block.open = false;
    sizeBlock(chunks, block);
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
 * @param {Chunks} chunks @param {Block} block
 */
function open(chunks, block) {
  if (block.open) return;
  block.open = true;
  block.el.style.removeProperty("height");
  block.el.replaceChildren(...block.chunks.map((chunk) => chunk.el));
  for (const chunk of block.chunks) chunks.near?.observe(chunk.el);
}

/**
 * A closed block is as tall as its chunks with the space between them.
 * @param {Chunks} chunks @param {Block} block
 */
function sizeBlock(chunks, block) {
  if (block.open || !block.chunks.length) return;
  const gap = block.chunks[0].mode === "card" ? chunks.cardGap : 1;
  const height = `${block.chunks.reduce((sum, chunk) => sum + chunk.height, gap * (block.chunks.length - 1))}px`;
  if (block.el.style.height !== height) block.el.style.height = height;
}

/**
 * The panels of a chunk are no longer found in it.
 * @param {Chunks} chunks @param {Chunk} chunk
 */
function unlist(chunks, chunk) {
  for (const id of chunk.ids) if (chunks.ofId.get(id) === chunk) chunks.ofId.delete(id);
}

/** @param {Chunks} chunks @param {Chunk} chunk a chunk leaving the page */
function forget(chunks, chunk) {
  chunks.near?.unobserve(chunk.el);
  chunks.ofEl.delete(chunk.el);
  unlist(chunks, chunk);
}

/** @param {Chunks} chunks @param {Block} block a block leaving the page */
export function forgetBlock(chunks, block) {
  chunks.near?.unobserve(block.el);
  chunks.blockOfEl.delete(block.el);
  for (const chunk of block.chunks) forget(chunks, chunk);
  block.el.remove();
}

/**
 * Cuts a section's panels into chunks, and the chunks into blocks, reusing those it had.
 * @param {Chunks} chunks @param {SectionView} view @param {Section} section @param {"card" | "row"} mode
 * @returns {boolean} whether a chunk on screen may lack its panels: a block or chunk was made, or a
 *   chunk's panels changed (the observer tells of them only a frame or two later)
 */
export function layoutChunks(chunks, view, section, mode) {
  view.body.dataset.mode = mode;
  const size = chunkSize(chunks, mode);
  const wanted = Math.ceil(section.ids.length / size);
  let stale = fitBlocks(chunks, view, wanted);
  for (let i = 0; i < wanted; i++) {
    const from = i * size;
    const to = Math.min(section.ids.length, from + size);
    let chunk = view.chunks[i];
    if (!chunk || chunk.mode !== mode) {
      chunk = replaceChunk(chunks, view, i, mode);
      stale = true;
    }
    if (fill(chunks, chunk, section.ids, from, to)) stale = true;
  }
  for (const block of view.blocks) sizeBlock(chunks, block);
  return stale;
}

/**
 * Drops a section's blocks and chunks past the `wanted` chunks, and adds the blocks it lacks.
 * @param {Chunks} chunks @param {SectionView} view @param {number} wanted
 * @returns {boolean} whether a block was made
 */
function fitBlocks(chunks, view, wanted) {
  const wantedBlocks = Math.ceil(wanted / config.overview.blockChunks);
  let made = false;
  while (view.blocks.length > wantedBlocks) forgetBlock(chunks, /** @type {Block} */ (view.blocks.pop()));
  while (view.chunks.length > wanted) {
    const gone = /** @type {Chunk} */ (view.chunks.pop());
    forget(chunks, gone);
    gone.el.remove();
    // The last chunk is its block's last, if the block is still there.
    if (gone.block.chunks.at(-1) === gone) gone.block.chunks.pop();
  }
  while (view.blocks.length < wantedBlocks) {
    const el = h("div", { class: "panel-block" });
    const block = { el, chunks: /** @type {Chunk[]} */ ([]), open: false };
    view.blocks.push(block);
    chunks.blockOfEl.set(el, block);
    view.body.appendChild(el);
    chunks.near?.observe(el);
    made = true;
  }
  return made;
}

/**
 * Puts a new chunk, empty, at place `i` of a section, in place of the one there (of the other mode).
 * @param {Chunks} chunks @param {SectionView} view @param {number} i @param {"card" | "row"} mode
 */
function replaceChunk(chunks, view, i, mode) {
  const perBlock = config.overview.blockChunks;
  const chunk = view.chunks[i];
  const block = view.blocks[Math.floor(i / perBlock)];
  const el = h("div", { class: ["panel-grid", `panel-grid-${mode}`], data: { testid: "panel-grid" } });
  const fresh = { el, mode, ids: /** @type {string[]} */ ([]), drawn: false, height: 0, block };
  block.chunks[i % perBlock] = fresh;
  if (block.open) {
    if (chunk) chunk.el.replaceWith(el);
    else block.el.appendChild(el);
    chunks.near?.observe(el);
  }
  if (chunk) forget(chunks, chunk);
  view.chunks[i] = fresh;
  chunks.ofEl.set(el, fresh);
  return fresh;
}

/**
 * Gives a chunk the panels `from` to `to` of `ids`, unless it has them already.
 * @param {Chunks} chunks @param {Chunk} chunk @param {string[]} ids @param {number} from @param {number} to
 * @returns {boolean} whether it was emptied, and waits to be drawn
 */
function fill(chunks, chunk, ids, from, to) {
  // Compared in place: most chunks keep their panels, and no copy of them is made.
  let changed = to - from !== chunk.ids.length;
  for (let k = from; !changed && k < to; k++) changed = ids[k] !== chunk.ids[k - from];
  if (!changed) return false;
  unlist(chunks, chunk);
  chunk.ids = ids.slice(from, to);
  for (const id of chunk.ids) chunks.ofId.set(id, chunk);
  if (chunk.drawn && (chunks.whole || chunk.el.contains(document.activeElement))) {
    drawChunk(chunks, chunk);
    return false;
  }
  // Drawn again only near the screen: at once on it (drawVisible), else once the observer, asked
  // afresh, reports it near; a search does not wait for cards nobody sees yet.
  if (chunk.drawn) {
    chunks.near?.unobserve(chunk.el);
    chunks.near?.observe(chunk.el);
  }
  empty(chunk, estimatedHeight(chunks, chunk));
  return true;
}

/**
 * Draws at once the chunks in the viewport (the observer would a frame or two later, and draws those
 * near it then): the blocks on screen are opened, then their chunks on screen drawn, each measured
 * before anything is written.
 * @param {Chunks} chunks
 */
export function drawVisible(chunks) {
  /** @param {Element} el */
  const onScreen = (el) => {
    const r = el.getBoundingClientRect();
    return r.bottom >= 0 && r.top <= innerHeight;
  };
  const blocks = [...chunks.blockOfEl.values()].filter((block) => !block.open && onScreen(block.el));
  for (const block of blocks) open(chunks, block);
  const drawable = [...chunks.ofEl.values()].filter((chunk) => chunk.block.open && !chunk.drawn && onScreen(chunk.el));
  for (const chunk of drawable) drawChunk(chunks, chunk);
}
