// @ts-check
// Toasts: one visible at a time; the newest replaces the last and re-arms the timer. The server
// decides how long each stays (`durationMs`); one without a usable duration stays until dismissed.
// The timer pauses while the toast is hovered or focused and while the tab is hidden. Esc or the close
// button dismisses; an optional action button runs the toast's action. Position top or bottom.
//
// The host (#toast-host in index.html) is a manual popover, so it sits in the browser's top layer,
// above the page; while a modal <dialog> is open it moves inside the dialog (hostIn) and is re-shown,
// which keeps it above the dialog and clickable. It also holds the two live regions, present from
// page load: role="status" (polite) for success/info and role="alert" (assertive) for errors.
import { h, icon, button } from "./dom.js";

/** @typedef {import('./types.js').Toast} Toast */
/** @typedef {HTMLElement & {showPopover(): void, hidePopover(): void}} PopoverElement */

const STYLE_ICON = /** @type {Record<string, string>} */ ({ success: "check", error: "alert", info: "info" });

/**
 * The toast shown and the timer that dismisses it.
 * @typedef {object} Shown
 * @property {Toast | null} current
 * @property {HTMLElement | null} el
 * @property {ReturnType<typeof setTimeout> | undefined} timer
 * @property {number | null} remaining milliseconds left before the toast goes; null: until dismissed
 * @property {number} startedAt when the timer was last armed (performance.now())
 * @property {Set<string>} pauses why the timer is paused: hover, focus, hidden
 * @property {HTMLElement | null} returnFocus the element focus came from into the toast
 */

/**
 * @param {{host: HTMLElement, onAction: (toast: Toast) => void}} opts
 */
export function createToaster(opts) {
  const host = /** @type {PopoverElement} */ (opts.host);
  const polite = /** @type {HTMLElement} */ (host.querySelector("[role='status']"));
  const assertive = /** @type {HTMLElement} */ (host.querySelector("[role='alert']"));
  const slot = /** @type {HTMLElement} */ (host.querySelector(".toast-slot"));
  /** @type {Shown} */
  const shown = { current: null, el: null, timer: undefined, remaining: null, startedAt: 0, pauses: new Set(), returnFocus: null };
  const dismiss = () => dismissShown(shown);
  const arm = () => armTimer(shown, dismiss);
  /** @param {string} reason */
  const pause = (reason) => pauseTimer(shown, reason);
  /** @param {string} reason */
  const resume = (reason) => resumeTimer(shown, reason, dismiss);
  /**
   * @param {string} text
   * @param {boolean} urgent
   */
  const announce = (text, urgent) => announceIn(urgent ? assertive : polite, urgent ? polite : assertive, text);

  /**
   * Shows a toast, replacing the visible one and re-arming the timer. A toast with the id of the
   * visible one is the server updating it in place ("API: Timed out" → "API is back"): it is
   * redrawn and re-armed the same way. (The store drops the same toast heard twice.)
   * @param {Toast} toast
   */
  function show(toast) {
    if (!toast || typeof toast.message !== "string") return;
    const hadFocus = shown.el?.contains(document.activeElement) ?? false;
    removeElement(shown, false);
    shown.current = toast;
    const { node, duration } = toastElement(toast, {
      action: () => {
        const t = shown.current;
        dismiss();
        if (t) opts.onAction(t);
      },
      dismiss: () => dismiss(),
      pause,
      resume,
      focusFrom: (from) => (shown.returnFocus = from),
    });
    shown.el = node;
    slot.dataset.position = positionOf(toast);
    slot.appendChild(node);
    showHost(host);
    shown.remaining = duration;
    handOverPauses(shown, node, hadFocus);
    arm();
    announce(toast.message, toast.style === "error");
  }

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) pause("hidden");
    else resume("hidden");
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && shown.current) dismiss();
  });
  if (document.hidden) shown.pauses.add("hidden");
  showHost(host);

  return {
    show,
    dismiss,
    announce,
    /** @param {HTMLElement} container */
    hostIn: (container) => moveHost(host, container),
    get current() {
      return shown.current;
    },
  };
}

/** @param {PopoverElement} host */
function showHost(host) {
  try {
    if (!host.matches(":popover-open")) host.showPopover();
  } catch {
    /* popover unsupported: the host is a plain fixed layer */
  }
}

/**
 * Moves the host (toasts and live regions) into `container` and re-shows it on top. A modal dialog
 * makes everything outside it inert, so while one is open the host lives inside it (feedback stays
 * attached to what the person is looking at); afterwards it goes back to <body>.
 * @param {PopoverElement} host
 * @param {HTMLElement} container
 */
function moveHost(host, container) {
  if (host.parentElement !== container) container.appendChild(host);
  try {
    if (host.matches(":popover-open")) host.hidePopover();
  } catch {
    /* popover unsupported */
  }
  showHost(host);
}

/**
 * Takes the shown toast's element off the page, giving focus back to where it came from if it had it
 * and `giveBackFocus` says so.
 * @param {Shown} shown
 * @param {boolean} [giveBackFocus]
 */
function removeElement(shown, giveBackFocus = true) {
  clearTimeout(shown.timer);
  if (shown.el) {
    const hadFocus = shown.el.contains(document.activeElement);
    shown.el.remove();
    if (giveBackFocus && hadFocus && shown.returnFocus?.isConnected) shown.returnFocus.focus({ preventScroll: true });
  }
  shown.el = null;
}

/** @param {Shown} shown */
function dismissShown(shown) {
  removeElement(shown);
  shown.current = null;
  shown.pauses.delete("hover");
  shown.pauses.delete("focus");
}

/**
 * Starts the shown toast's timer for the time it has left, unless something pauses it.
 * @param {Shown} shown
 * @param {() => void} onEnd
 */
function armTimer(shown, onEnd) {
  clearTimeout(shown.timer);
  if (!shown.current || shown.pauses.size || shown.remaining === null) return;
  shown.startedAt = performance.now();
  shown.timer = setTimeout(onEnd, shown.remaining);
  shown.el?.classList.remove("is-paused");
}

/**
 * Stops the shown toast's timer, keeping the time it has left, until every reason has ended.
 * @param {Shown} shown
 * @param {string} reason
 */
function pauseTimer(shown, reason) {
  if (!shown.current) return;
  if (!shown.pauses.size && shown.remaining !== null) {
    clearTimeout(shown.timer);
    shown.remaining = Math.max(0, shown.remaining - (performance.now() - shown.startedAt));
  }
  shown.pauses.add(reason);
  shown.el?.classList.add("is-paused");
}

/**
 * Ends a reason to pause the shown toast's timer, arming it when it was the last.
 * @param {Shown} shown
 * @param {string} reason
 * @param {() => void} onEnd
 */
function resumeTimer(shown, reason, onEnd) {
  if (!shown.pauses.delete(reason) || shown.pauses.size) return;
  armTimer(shown, onEnd);
}

/**
 * A replaced toast that had focus hands it (and its pause) over to the new one; the pointer pause
 * starts again with the new element's own mouseenter.
 * @param {Shown} shown
 * @param {HTMLElement} node the new toast's
 * @param {boolean} hadFocus
 */
function handOverPauses(shown, node, hadFocus) {
  shown.pauses.delete("focus");
  shown.pauses.delete("hover");
  if (hadFocus) {
    /** @type {HTMLElement} */ (node.querySelector(".toast-close")).focus({ preventScroll: true });
    shown.pauses.add("focus");
  }
  if (shown.pauses.size) node.classList.add("is-paused");
}

/**
 * Says a text in a live region, emptying the other one.
 * @param {HTMLElement} region
 * @param {HTMLElement} other
 * @param {string} text
 */
function announceIn(region, other, text) {
  other.textContent = "";
  region.textContent = "";
  // A fresh text node on the next frame so that the same message is announced again.
  requestAnimationFrame(() => {
    region.textContent = text;
  });
}

/**
 * A toast's element: icon, message, its action, the close button and, when it has a duration, the
 * progress bar; the pointer over it and focus in it pause its timer.
 * @param {Toast} toast
 * @param {{action: () => void, dismiss: () => void, pause: (reason: string) => void,
 *   resume: (reason: string) => void, focusFrom: (from: HTMLElement) => void}} on focusFrom: focus came
 *   into the toast from this element
 */
function toastElement(toast, on) {
  const style = STYLE_ICON[toast.style] ? toast.style : "info";
  const duration = validDuration(toast.durationMs);
  const action = toast.action
    ? button({
        label: toast.action.label,
        class: ["btn-small", "toast-action"],
        testid: "toast-action",
        needs: "recover",
        onClick: () => on.action(),
      })
    : null;
  const close = button({
    label: "Dismiss notification",
    icon: "x",
    iconOnly: true,
    class: ["btn-icon", "toast-close"],
    testid: "toast-close",
    onClick: () => on.dismiss(),
  });
  const node = h(
    "div",
    {
      class: "toast",
      data: { testid: "toast", style, "toast-id": toast.id, "duration-ms": duration, position: positionOf(toast) },
      attrs: { role: "group", "aria-label": style === "error" ? "Error notification" : "Notification" },
      vars: duration === null ? {} : { "--toast-duration": `${duration}ms` },
      on: {
        mouseenter: () => on.pause("hover"),
        mouseleave: () => on.resume("hover"),
        focusin: (ev) => {
          const from = /** @type {FocusEvent} */ (ev).relatedTarget;
          if (from instanceof HTMLElement && !node.contains(from)) on.focusFrom(from);
          on.pause("focus");
        },
        focusout: (ev) => {
          const to = /** @type {FocusEvent} */ (ev).relatedTarget;
          if (!(to instanceof Node) || !node.contains(to)) on.resume("focus");
        },
      },
    },
    h("span", { class: "toast-icon" }, icon(STYLE_ICON[style])),
    h("p", { class: "toast-message", text: toast.message, data: { testid: "toast-message" } }),
    action,
    close,
    duration === null ? null : h("span", { class: "toast-progress", attrs: { "aria-hidden": "true" } }),
  );
  return { node, duration };
}

/**
 * @param {unknown} ms
 * @returns {number | null} null when the toast should stay until dismissed
 */
function validDuration(ms) {
  const n = Number(ms);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** @param {Toast} toast */
function positionOf(toast) {
  return toast.position === "top" ? "top" : "bottom";
}

/** @typedef {ReturnType<typeof createToaster>} Toaster */
