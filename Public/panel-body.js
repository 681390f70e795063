// @ts-check
// A card's body, drawn by one rule over the panel's derived state:
//
//   isInitialLoading        → the initial-loading presentation over the skeleton (placeholder, redacted)
//   else latestValidInfo    → the loaded view (+ the loading-after-info presentation while isLoading)
//   else latestValidError   → the error card (+ the loading-after-error presentation while isLoading)
//   else                    → the initial content (placeholder skeleton, or "not loaded yet"; for a
//                             heartbeat panel, which loads nothing, that it waits for its job's ping)
//
// The body is rebuilt on every state (panel.js carries focus and open disclosures over); when its
// indicators appear is panel-indicators.js's to say.
import { store } from "./store.js";
import { h, icon, button, whileBusy } from "./dom.js";
import { renderInfo, renderSkeleton } from "./info.js";
import { renderErrorCard, retryLine } from "./error-card.js";
import { withLoading, genericSkeleton } from "./loading.js";

/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./panel.js').PanelActions} PanelActions */
/** @typedef {import('./panel-indicators.js').IndicatorClock} IndicatorClock */

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

/**
 * @typedef {object} BodyContext
 * @property {string} panelId
 * @property {PanelActions} actions
 * @property {IndicatorClock} indicators
 * @property {boolean} detailsOpen whether the error card's details are open
 * @property {(open: boolean) => void} onDetailsToggle
 */

/**
 * The body of a state: which view, whether loading, and what to put in the body.
 * @param {PanelState} s @param {BodyContext} ctx
 */
export function renderBody(s, ctx) {
  const { panelId, actions, indicators } = ctx;
  const { view, loading } = chooseView(s);
  const settings = store.settings;
  const pres = s.presentation ?? settings?.presentation ?? {};
  const fallback = settings?.presentation;
  const types = settings?.presentationTypes ?? [];
  const label = `Loading ${s.title}`;
  const delayMs = indicators.loadingDelay();
  const busyIds = indicators.busyIds(s);
  /** @param {MouseEvent} ev */
  const onRetry = (ev) => whileBusy(/** @type {HTMLButtonElement} */ (ev.currentTarget), () => actions.retry(panelId));
  /** @type {(Node | null)[]} */
  const parts = [];
  if (view === "initial-loading") {
    const skeleton = s.placeholder ? renderSkeleton(s.placeholder) : genericSkeleton();
    parts.push(withLoading(skeleton, pres.initialLoading, { fallback: fallback?.initialLoading, types, label, delayMs }));
    // Automatic retries before the first result say so, as they do over info and error cards.
    if (s.retry) parts.push(h("div", { class: "skeleton-retry", data: { testid: "skeleton-retry" } }, retryLine(s.retry)));
  } else if (view === "loaded") {
    if (s.stale) parts.push(staleBanner(s, onRetry));
    const info = renderInfo(/** @type {import('./types.js').Info} */ (s.latestValidInfo), {
      panelTitle: s.title,
      modifyingIds: busyIds.length ? busyIds : null,
      itemSpinnerDelay: (itemId) => indicators.itemDelay(itemId),
      onItemAction: (itemId, actionId, btn) => whileBusy(btn, () => actions.itemAction(panelId, itemId, actionId)),
    });
    parts.push(loading ? withLoading(info, pres.loadingAfterInfo, { fallback: fallback?.loadingAfterInfo, types, label, delayMs }) : info);
  } else if (view === "error") {
    const card = renderErrorCard(/** @type {import('./types.js').ErrorCard} */ (s.latestValidError), {
      panelTitle: s.title,
      retry: s.retry,
      detailsOpen: ctx.detailsOpen,
      onDetailsToggle: ctx.onDetailsToggle,
      onOption: (optionId, btn) => whileBusy(btn, () => actions.recover(panelId, optionId)),
    });
    parts.push(loading ? withLoading(card, pres.loadingAfterError, { fallback: fallback?.loadingAfterError, types, label, delayMs }) : card);
  } else {
    parts.push(s.heartbeat ? heartbeatInitialContent(s) : s.placeholder ? renderSkeleton(s.placeholder) : initialContent(s, onRetry));
  }
  return { view, loading, parts };
}

/**
 * Over the info kept, when the newest load failed (for a heartbeat, when its newest run was late or
 * failed: nothing loads it again, its job's next ping is what changes it).
 * @param {PanelState} s @param {(ev: MouseEvent) => void} onRetry
 */
function staleBanner(s, onRetry) {
  const failed = s.latestError?.title;
  const [heading, text] = s.heartbeat
    ? [failed ?? "Down", ". Showing the last run that ended well; down until the job's next ping."]
    : ["Refresh failed", `${failed ? ` — ${failed}.` : "."} Showing the last good data; the panel counts as down until a load succeeds.`];
  return h(
    "div",
    { class: "stale-banner", data: { testid: "stale-banner" } },
    icon("alert"),
    h(
      "div",
      { class: "stale-text" },
      h("strong", { text: heading }),
      h("span", { text }),
      s.retry ? retryLine(s.retry) : null,
    ),
    s.heartbeat ? null : button({
      label: "Retry",
      key: "stale-retry",
      testid: "stale-retry",
      needs: "retry",
      class: ["btn-small", "btn-secondary"],
      onClick: onRetry,
    }),
  );
}

/**
 * A panel never loaded, or whose failure's card was dismissed.
 * @param {PanelState} s @param {(ev: MouseEvent) => void} onRetry
 */
function initialContent(s, onRetry) {
  return h(
    "div",
    { class: "initial-content", data: { testid: "initial-content" } },
    // A card dismissed with no info before it leaves the panel empty, and its source down.
    h("p", { text: s.health === "down" ? "The last load failed (its card was dismissed): down until a load succeeds." : "Not loaded yet." }),
    button({
      label: "Load now",
      key: "load-now",
      testid: "load-now",
      needs: "retry",
      class: ["btn-small", "btn-secondary"],
      icon: "refresh",
      onClick: onRetry,
      ariaLabel: `Load ${s.title} now`,
    }),
  );
}

/**
 * A heartbeat panel with no result shown: waiting for its job's first ping (the URL to give the job
 * is in the heartbeat section right under the body), its first run in progress, or down after a
 * dismissed card.
 * @param {PanelState} s
 */
function heartbeatInitialContent(s) {
  const hb = /** @type {import('./types.js').HeartbeatStatus} */ (s.heartbeat);
  const [heading, hint] = s.health === "down"
    ? [`${s.latestError?.title ?? "Down"} (its card was dismissed)`, "Down until the job's next ping."]
    : hb.lastPing
      ? ["No run has ended yet", "The first run is in progress."]
      : ["Waiting for the first ping", hb.hasPingURL ? "Have the job request its ping URL when it runs." : "Nothing is late before the first ping."];
  return h(
    "div",
    { class: ["initial-content", "heartbeat-waiting"], data: { testid: "initial-content" } },
    h("p", { class: "heartbeat-waiting-title", data: { testid: "heartbeat-waiting" }, text: heading }),
    h("p", { text: hint }),
  );
}
