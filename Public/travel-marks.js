// @ts-check
// The changes the History strip marks, held between its reads (GET /api/changes):
//
// | read                                   | asks                                                          |
// |----------------------------------------|---------------------------------------------------------------|
// | the first, or a span reaching earlier  | newest first, at most `pages` pages: a busy deck's latest     |
// |                                        | hours are never the ones left out                             |
// | the next ones over the same span       | oldest first from the newest change held: what came since     |
// | more came since than one page holds    | as the first again                                            |
//
// Changes the span left behind are let go; every page says the oldest instant kept, which the
// strip starts at when the history is younger than its span.
import { config } from "./config.js";

/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./types.js').DeckChange} DeckChange */

/**
 * @typedef {object} SpanChanges
 * @property {DeckChange[]} changes oldest first
 * @property {number | null} oldest the oldest instant kept (ms), null while none is or no page was read
 */

/** @param {DeckChange} change */
const keyOf = (change) => `${change.at} ${change.panel}`;

/**
 * The newest changes of `from`…`to`, newest first page by page, returned oldest first; null when
 * not even the first page could be read.
 * @param {Api} api
 * @param {string} from
 * @param {string} to
 * @returns {Promise<SpanChanges | null>}
 */
async function readBack(api, from, to) {
  /** @type {DeckChange[]} */
  const newestFirst = [];
  /** @type {number | null} */
  let oldest = null;
  /** @type {string | null} */
  let cursor = null;
  for (let page = 0; page < config.travel.pages; page++) {
    /** @type {import('./api.js').ReadResult<import('./types.js').ChangesPage>} */
    const answer = await api.changes({ from, to, limit: config.travel.pageSize, cursor, order: "newest" });
    if (!answer.ok) {
      if (page === 0) return null;
      break;
    }
    newestFirst.push(...answer.data.changes);
    if (answer.data.oldest) oldest = Date.parse(answer.data.oldest);
    cursor = answer.data.next;
    if (!cursor) break;
  }
  return { changes: newestFirst.reverse(), oldest };
}

/** @param {Api} api */
export function createSpanChanges(api) {
  /** @type {DeckChange[]} */
  let held = [];
  let heldFrom = Infinity;
  /** @type {number | null} */
  let oldest = null;

  /**
   * What came since the newest held, or null when one page does not hold it all.
   * @param {string} since @param {string} to
   */
  async function readSince(since, to) {
    const answer = await api.changes({ from: since, to, limit: config.travel.pageSize });
    if (!answer.ok || answer.data.next) return null;
    if (answer.data.oldest) oldest = Date.parse(answer.data.oldest);
    const known = new Set(held.filter((c) => c.at === since).map(keyOf));
    return answer.data.changes.filter((c) => !known.has(keyOf(c)));
  }

  return {
    /**
     * The changes of `from`…`to` (ms), oldest first, and the oldest instant kept; what was held
     * when the server cannot be read.
     * @param {number} from @param {number} to
     * @returns {Promise<SpanChanges>}
     */
    async read(from, to) {
      const [fromISO, toISO] = [new Date(from).toISOString(), new Date(to).toISOString()];
      const newest = held.length && from >= heldFrom ? held[held.length - 1].at : null;
      const since = newest ? await readSince(newest, toISO) : null;
      if (since) held = held.filter((c) => Date.parse(c.at) >= from).concat(since);
      else {
        const back = await readBack(api, fromISO, toISO);
        if (!back) return { changes: held, oldest };
        ({ changes: held, oldest } = back);
      }
      heldFrom = from;
      return { changes: held, oldest };
    },
  };
}
