// @ts-check
// The error card: one view for every error; it renders an ErrorCard configuration and nothing more.
// Icon, title, description, failure reason, recovery suggestion, retry countdown, preloader, the
// primary button (first "primary" option), the secondary button (first "secondary" or "cancel"
// option), further options, and a "Details" disclosure. Every button POSTs its recovery option.
import { h, icon, button, spinner, shortDuration } from "./dom.js";

/** @typedef {import('./types.js').ErrorCard} ErrorCard */
/** @typedef {import('./types.js').Retry} Retry */
/** @typedef {import('./types.js').RecoveryOption} RecoveryOption */

/**
 * @typedef {object} ErrorCardContext
 * @property {string} panelTitle
 * @property {Retry | null | undefined} retry
 * @property {(optionId: string, btn: HTMLButtonElement) => void} onOption
 * @property {boolean} detailsOpen
 * @property {(open: boolean) => void} onDetailsToggle
 */

/**
 * Splits the options into the primary button, the secondary button and the rest, in order.
 * @param {RecoveryOption[] | null | undefined} options
 */
export function arrangeOptions(options) {
  const list = Array.isArray(options) ? options : [];
  const primary = list.find((o) => o.role === "primary") ?? null;
  const secondary = list.find((o) => o.role === "secondary" || o.role === "cancel") ?? null;
  const further = list.filter((o) => o !== primary && o !== secondary);
  return { primary, secondary, further };
}

/**
 * @param {ErrorCard} card
 * @param {ErrorCardContext} ctx
 */
export function renderErrorCard(card, ctx) {
  const { primary, secondary, further } = arrangeOptions(card.options);
  const titleId = `err-${Math.random().toString(36).slice(2, 9)}`;
  const optionButton = (/** @type {RecoveryOption} */ o, /** @type {string} */ cls, /** @type {string} */ testid) =>
    button({
      label: o.label,
      key: `recover:${o.id}`,
      testid,
      class: [cls, o.role === "destructive" ? "btn-danger" : ""],
      needs: "recover",
      onClick: (ev) => ctx.onOption(o.id, /** @type {HTMLButtonElement} */ (ev.currentTarget)),
    });

  const buttons = [];
  if (primary) buttons.push(optionButton(primary, "btn-primary", "error-primary"));
  if (secondary) buttons.push(optionButton(secondary, "btn-secondary", "error-secondary"));

  const details = card.detail
    ? h(
        "details",
        {
          class: "error-details",
          data: { testid: "error-details", key: "details" },
          attrs: { open: ctx.detailsOpen },
          on: { toggle: (ev) => ctx.onDetailsToggle(/** @type {HTMLDetailsElement} */ (ev.currentTarget).open) },
        },
        h("summary", { data: { key: "details-summary" } }, icon("chevron-down", { class: "chevron" }), "Details"),
        h("pre", { class: "error-detail", attrs: { tabindex: 0 } }, card.detail),
      )
    : null;

  return h(
    "article",
    {
      class: ["error-card", card.showPreloader && "is-working"],
      data: { testid: "error-card", kind: card.kind },
      attrs: { "aria-labelledby": titleId, "aria-busy": card.showPreloader ? "true" : null },
    },
    h("div", { class: "error-icon", data: { testid: "error-icon" } }, icon(card.icon)),
    h(
      "div",
      { class: "error-body" },
      h("h3", { class: "error-title", text: card.title, data: { testid: "error-title" }, attrs: { id: titleId } }),
      card.description ? h("p", { class: "error-description", text: card.description, data: { testid: "error-description" } }) : null,
      card.failureReason ? h("p", { class: "error-reason", text: card.failureReason, data: { testid: "error-reason" } }) : null,
      card.recoverySuggestion
        ? h("p", { class: "error-suggestion", text: card.recoverySuggestion, data: { testid: "error-suggestion" } })
        : null,
      ctx.retry ? retryLine(ctx.retry) : null,
      card.showPreloader
        ? h("div", { class: "error-preloader", data: { testid: "error-preloader" } }, spinner(`Working on ${ctx.panelTitle}`, 0), h("span", { text: "Working…" }))
        : null,
      buttons.length ? h("div", { class: "error-actions" }, buttons) : null,
      further.length
        ? h(
            "div",
            { class: "error-more", attrs: { role: "group", "aria-label": "More options" } },
            further.map((o) => optionButton(o, "btn-ghost", "error-option")),
          )
        : null,
      details,
    ),
  );
}

/**
 * "Attempt 2 of 3 · next in 4 s": kept current by refreshCountdowns().
 * @param {Retry} retry
 */
export function retryLine(retry) {
  const el = h("p", {
    class: "retry-line",
    data: { testid: "retry-countdown", "next-at": retry.nextAt ?? null, attempt: retry.attempt, of: retry.of },
  });
  el.textContent = retryText(retry.attempt, retry.of, retry.nextAt ?? null, Date.now());
  return el;
}

/**
 * @param {number} attempt
 * @param {number} of
 * @param {string | null} nextAt
 * @param {number} now
 */
export function retryText(attempt, of, nextAt, now) {
  const head = `Attempt ${attempt} of ${of}`;
  const t = nextAt ? Date.parse(nextAt) : NaN;
  if (Number.isNaN(t)) return head;
  const left = t - now;
  return left > 0 ? `${head} · next in ${shortDuration(left)}` : `${head} · retrying now…`;
}

/**
 * Updates every retry countdown under `root`.
 * @param {ParentNode} root
 */
export function refreshCountdowns(root) {
  const now = Date.now();
  for (const el of root.querySelectorAll("[data-testid='retry-countdown']")) {
    const d = /** @type {HTMLElement} */ (el).dataset;
    const text = retryText(Number(d.attempt), Number(d.of), d.nextAt ?? null, now);
    if (el.textContent !== text) el.textContent = text;
  }
}
