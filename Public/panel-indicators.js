// @ts-check
// A card's only memory, and it is presentational: when the current loading and item actions started,
// and when their indicators appeared (the start of their reveal animation, which is when they are
// painted), so that an indicator is never seen for a flash (config.indicator): it appears only once
// loading has lasted revealAfterMs, and once it has appeared the card keeps drawing the loading state
// until it has been seen minimumShownMs, then draws the newest state. An item's spinner is held the
// same way.
import { config } from "./config.js";
import { chooseView } from "./panel-body.js";

/** @typedef {import('./types.js').PanelState} PanelState */

/**
 * @typedef {object} ItemClock the item actions in progress, by item
 * @property {Map<string, number>} since when each was first seen
 * @property {Map<string, number>} shownAt when its spinner appeared
 * @property {Map<string, number>} heldUntil items whose action ended while their spinner was seen:
 *   drawn busy until this time
 */

const { revealAfterMs, minimumShownMs } = config.indicator;
/** @param {number} since */
const delayFrom = (since) => Math.max(0, revealAfterMs - (performance.now() - since));
/** @param {number | null | undefined} shownAt when an indicator appeared, if it did */
const holdEnd = (shownAt) => (shownAt == null ? null : shownAt + minimumShownMs);

/** @param {HTMLElement} body the card's body, where the indicators are revealed */
export function createIndicatorClock(body) {
  /** @type {number | null} */
  let loadingSince = null;
  /** @type {number | null} */
  let loadingShownAt = null;
  /** @type {ItemClock} */
  const items = { since: new Map(), shownAt: new Map(), heldUntil: new Map() };

  body.addEventListener("animationstart", (ev) => {
    if (!ev.animationName.startsWith("reveal") || !(ev.target instanceof Element)) return;
    const now = performance.now();
    // The indicator's own reveal, not the spinner inside it (revealed with its container).
    if (ev.target.matches("[data-testid='loading-indicator']") && loadingSince !== null) loadingShownAt ??= now;
    if (!ev.target.matches("[data-testid='item-progress']")) return;
    const itemId = /** @type {HTMLElement | null} */ (ev.target.closest("[data-item-id]"))?.dataset.itemId;
    if (itemId && items.since.has(itemId) && !items.shownAt.has(itemId)) items.shownAt.set(itemId, now);
  });

  return {
    /**
     * Follows a state about to be drawn.
     * @param {PanelState} s
     * @param {number} at when the state arrived (page time)
     */
    remember(s, at) {
      const now = performance.now();
      if (chooseView(s).loading) {
        loadingSince ??= at;
      } else {
        loadingSince = null;
        loadingShownAt = null;
      }
      followItems(items, Array.isArray(s.modifyingIds) ? s.modifyingIds : [], at, now);
    },
    /** When the loading indicator will have been seen long enough; null when it has not appeared. */
    loadingHeldUntil: () => holdEnd(loadingShownAt),
    /** How long the loading indicator waits before it appears, counted from when loading started. */
    loadingDelay: () => (loadingSince === null ? revealAfterMs : delayFrom(loadingSince)),
    /** @param {string} itemId how long its spinner waits before it appears */
    itemDelay(itemId) {
      const since = items.since.get(itemId);
      return since === undefined ? 0 : delayFrom(since);
    },
    /**
     * The items drawn busy: those the state names, and those whose spinner is held.
     * @param {PanelState} s
     */
    busyIds: (s) => [...new Set([...(Array.isArray(s.modifyingIds) ? s.modifyingIds : []), ...items.heldUntil.keys()])],
    /**
     * When the earliest hold ends: of an item's spinner, or with `loading`, of the loading indicator;
     * null when nothing is held.
     * @param {boolean} loading whether the loading state drawn is held
     */
    earliestHoldEnd(loading) {
      const ends = [...items.heldUntil.values()];
      const panelHold = loading ? holdEnd(loadingShownAt) : null;
      if (panelHold !== null) ends.push(panelHold);
      return ends.length ? Math.min(...ends) : null;
    },
  };
}

/** @typedef {ReturnType<typeof createIndicatorClock>} IndicatorClock */

/**
 * Follows the items a state names as in progress: one that ended while its spinner was seen is held
 * until the spinner has been seen long enough.
 * @param {ItemClock} items @param {string[]} modifyingIds @param {number} at @param {number} now
 */
function followItems(items, modifyingIds, at, now) {
  const ids = new Set(modifyingIds);
  for (const id of [...items.since.keys()]) {
    if (ids.has(id)) continue;
    const until = holdEnd(items.shownAt.get(id));
    if (until !== null && until > now) items.heldUntil.set(id, until);
    items.since.delete(id);
    items.shownAt.delete(id);
  }
  for (const id of ids) {
    items.heldUntil.delete(id);
    if (!items.since.has(id)) items.since.set(id, at);
  }
  for (const [id, until] of [...items.heldUntil]) if (until <= now) items.heldUntil.delete(id);
}
