// @ts-check
// Connection status: the header pill ("Live" / "Connecting…" / "Reconnecting…"; "Replay" for a deck
// served frozen from a fixture, where nothing runs however live the stream) and the "reconnecting"
// banner, which appears only after the stream has been down for bannerDelayMs (a blip shows nothing),
// with the attempt number, the time to the next try and a "Reconnect now" button. While the banner is
// up, <body data-connection="down"> makes every panel say its data may be stale (styles.css).
import { config } from "./config.js";
import { shortDuration } from "./dom.js";
import { momentLabel } from "./travel-url.js";

/** @typedef {import('./types.js').ConnectionState} ConnectionState */
/** @typedef {import('./types.js').Replay} Replay */

/**
 * Marks the pill of a replay (data-replay, and a tooltip naming the file and moment), or unmarks it.
 * @param {HTMLElement} pill
 * @param {Replay | null} replay
 */
function markReplay(pill, replay) {
  if (replay) {
    pill.dataset.replay = "";
    pill.title = `A replay of ${replay.file}: the board at ${momentLabel(replay.at)}, frozen; nothing runs`;
  } else {
    delete pill.dataset.replay;
    pill.removeAttribute("title");
  }
}

/**
 * @param {{
 *   banner: HTMLElement, detail: HTMLElement, reconnectButton: HTMLButtonElement, pill: HTMLElement,
 *   onReconnectNow: () => void, announce: (text: string, urgent: boolean) => void,
 * }} opts
 */
export function createConnectionView(opts) {
  /** @type {ConnectionState} */
  let conn = { status: "connecting", attempt: 0, downSince: null, nextRetryAt: null };
  /** @type {Replay | null} */
  let replay = null;
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
    const open = conn.status === "open" ? (replay ? "Replay" : "Live") : null;
    opts.pill.dataset.state = conn.status;
    markReplay(opts.pill, replay);
    const text = /** @type {HTMLElement} */ (opts.pill.querySelector(".pill-text") ?? opts.pill);
    text.textContent = open ?? (conn.status === "connecting" ? "Connecting…" : "Reconnecting…");
  }

  return {
    /** @param {Replay | null} next the fixture the server replays, from the state document */
    setReplay(next) {
      replay = next;
      renderPill();
    },
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
