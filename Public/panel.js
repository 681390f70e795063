// @ts-check
// One panel card: its shell (header, tools, footer: panel-shell.js) built once, and its body
// (panel-body.js) rebuilt on every state by one rule over the panel's derived state, with focus and
// open disclosures carried over; a heartbeat panel's status under the body (heartbeat.js). The only memory kept is presentational (panel-indicators.js): when
// loading and item actions started, so that an indicator is never seen for a flash; while a loading
// indicator that has appeared must still be seen, the card keeps drawing the loading state, then
// draws the newest.
//
// Under the body, when the server keeps a history, the panel's timeline (panel-timeline.js), and in
// its tools the button that opens its history view (history.js); both appear once the server has
// answered with the panel's timeline.
import { store } from "./store.js";
import { replaceChildren } from "./dom.js";
import { createPanelTimeline } from "./panel-timeline.js";
import { createPanelShell, drawShell, drawLocationsAndFooter, drawHeartbeat } from "./panel-shell.js";
import { chooseView, renderBody } from "./panel-body.js";
import { createIndicatorClock } from "./panel-indicators.js";
import { createPanelNotes } from "./panel-notes.js";

/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./types.js').UptimeReport} UptimeReport */

/**
 * @typedef {object} PanelActions
 * @property {(panelId: string) => Promise<unknown>} retry
 * @property {(panelId: string, optionId: string) => Promise<unknown>} recover
 * @property {(panelId: string, itemId: string, actionId: string) => Promise<unknown>} itemAction
 * @property {(panelId: string, query: {span: string, slots: number, to?: string}) => Promise<import('./api.js').ReadResult<UptimeReport>>} uptime
 * @property {(panelId: string) => Promise<import('./api.js').ReadResult<{pingPath: string}>>} pingPath
 *   a heartbeat's ping path, for an operator
 * @property {(panelId: string, opener: HTMLElement, slot?: import('./types.js').UptimeSlot) => void} openHistory
 *   slot: the time to show (a timeline slot that was activated); the default range without it
 * @property {(panelId: string) => void} openPanel brings a panel's card or line into view (a probable
 *   cause's link)
 */

/**
 * @param {string} panelId
 * @param {PanelActions} actions
 */
export function createPanelView(panelId, actions) {
  const shell = createPanelShell(panelId, actions);
  const { el, body, historyButton } = shell;
  const timeline = panelTimeline(panelId, actions, shell);
  const indicators = createIndicatorClock(body);
  const notes = notesOverBody(shell, actions);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let holdTimer;
  let detailsOpen = false;
  /** @type {PanelState | null} the newest state received */
  let current = null;
  /** @type {PanelState | null} the state drawn: the newest, or a loading one still being held */
  let drawn = null;

  /** Re-draws the newest state when the earliest hold ends. */
  function scheduleHoldEnd() {
    clearTimeout(holdTimer);
    const end = indicators.earliestHoldEnd(drawn !== current);
    if (end === null) return;
    holdTimer = setTimeout(() => {
      if (current) update(current);
    }, Math.max(0, end - performance.now()));
  }

  /**
   * Draws a new state.
   * @param {PanelState} s
   * @param {number} [at] when it arrived (page time), if before now: the delays before an indicator
   *   appears count from then (the overview draws the changes of a frame together)
   */
  function update(s, at = performance.now()) {
    current = s;
    timeline.update(s);
    // A visible indicator whose loading just ended is kept until it has been seen long enough.
    const heldUntil = chooseView(s).loading ? null : indicators.loadingHeldUntil();
    if (drawn && heldUntil !== null && heldUntil > performance.now()) {
      scheduleHoldEnd();
      return;
    }
    indicators.remember(s, at);
    if (!s.latestValidError) detailsOpen = false;
    draw(s);
    scheduleHoldEnd();
  }

  /** @param {PanelState} s */
  function draw(s) {
    drawn = s;
    const focusKey = focusedKey(el);
    const onDetailsToggle = (/** @type {boolean} */ open) => {
      detailsOpen = open;
    };
    const { view, loading, parts } = renderBody(s, { panelId, actions, indicators, detailsOpen, onDetailsToggle });
    drawShell(shell, s, view, loading);
    replaceChildren(body, parts);
    drawLocationsAndFooter(shell, s, view);
    drawHeartbeat(shell, s, view, actions);
    notes.update(s);
    if (focusKey) restoreFocus(el, focusKey);
  }

  return {
    el,
    tools: shell.tools,
    update,
    /** The button that opens the panel's history, when the server keeps one. */
    get historyButton() {
      return historyButton.hidden ? null : historyButton;
    },
    /** Asks for the timeline again soon (the state document was replaced). */
    refreshTimeline: () => timeline.refreshSoon(),
    /** Stops the timeline's requests (the panel left the deck). */
    destroy: () => timeline.destroy(),
    get state() {
      return current;
    },
  };
}

/** @typedef {ReturnType<typeof createPanelView>} PanelView */

/**
 * Why the panel probably fails, and whether it flaps, drawn over the card's body.
 * @param {import('./panel-shell.js').PanelShell} shell @param {PanelActions} actions
 */
function notesOverBody(shell, actions) {
  const notes = createPanelNotes("p", actions.openPanel);
  shell.el.insertBefore(notes.el, shell.body);
  return notes;
}

/**
 * The card's timeline, under its body; the History button shows once the server has answered with it.
 * @param {string} panelId @param {PanelActions} actions @param {import('./panel-shell.js').PanelShell} shell
 */
function panelTimeline(panelId, actions, shell) {
  const { el, body, historyButton } = shell;
  const timeline = createPanelTimeline(panelId, {
    load: (query) => actions.uptime(panelId, query),
    settings: () => store.settings?.history ?? null,
    onAvailable: (available) => {
      historyButton.hidden = !available;
    },
    watch: el,
    // A slot opens the history of its time; focus comes back to the History button.
    onSlot: (slot) => actions.openHistory(panelId, historyButton, slot),
  });
  el.insertBefore(timeline.el, body.nextSibling);
  return timeline;
}

/**
 * @param {HTMLElement} el a card
 * @returns {string | null} the data-key of the focused element inside it
 */
function focusedKey(el) {
  const active = document.activeElement;
  if (!active || !el.contains(active) || active === el) return null;
  const keyed = /** @type {HTMLElement | null} */ (active.closest("[data-key]"));
  return keyed?.dataset.key ?? "__panel__";
}

/**
 * Focuses again what had the focus before the card was drawn, by its data-key (the card itself when
 * it is gone), unless the focus is still in the card.
 * @param {HTMLElement} el a card @param {string} key
 */
function restoreFocus(el, key) {
  if (el.contains(document.activeElement) && document.activeElement !== document.body) return;
  const target = /** @type {HTMLElement | null} */ (el.querySelector(`[data-key="${CSS.escape(key)}"]`));
  (target ?? el).focus({ preventScroll: true });
}
