// @ts-check
// Desktop notifications: the header's toggle, and a system notification for each `notification`
// event the server sends while the page is hidden. The server decides what is told and when
// (PROTOCOL.md, "Notifications"); the page only shows it. Permission is asked on the toggle's click,
// never before; the choice is kept in localStorage. A notification replaces the panel's previous one
// (its tag is the panel), so a recovery takes the place of the failure; clicking it brings the window
// forward on the panel. A gathered message (several panels' notifications in one) shows its message,
// in place of the previous gathered one; clicking it brings the window forward.
import { config } from "./config.js";
import { h, icon, whileBusy } from "./dom.js";

/** @typedef {import('./types.js').DeckNotification} DeckNotification */
/** @typedef {import('./types.js').GatheredNotification} GatheredNotification */

/** The tag of gathered messages: each takes the place of the one before. */
const gatheredTag = "statedeck-gathered";

/**
 * @param {{
 *   host: HTMLElement,
 *   onOpenPanel: (id: string) => void,
 * }} opts host: where the toggle goes; onOpenPanel: moves to a panel's card (a notification's click)
 */
export function createDesktopNotifications(opts) {
  const supported = "Notification" in globalThis;
  let wanted = readWanted();
  /** The newest event id heard: a resumed stream may send an event again. */
  let lastHeard = 0;
  const isOn = () => supported && wanted && Notification.permission === "granted";
  /** @param {boolean} value */
  const setWanted = (value) => {
    wanted = value;
    storeWanted(value);
  };
  // Busy while the browser asks: a second click does not ask again.
  const parts = toggleElements((ev) => void whileBusy(/** @type {HTMLButtonElement} */ (ev.currentTarget), onClick));
  const render = () => drawToggle(parts, supported, isOn());
  opts.host.prepend(parts.toggle, parts.blockedNote);
  render();
  // The permission may have changed in the browser's site settings meanwhile.
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) render();
  });

  async function onClick() {
    if (!supported) return;
    if (isOn()) {
      setWanted(false);
    } else {
      setWanted(true);
      if (Notification.permission !== "granted") {
        const answer = await Notification.requestPermission();
        if (answer !== "granted") setWanted(false);
      }
    }
    render();
  }

  return {
    /**
     * Shows `notification` as a desktop notification when they are on and the page is hidden.
     * @param {DeckNotification | GatheredNotification} notification
     * @param {string | null} id the event's id
     */
    hear(notification, id) {
      if (!notification || typeof notification.message !== "string") return;
      if (!("panel" in notification && typeof notification.panel === "string") && !("notifications" in notification)) return;
      const eventId = Number(id ?? 0);
      if (eventId) {
        if (eventId <= lastHeard) return;
        lastHeard = eventId;
      }
      if (!isOn() || !document.hidden) return;
      notify(notification, opts.onOpenPanel);
    },
  };
}

/**
 * The header's toggle and the note its description points to while notifications are blocked.
 * @param {(ev: Event) => void} onClick
 */
function toggleElements(onClick) {
  const label = h("span", { class: "btn-label", text: "Desktop notifications" });
  const state = h("span", { class: "notify-state", attrs: { "aria-hidden": "true" } });
  const blockedNote = h("span", {
    class: "sr-only",
    attrs: { id: "desktop-notifications-note" },
    text: "Blocked in this browser's settings for this site.",
  });
  const toggle = h(
    "button",
    {
      class: ["btn", "btn-small", "btn-ghost", "notify-toggle"],
      attrs: { type: "button", "aria-pressed": "false" },
      data: { testid: "desktop-notifications" },
      on: { click: onClick },
    },
    icon("bell-off"),
    label,
    state,
  );
  return { toggle, state, blockedNote };
}

/**
 * Draws in the toggle whether notifications are on, off, blocked or unavailable.
 * @param {ReturnType<typeof toggleElements>} parts
 * @param {boolean} supported
 * @param {boolean} on
 */
function drawToggle({ toggle, state, blockedNote }, supported, on) {
  const blocked = supported && Notification.permission === "denied";
  const shown = !supported ? "unavailable" : blocked ? "blocked" : on ? "on" : "off";
  toggle.dataset.state = shown;
  toggle.setAttribute("aria-pressed", String(on));
  toggle.toggleAttribute("disabled", !supported);
  toggle.title = !supported
    ? "This browser offers no desktop notifications here"
    : blocked
      ? "Notifications are blocked in this browser's settings for this site"
      : on
        ? "Outages are shown as desktop notifications while this page is hidden"
        : "Show outages as desktop notifications while this page is hidden";
  if (blocked) toggle.setAttribute("aria-describedby", blockedNote.id);
  else toggle.removeAttribute("aria-describedby");
  state.textContent = shown;
  const svg = toggle.querySelector("svg");
  if (svg) svg.replaceWith(icon(on ? "bell" : "bell-off"));
}

/**
 * Shows a notification, in place of the panel's previous one (a gathered message: of the previous
 * gathered one); its click brings the window forward, on the panel when there is one.
 * @param {DeckNotification | GatheredNotification} notification
 * @param {(id: string) => void} onOpenPanel
 */
function notify(notification, onOpenPanel) {
  const panel = "panel" in notification ? notification.panel : null;
  const shown = new Notification(notification.message, {
    tag: panel ?? gatheredTag,
    body: "error" in notification ? (notification.error?.message ?? "") : "",
  });
  shown.addEventListener("click", () => {
    window.focus();
    shown.close();
    if (panel !== null) onOpenPanel(panel);
  });
}

/** @param {boolean} value */
function storeWanted(value) {
  try {
    if (value) localStorage.setItem(config.desktopNotificationsKey, "on");
    else localStorage.removeItem(config.desktopNotificationsKey);
  } catch {
    /* storage refused (private mode): the choice lasts as long as the page */
  }
}

function readWanted() {
  try {
    return localStorage.getItem(config.desktopNotificationsKey) === "on";
  } catch {
    return false;
  }
}
