// @ts-check
// Connection status: the header pill ("Live" / "Connecting…" / "Reconnecting…") and the "reconnecting"
// banner, which appears only after the stream has been down for bannerDelayMs (a blip shows nothing),
// with the attempt number, the time to the next try and a "Reconnect now" button. While the banner is
// up, <body data-connection="down"> makes every panel say its data may be stale (styles.css).
import { config } from "./config.js";
import { shortDuration } from "./dom.js";

/** @typedef {import('./types.js').ConnectionState} ConnectionState */

/**
 * @param {{
 *   banner: HTMLElement, detail: HTMLElement, reconnectButton: HTMLButtonElement, pill: HTMLElement,
 *   onReconnectNow: () => void, announce: (text: string, urgent: boolean) => void,
 * }} opts
 */
export function createConnectionView(opts) {
  /** @type {ConnectionState} */
  let conn = { status: "connecting", attempt: 0, downSince: null, nextRetryAt: null };
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let bannerTimer;
  let bannerShown = false;

  opts.reconnectButton.addEventListener("click", () => {
    opts.detail.textContent = "Reconnecting now…";
    opts.onReconnectNow();
  });

  function showBanner() {
    bannerTimer = undefined;
    if (conn.status !== "down" || bannerShown) return;
    bannerShown = true;
    opts.banner.hidden = false;
    document.body.dataset.connection = "down";
    renderDetail();
    opts.announce("Connection to the server lost. Reconnecting.", false);
  }

  function hideBanner() {
    clearTimeout(bannerTimer);
    bannerTimer = undefined;
    if (!bannerShown) return;
    bannerShown = false;
    opts.banner.hidden = true;
    opts.announce("Reconnected.", false);
  }

  function renderDetail() {
    const parts = [];
    parts.push(conn.attempt > 0 ? `Reconnecting (attempt ${conn.attempt})` : "Reconnecting");
    if (conn.nextRetryAt) {
      const left = conn.nextRetryAt - Date.now();
      parts.push(left > 0 ? `next try in ${shortDuration(left)}` : "trying now…");
    }
    const text = parts.join(" · ");
    if (opts.detail.textContent !== text) opts.detail.textContent = text;
  }

  function renderPill() {
    const label = conn.status === "open" ? "Live" : conn.status === "connecting" ? "Connecting…" : "Reconnecting…";
    opts.pill.dataset.state = conn.status;
    const text = /** @type {HTMLElement} */ (opts.pill.querySelector(".pill-text") ?? opts.pill);
    text.textContent = label;
  }

  return {
    /** @param {ConnectionState} next */
    update(next) {
      conn = next;
      renderPill();
      if (conn.status === "down") {
        const since = conn.downSince ?? Date.now();
        if (bannerShown) renderDetail();
        else if (bannerTimer === undefined) {
          bannerTimer = setTimeout(showBanner, Math.max(0, config.bannerDelayMs - (Date.now() - since)));
        }
      } else {
        hideBanner();
        document.body.dataset.connection = conn.status;
      }
    },
    /** Refreshes the countdown in the banner. */
    tick() {
      if (bannerShown) renderDetail();
    },
  };
}
