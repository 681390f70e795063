// @ts-check
// The history view of one panel: a modal <dialog> whose address is its own (`#history=<panelId>`):
// opening that address opens it, closing it takes the address back. It draws, for a chosen range
// (1 h, 24 h, 7 d, 30 d, or two datetime-local inputs), the panel's timeline and load-time chart from
// GET /api/panels/{id}/uptime, and lists its stored changes, newest first, from
// GET /api/panels/{id}/history, a page at a time ("Older" follows the page's `next` cursor).
//
// The dialog's elements are history-dialog.js, its ranges history-range.js, its requests
// history-load.js; this module opens and closes it and follows the range controls.
import { config } from "./config.js";
import { presetRange, customRange, slotRange } from "./history-range.js";
import { createHistoryDialog, showCustomInputs, showCustomProblem } from "./history-dialog.js";
import { loadAll, loadPage } from "./history-load.js";

/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./store.js').Store} Store */
/** @typedef {import('./types.js').UptimeSlot} UptimeSlot */
/** @typedef {import('./history-dialog.js').HistoryDialog} HistoryDialog */
/** @typedef {import('./history-load.js').HistorySession} HistorySession */

const HASH_KEY = "history";

/**
 * The panel id a location hash names, or null: "#history=api" → "api".
 * @param {string} hash
 */
export function panelInHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const id = params.get(HASH_KEY);
  return id ? id : null;
}

/**
 * @param {{api: Api, store: Store, onDialogOpen: (dialog: HTMLDialogElement) => void, onDialogClose: () => void,
 *   openerFor: (panelId: string) => HTMLElement | null}} opts openerFor: the element to focus when the
 *   dialog closes and no element opened it (it was opened by its address)
 */
export function installHistory(opts) {
  const { api, store } = opts;
  /** @type {HistorySession} */
  const session = {
    panelId: null, opener: null, cursor: null, generation: 0, range: presetRange(config.historyView.defaultRange), audit: [],
  };
  const d = createHistoryDialog({
    onApply: () => ranges.applyCustom(),
    onOlder: () => void loadPage(api, d, session, true),
    onSlot: (slot) => ranges.showSlot(slot),
  });
  const { dialog } = d;
  const ranges = followRanges(api, d, session);

  /**
   * @param {string} id
   * @param {HTMLElement | null} from
   * @param {UptimeSlot | null} [slot]
   */
  function show(id, from, slot = null) {
    if (!openDialog(d, session, opts, id, from, slot)) return;
    if (slot) ranges.showSlot(slot);
    else ranges.showDefault();
  }

  dialog.addEventListener("close", () => closed(d, session, opts));

  /** Opens or closes the dialog to match the address. */
  function syncWithAddress() {
    const id = panelInHash(location.hash);
    if (id) show(id, null);
    else if (dialog.open) dialog.close();
  }
  window.addEventListener("hashchange", syncWithAddress);
  window.addEventListener("popstate", syncWithAddress);

  const unsubscribe = store.subscribe((c) => {
    if (!dialog.open) return;
    if (c.kind === "snapshot" || (c.kind === "panel" && c.id === session.panelId)) renderTitle(d, session, store);
  });

  return {
    /**
     * Opens the history of a panel, giving it its own address.
     * @param {string} id
     * @param {HTMLElement | null} from the element to focus again on close
     * @param {UptimeSlot} [slot] the time to show; the default range without it
     */
    open(id, from, slot) {
      if (panelInHash(location.hash) !== id) {
        history.pushState({ ...(history.state ?? {}), statedeckHistory: id }, "", `#${HASH_KEY}=${encodeURIComponent(id)}`);
      }
      show(id, from, slot ?? null);
    },
    /** Opens the dialog when the page's address names it. */
    syncWithAddress,
    dispose() {
      unsubscribe();
      window.removeEventListener("hashchange", syncWithAddress);
      window.removeEventListener("popstate", syncWithAddress);
    },
  };
}

/**
 * Follows the range controls: a preset chosen, a custom range applied, a slot of the timeline
 * activated; each shows its range and loads it.
 * @param {Api} api
 * @param {HistoryDialog} d
 * @param {HistorySession} session
 */
function followRanges(api, d, session) {
  const { rangeSelect } = d;
  rangeSelect.addEventListener("change", () => {
    if (rangeSelect.value === "custom") {
      showCustomInputs(d, session.range.from, session.range.to);
      d.fromInput.focus();
      return;
    }
    d.custom.hidden = true;
    session.range = presetRange(rangeSelect.value);
    void loadAll(api, d, session);
  });
  return {
    applyCustom() {
      const { range, problem } = customRange(d.fromInput.value, d.toInput.value);
      showCustomProblem(d, problem);
      if (!range) return;
      session.range = range;
      void loadAll(api, d, session);
    },
    /**
     * A slot of the dialog's timeline was activated: list what happened in it.
     * @param {UptimeSlot} slot
     */
    showSlot(slot) {
      const range = slotRange(slot);
      if (!range) return;
      rangeSelect.value = "custom";
      showCustomInputs(d, range.from, Math.max(range.to, range.from + 60_000));
      session.range = range;
      void loadAll(api, d, session);
    },
    /** The dialog opened without a slot: the default range. */
    showDefault() {
      rangeSelect.value = config.historyView.defaultRange;
      d.custom.hidden = true;
      d.customError.textContent = "";
      session.range = presetRange(config.historyView.defaultRange);
      void loadAll(api, d, session);
    },
  };
}

/**
 * @param {HistoryDialog} d
 * @param {HistorySession} session
 * @param {Store} store
 */
function renderTitle(d, session, store) {
  const name = session.panelId ? store.panel(session.panelId)?.title ?? session.panelId : "";
  d.title.textContent = `History of ${name}`;
}

/**
 * Shows a panel's history in the dialog, opening it if it is closed, and gives it focus. False when
 * it already shows that panel and no slot is asked for: nothing to load.
 * @param {HistoryDialog} d
 * @param {HistorySession} session
 * @param {{store: Store, onDialogOpen: (dialog: HTMLDialogElement) => void}} opts
 * @param {string} id
 * @param {HTMLElement | null} from
 * @param {UptimeSlot | null} slot
 */
function openDialog(d, session, opts, id, from, slot) {
  const { dialog } = d;
  const same = dialog.open && session.panelId === id;
  session.opener = from ?? session.opener;
  if (same && !slot) return false;
  session.panelId = id;
  renderTitle(d, session, opts.store);
  // The dialog joins the page the first time it is opened.
  if (!dialog.isConnected) document.body.appendChild(dialog);
  if (!dialog.open) {
    dialog.showModal();
    opts.onDialogOpen(dialog);
  }
  d.rangeSelect.focus();
  return true;
}

/**
 * The dialog closed: drops the answers still awaited, takes the address back, and gives focus back.
 * @param {HistoryDialog} d
 * @param {HistorySession} session
 * @param {{onDialogClose: () => void, openerFor: (panelId: string) => HTMLElement | null}} opts
 */
function closed(d, session, opts) {
  session.generation++;
  d.timeline.hideTip();
  opts.onDialogClose();
  const id = session.panelId;
  session.panelId = null;
  if (id && panelInHash(location.hash) === id) {
    if (history.state && history.state.statedeckHistory === id) history.back();
    else history.replaceState(history.state, "", location.pathname + location.search);
  }
  const back = session.opener?.isConnected ? session.opener : id ? opts.openerFor(id) : null;
  back?.focus({ preventScroll: true });
  session.opener = null;
}

/** @typedef {ReturnType<typeof installHistory>} HistoryView */
