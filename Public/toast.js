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
 * @param {{host: HTMLElement, onAction: (toast: Toast) => void}} opts
 */
export function createToaster(opts) {
  const host = /** @type {PopoverElement} */ (opts.host);
  const polite = /** @type {HTMLElement} */ (host.querySelector("[role='status']"));
  const assertive = /** @type {HTMLElement} */ (host.querySelector("[role='alert']"));
  const slot = /** @type {HTMLElement} */ (host.querySelector(".toast-slot"));

  /** @type {Toast | null} */
  let current = null;
  /** @type {HTMLElement | null} */
  let el = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {number | null} milliseconds left before the toast goes; null: until dismissed */
  let remaining = null;
  let startedAt = 0;
  /** @type {Set<string>} */
  const pauses = new Set();
  /** @type {HTMLElement | null} */
  let returnFocus = null;

  function showHost() {
    try {
      if (!host.matches(":popover-open")) host.showPopover();
    } catch {
      /* popover unsupported: the host is a plain fixed layer */
    }
  }

  function arm() {
    clearTimeout(timer);
    if (!current || pauses.size || remaining === null) return;
    startedAt = performance.now();
    timer = setTimeout(dismiss, remaining);
    el?.classList.remove("is-paused");
  }

  /** @param {string} reason */
  function pause(reason) {
    if (!current) return;
    if (!pauses.size && remaining !== null) {
      clearTimeout(timer);
      remaining = Math.max(0, remaining - (performance.now() - startedAt));
    }
    pauses.add(reason);
    el?.classList.add("is-paused");
  }

  /** @param {string} reason */
  function resume(reason) {
    if (!pauses.delete(reason) || pauses.size) return;
    arm();
  }

  /**
   * @param {string} text
   * @param {boolean} urgent
   */
  function announce(text, urgent) {
    const region = urgent ? assertive : polite;
    const other = urgent ? polite : assertive;
    other.textContent = "";
    region.textContent = "";
    // A fresh text node on the next frame so that the same message is announced again.
    requestAnimationFrame(() => {
      region.textContent = text;
    });
  }

  /** @param {Toast} toast */
  function build(toast) {
    const style = STYLE_ICON[toast.style] ? toast.style : "info";
    const duration = validDuration(toast.durationMs);
    const action = toast.action
      ? button({
          label: toast.action.label,
          class: ["btn-small", "toast-action"],
          testid: "toast-action",
          onClick: () => {
            const t = current;
            dismiss();
            if (t) opts.onAction(t);
          },
        })
      : null;
    const close = button({
      label: "Dismiss notification",
      icon: "x",
      iconOnly: true,
      class: ["btn-icon", "toast-close"],
      testid: "toast-close",
      onClick: () => dismiss(),
    });
    const node = h(
      "div",
      {
        class: "toast",
        data: { testid: "toast", style, "toast-id": toast.id, "duration-ms": duration, position: positionOf(toast) },
        attrs: { role: "group", "aria-label": style === "error" ? "Error notification" : "Notification" },
        vars: duration === null ? {} : { "--toast-duration": `${duration}ms` },
        on: {
          mouseenter: () => pause("hover"),
          mouseleave: () => resume("hover"),
          focusin: (ev) => {
            const from = /** @type {FocusEvent} */ (ev).relatedTarget;
            if (from instanceof HTMLElement && !node.contains(from)) returnFocus = from;
            pause("focus");
          },
          focusout: (ev) => {
            const to = /** @type {FocusEvent} */ (ev).relatedTarget;
            if (!(to instanceof Node) || !node.contains(to)) resume("focus");
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
   * Shows a toast, replacing the visible one and re-arming the timer. A toast with the id of the
   * visible one is the server updating it in place ("API: Timed out" → "API is back"): it is
   * redrawn and re-armed the same way. (The store drops the same toast heard twice.)
   * @param {Toast} toast
   */
  function show(toast) {
    if (!toast || typeof toast.message !== "string") return;
    const hadFocus = el?.contains(document.activeElement) ?? false;
    removeElement(false);
    current = toast;
    const { node, duration } = build(toast);
    el = node;
    slot.dataset.position = positionOf(toast);
    slot.appendChild(node);
    showHost();
    remaining = duration;
    // A replaced toast that had focus hands it (and its pause) over to the new one; the pointer
    // pause starts again with the new element's own mouseenter.
    pauses.delete("focus");
    pauses.delete("hover");
    if (hadFocus) {
      /** @type {HTMLElement} */ (node.querySelector(".toast-close")).focus({ preventScroll: true });
      pauses.add("focus");
    }
    if (pauses.size) node.classList.add("is-paused");
    arm();
    announce(toast.message, toast.style === "error");
  }

  /** @param {boolean} [giveBackFocus] */
  function removeElement(giveBackFocus = true) {
    clearTimeout(timer);
    if (el) {
      const hadFocus = el.contains(document.activeElement);
      el.remove();
      if (giveBackFocus && hadFocus && returnFocus?.isConnected) returnFocus.focus({ preventScroll: true });
    }
    el = null;
  }

  function dismiss() {
    removeElement();
    current = null;
    pauses.delete("hover");
    pauses.delete("focus");
  }

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) pause("hidden");
    else resume("hidden");
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && current) dismiss();
  });
  if (document.hidden) pauses.add("hidden");
  showHost();

  return {
    show,
    dismiss,
    announce,
    /**
     * Moves the host (toasts and live regions) into `container` and re-shows it on top. A modal
     * dialog makes everything outside it inert, so while one is open the host lives inside it
     * (feedback stays attached to what the person is looking at); afterwards it goes back to <body>.
     * @param {HTMLElement} container
     */
    hostIn(container) {
      if (host.parentElement !== container) container.appendChild(host);
      try {
        if (host.matches(":popover-open")) host.hidePopover();
      } catch {
        /* popover unsupported */
      }
      showHost();
    },
    get current() {
      return current;
    },
  };
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
