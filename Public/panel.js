// @ts-check
// One panel card, drawn by one rule over the panel's derived state:
//
//   isInitialLoading        → the initial-loading presentation over the skeleton (placeholder, redacted)
//   else latestValidInfo    → the loaded view (+ the loading-after-info presentation while isLoading)
//   else latestValidError   → the error card (+ the loading-after-error presentation while isLoading)
//   else                    → the initial content (placeholder skeleton, or "not loaded yet")
//
// The card's shell (header, tools, footer) is built once; its body is rebuilt on every state, with
// focus and open disclosures carried over. The only memory kept here is presentational: when loading
// and item actions started, so that an indicator is never seen for a flash (config.indicator): it
// appears only once loading has lasted revealAfterMs, and once it has appeared the card keeps drawing
// the loading state until it has been seen minimumShownMs, then draws the newest state.
//
// Under the body, when the server keeps a history, the panel's timeline (panel-timeline.js), and in
// its tools the button that opens its history view (history.js); both appear once the server has
// answered with the panel's timeline.
import { config } from "./config.js";
import { store } from "./store.js";
import { h, icon, button, whileBusy, replaceChildren, clockTime } from "./dom.js";
import { renderInfo, renderSkeleton } from "./info.js";
import { renderErrorCard, retryLine } from "./error-card.js";
import { withLoading, genericSkeleton } from "./loading.js";
import { createPanelTimeline } from "./panel-timeline.js";
import { loadTimeText } from "./timeline-text.js";
import { renderLocations } from "./locations.js";

/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./types.js').UptimeReport} UptimeReport */

/**
 * @typedef {object} PanelActions
 * @property {(panelId: string) => Promise<unknown>} retry
 * @property {(panelId: string, optionId: string) => Promise<unknown>} recover
 * @property {(panelId: string, itemId: string, actionId: string) => Promise<unknown>} itemAction
 * @property {(panelId: string, query: {span: string, slots: number}) => Promise<import('./api.js').ReadResult<UptimeReport>>} uptime
 * @property {(panelId: string, opener: HTMLElement, slot?: import('./types.js').UptimeSlot) => void} openHistory
 *   slot: the time to show (a timeline slot that was activated); the default range without it
 */

/** @typedef {"initial-loading" | "loaded" | "error" | "initial"} ViewKind */

/**
 * Which view a state draws, as a pure function.
 * @param {PanelState} s
 * @returns {{view: ViewKind, loading: boolean}}
 */
export function chooseView(s) {
  if (s.isInitialLoading) return { view: "initial-loading", loading: true };
  if (s.latestValidInfo) return { view: "loaded", loading: Boolean(s.isLoading) };
  if (s.latestValidError) return { view: "error", loading: Boolean(s.isLoading) };
  return { view: "initial", loading: false };
}

const PHASE_LABEL = /** @type {Record<string, string>} */ ({
  initial: "Not loaded",
  loading: "Loading",
  loaded: "Up to date",
  error: "Failed",
});

/**
 * @param {string} panelId
 * @param {PanelActions} actions
 */
export function createPanelView(panelId, actions) {
  const titleId = `panel-title-${panelId}`;
  const title = h("h2", { class: "panel-title", attrs: { id: titleId } });
  const pinnedBadge = h("span", {
    class: ["badge", "badge-debug"],
    text: "debug",
    data: { testid: "debug-badge" },
    attrs: { title: "Forced by a debug state: scheduled loads are paused" },
  });
  const restoredBadge = h("span", {
    class: ["badge", "badge-restored"],
    text: "From before restart",
    data: { testid: "restored-badge" },
    attrs: { title: "Shown as it was before the server restarted, until the first load since the restart ends" },
  });
  const offlineNote = h("span", {
    class: ["badge", "badge-offline"],
    text: "May be stale",
    data: { testid: "panel-offline-note" },
    attrs: { title: "Disconnected from the server: this data may be out of date" },
  });
  const refresh = button({
    label: "Refresh",
    icon: "refresh",
    iconOnly: true,
    class: ["btn-icon", "panel-refresh"],
    key: "refresh",
    testid: "panel-refresh",
    onClick: (ev) => whileBusy(/** @type {HTMLButtonElement} */ (ev.currentTarget), () => actions.retry(panelId)),
  });
  const historyButton = button({
    label: "History",
    icon: "history",
    iconOnly: true,
    class: ["btn-icon", "panel-history-open"],
    key: "history",
    testid: "history-open",
    onClick: (ev) => actions.openHistory(panelId, /** @type {HTMLElement} */ (ev.currentTarget)),
  });
  historyButton.hidden = true;
  const tools = h("div", { class: "panel-tools", data: { testid: "panel-tools" } }, historyButton, refresh);
  const heading = h("div", { class: "panel-heading" }, h("span", { class: "status-dot", attrs: { "aria-hidden": "true" } }), title, offlineNote);
  const body = h("div", { class: "panel-body", data: { testid: "panel-body" } });
  const phaseLabel = h("span", { class: "phase-label", data: { testid: "phase-label" } });
  const updated = h("time", { class: "updated" });
  const loadTime = h("span", { class: "load-time", data: { testid: "load-time" }, attrs: { title: "How long the newest load took" } });
  const footerExtra = h("span", { class: "footer-extra" });
  const el = h(
    "section",
    { class: "panel", data: { testid: "panel", "panel-id": panelId }, attrs: { "aria-labelledby": titleId, tabindex: -1 } },
    h(
      "header",
      { class: "panel-header" },
      heading,
      tools,
    ),
    body,
    h("footer", { class: "panel-footer" }, phaseLabel, updated, loadTime, footerExtra),
  );
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
  /** @type {HTMLElement | null} the locations drawn over the body, for a panel checked from several places */
  let locations = null;

  /** Presentational memory: when the current loading / item actions were first seen, and when their
   * indicators appeared (the start of their reveal animation, which is when they are painted). */
  /** @type {number | null} */
  let loadingSince = null;
  /** @type {number | null} */
  let loadingShownAt = null;
  /** @type {Map<string, number>} */
  const modifyingSince = new Map();
  /** @type {Map<string, number>} */
  const modifyingShownAt = new Map();
  /** Items whose action ended while their spinner was seen: drawn busy until this time. */
  /** @type {Map<string, number>} */
  const modifyingHeldUntil = new Map();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let holdTimer;
  let detailsOpen = false;
  /** @type {PanelState | null} the newest state received */
  let current = null;
  /** @type {PanelState | null} the state drawn: the newest, or a loading one still being held */
  let drawn = null;

  const { revealAfterMs, minimumShownMs } = config.indicator;
  /** @param {number} since */
  const delayFrom = (since) => Math.max(0, revealAfterMs - (performance.now() - since));
  /** @param {number | null | undefined} shownAt when an indicator appeared, if it did */
  const holdEnd = (shownAt) => (shownAt == null ? null : shownAt + minimumShownMs);

  body.addEventListener("animationstart", (ev) => {
    if (!ev.animationName.startsWith("reveal") || !(ev.target instanceof Element)) return;
    const now = performance.now();
    // The indicator's own reveal, not the spinner inside it (revealed with its container).
    if (ev.target.matches("[data-testid='loading-indicator']") && loadingSince !== null) loadingShownAt ??= now;
    if (!ev.target.matches("[data-testid='item-progress']")) return;
    const itemId = /** @type {HTMLElement | null} */ (ev.target.closest("[data-item-id]"))?.dataset.itemId;
    if (itemId && modifyingSince.has(itemId) && !modifyingShownAt.has(itemId)) modifyingShownAt.set(itemId, now);
  });

  /** @param {PanelState} s */
  const isLoadingView = (s) => chooseView(s).loading;

  /**
   * @param {PanelState} s
   * @param {number} at when the state arrived (page time)
   */
  function remember(s, at) {
    const now = performance.now();
    if (isLoadingView(s)) {
      loadingSince ??= at;
    } else {
      loadingSince = null;
      loadingShownAt = null;
    }
    const ids = new Set(Array.isArray(s.modifyingIds) ? s.modifyingIds : []);
    for (const id of [...modifyingSince.keys()]) {
      if (ids.has(id)) continue;
      const until = holdEnd(modifyingShownAt.get(id));
      if (until !== null && until > now) modifyingHeldUntil.set(id, until);
      modifyingSince.delete(id);
      modifyingShownAt.delete(id);
    }
    for (const id of ids) {
      modifyingHeldUntil.delete(id);
      if (!modifyingSince.has(id)) modifyingSince.set(id, at);
    }
    for (const [id, until] of [...modifyingHeldUntil]) if (until <= now) modifyingHeldUntil.delete(id);
    if (!s.latestValidError) detailsOpen = false;
  }

  /** Re-draws the newest state when the earliest hold ends. */
  function scheduleHoldEnd() {
    clearTimeout(holdTimer);
    const ends = [...modifyingHeldUntil.values()];
    const panelHold = drawn !== current ? holdEnd(loadingShownAt) : null;
    if (panelHold !== null) ends.push(panelHold);
    if (!ends.length) return;
    holdTimer = setTimeout(() => {
      if (current) update(current);
    }, Math.max(0, Math.min(...ends) - performance.now()));
  }

  /** @param {PanelState} s */
  function renderBody(s) {
    const { view, loading } = chooseView(s);
    const settings = store.settings;
    const pres = s.presentation ?? settings?.presentation ?? {};
    const fallback = settings?.presentation;
    const types = settings?.presentationTypes ?? [];
    const label = `Loading ${s.title}`;
    const delayMs = loadingSince === null ? revealAfterMs : delayFrom(loadingSince);
    const busyIds = [...new Set([...(Array.isArray(s.modifyingIds) ? s.modifyingIds : []), ...modifyingHeldUntil.keys()])];
    /** @type {(Node | null)[]} */
    const parts = [];
    if (view === "initial-loading") {
      const skeleton = s.placeholder ? renderSkeleton(s.placeholder) : genericSkeleton();
      parts.push(withLoading(skeleton, pres.initialLoading, { fallback: fallback?.initialLoading, types, label, delayMs }));
      // Automatic retries before the first result say so, as they do over info and error cards.
      if (s.retry) parts.push(h("div", { class: "skeleton-retry", data: { testid: "skeleton-retry" } }, retryLine(s.retry)));
    } else if (view === "loaded") {
      if (s.stale) parts.push(staleBanner(s));
      const info = renderInfo(/** @type {import('./types.js').Info} */ (s.latestValidInfo), {
        panelTitle: s.title,
        modifyingIds: busyIds.length ? busyIds : null,
        itemSpinnerDelay: (itemId) => {
          const since = modifyingSince.get(itemId);
          return since === undefined ? 0 : delayFrom(since);
        },
        onItemAction: (itemId, actionId, btn) => whileBusy(btn, () => actions.itemAction(panelId, itemId, actionId)),
      });
      parts.push(loading ? withLoading(info, pres.loadingAfterInfo, { fallback: fallback?.loadingAfterInfo, types, label, delayMs }) : info);
    } else if (view === "error") {
      const card = renderErrorCard(/** @type {import('./types.js').ErrorCard} */ (s.latestValidError), {
        panelTitle: s.title,
        retry: s.retry,
        detailsOpen,
        onDetailsToggle: (open) => {
          detailsOpen = open;
        },
        onOption: (optionId, btn) => whileBusy(btn, () => actions.recover(panelId, optionId)),
      });
      parts.push(loading ? withLoading(card, pres.loadingAfterError, { fallback: fallback?.loadingAfterError, types, label, delayMs }) : card);
    } else {
      parts.push(s.placeholder ? renderSkeleton(s.placeholder) : initialContent(s));
    }
    return { view, loading, parts };
  }

  /** @param {PanelState} s */
  function staleBanner(s) {
    const failed = s.latestError?.title;
    return h(
      "div",
      { class: "stale-banner", data: { testid: "stale-banner" } },
      icon("alert"),
      h(
        "div",
        { class: "stale-text" },
        h("strong", { text: "Refresh failed" }),
        h("span", { text: `${failed ? ` — ${failed}.` : "."} Showing the last good data; the panel counts as down until a load succeeds.` }),
        s.retry ? retryLine(s.retry) : null,
      ),
      button({
        label: "Retry",
        key: "stale-retry",
        testid: "stale-retry",
        class: ["btn-small", "btn-secondary"],
        onClick: (ev) => whileBusy(/** @type {HTMLButtonElement} */ (ev.currentTarget), () => actions.retry(panelId)),
      }),
    );
  }

  /** @param {PanelState} s */
  function initialContent(s) {
    return h(
      "div",
      { class: "initial-content", data: { testid: "initial-content" } },
      // A card dismissed with no info before it leaves the panel empty, and its source down.
      h("p", { text: s.health === "down" ? "The last load failed (its card was dismissed): down until a load succeeds." : "Not loaded yet." }),
      button({
        label: "Load now",
        key: "load-now",
        testid: "load-now",
        class: ["btn-small", "btn-secondary"],
        icon: "refresh",
        onClick: (ev) => whileBusy(/** @type {HTMLButtonElement} */ (ev.currentTarget), () => actions.retry(panelId)),
        ariaLabel: `Load ${s.title} now`,
      }),
    );
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
    const heldUntil = isLoadingView(s) ? null : holdEnd(loadingShownAt);
    if (drawn && heldUntil !== null && heldUntil > performance.now()) {
      scheduleHoldEnd();
      return;
    }
    remember(s, at);
    draw(s);
    scheduleHoldEnd();
  }

  /** @param {PanelState} s */
  function draw(s) {
    drawn = s;
    const focusKey = focusedKey();
    const { view, loading, parts } = renderBody(s);

    title.textContent = s.title;
    // The badge exists only while pinned (without --debug no debug element is in the DOM).
    if (s.debugPinned && !pinnedBadge.isConnected) heading.insertBefore(pinnedBadge, offlineNote);
    else if (!s.debugPinned) pinnedBadge.remove();
    if (s.restored && !restoredBadge.isConnected) heading.insertBefore(restoredBadge, offlineNote);
    else if (!s.restored) restoredBadge.remove();
    refresh.setAttribute("aria-label", `Refresh ${s.title}`);
    historyButton.setAttribute("aria-label", `History of ${s.title}`);
    historyButton.title = `History of ${s.title}`;
    el.dataset.view = view;
    el.dataset.phase = s.phase;
    el.dataset.loading = String(loading);
    el.dataset.pinned = String(Boolean(s.debugPinned));
    el.dataset.stale = String(Boolean(s.stale));
    el.dataset.restored = String(Boolean(s.restored));
    body.setAttribute("aria-busy", String(loading));
    replaceChildren(body, parts);
    const nextLocations = renderLocations(s);
    if (locations && nextLocations) locations.replaceWith(nextLocations);
    else if (nextLocations) el.insertBefore(nextLocations, body);
    else locations?.remove();
    locations = nextLocations;

    phaseLabel.textContent = s.queued && s.isLoading ? "Queued" : PHASE_LABEL[s.phase] ?? s.phase;
    const when = clockTime(s.since);
    updated.textContent = when ? `since ${when}` : "";
    if (s.since) updated.setAttribute("datetime", s.since);
    else updated.removeAttribute("datetime");
    // The server's own field, sent with each change: checks that show the same result send
    // nothing, so this is the newest load time as of the newest change or snapshot.
    loadTime.textContent = typeof s.loadMs === "number" && s.phase !== "initial" ? `took ${loadTimeText(s.loadMs)}` : "";
    replaceChildren(footerExtra, view === "loaded" && !s.stale && s.retry ? retryLine(s.retry) : null);

    if (focusKey) restoreFocus(focusKey);
  }

  /** @returns {string | null} the data-key of the focused element inside this panel */
  function focusedKey() {
    const active = document.activeElement;
    if (!active || !el.contains(active) || active === el) return null;
    const keyed = /** @type {HTMLElement | null} */ (active.closest("[data-key]"));
    return keyed?.dataset.key ?? "__panel__";
  }

  /** @param {string} key */
  function restoreFocus(key) {
    if (el.contains(document.activeElement) && document.activeElement !== document.body) return;
    const target = /** @type {HTMLElement | null} */ (el.querySelector(`[data-key="${CSS.escape(key)}"]`));
    (target ?? el).focus({ preventScroll: true });
  }

  return {
    el,
    tools,
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
