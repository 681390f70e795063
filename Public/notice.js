// @ts-check
// The deck-level notice: what the server says about itself ("Can't save history", "Out of space"),
// drawn above the panels with the error card's view, in a role="alert" region that is in the page
// (and in the accessibility tree: empty, never hidden) from load, so that a new notice is announced. Its options are not drawn: no route runs a deck-level
// recovery option.
import { replaceChildren } from "./dom.js";
import { renderErrorCard } from "./error-card.js";

/** @typedef {import('./types.js').Notice} Notice */
/** @typedef {import('./types.js').ErrorCard} ErrorCard */

/**
 * The notice as an error card configuration: `message` stands in for a missing `description`.
 * @param {Notice} notice
 * @returns {ErrorCard}
 */
export function noticeCard(notice) {
  return {
    ...notice,
    kind: typeof notice.kind === "string" ? notice.kind : "unknown",
    description: notice.description ?? notice.message ?? "",
    icon: notice.icon ?? "alert",
    showPreloader: Boolean(notice.showPreloader),
    options: [],
  };
}

/**
 * @param {HTMLElement} host the banner's region (#deck-notice in index.html)
 */
export function createNoticeView(host) {
  let detailsOpen = false;
  /** @type {string | null} */
  let drawn = null;

  return {
    /** @param {Notice | null} notice */
    update(notice) {
      const key = notice ? JSON.stringify(notice) : null;
      if (key === drawn) return;
      drawn = key;
      if (!notice) {
        detailsOpen = false;
        delete host.dataset.kind;
        replaceChildren(host);
        return;
      }
      const card = noticeCard(notice);
      host.dataset.kind = card.kind;
      replaceChildren(
        host,
        renderErrorCard(card, {
          panelTitle: card.title,
          retry: null,
          detailsOpen,
          onDetailsToggle: (open) => {
            detailsOpen = open;
          },
          onOption: () => {},
        }),
      );
    },
  };
}
