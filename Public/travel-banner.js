// @ts-check
// The banner under the header while the page shows a past moment: which moment, whether StateDeck
// was watching the deck then (the server's `watched`), or why the moment cannot be shown (the
// server's own message), always with "Back to live".
import { button, h, replaceChildren } from "./dom.js";
import { momentLabel } from "./travel-url.js";

/**
 * @param {HTMLElement} host #moment-banner in index.html
 * @param {{onLive: () => void}} opts
 */
export function createMomentBanner(host, opts) {
  const text = h("p", { class: "moment-banner-text", data: { testid: "moment-banner-text" } });
  const live = button({
    label: "Back to live",
    icon: "activity",
    class: ["btn-small", "btn-secondary"],
    testid: "moment-live",
    onClick: () => opts.onLive(),
  });
  host.append(text, live);

  /**
   * @param {"past" | "unwatched" | "failed"} kind
   * @param {...(string | HTMLElement)} children
   */
  function show(kind, ...children) {
    host.dataset.kind = kind;
    replaceChildren(text, ...children);
    host.hidden = false;
  }

  return {
    /** @param {import('./types.js').Moment} moment */
    showMoment(moment) {
      const when = h("time", { attrs: { datetime: moment.at }, data: { testid: "moment-at" }, text: momentLabel(moment.at) });
      if (moment.watched) show("past", "You are looking at ", when);
      else show("unwatched", "You are looking at ", when, " · StateDeck was not running then; the board as it last was");
    },
    /** @param {string} message the server's, e.g. naming the oldest instant kept */
    showFailure(message) {
      show("failed", h("strong", { text: "This moment cannot be shown. " }), message);
    },
    hide() {
      host.hidden = true;
      delete host.dataset.kind;
    },
  };
}
