// @ts-check
// Debug controls, installed only when GET /api/state says "debug": true (app.js imports this module
// only then; without debug no debug element exists in the DOM). The debug-state dialog:
// clicking a panel three times in a row, the "Debug states" button in the header, or a panel's own
// debug button opens a <dialog> that forces the panel loading / loaded / error (of a chosen kind) /
// reset / modifying ids / back to live, each through POST /api/debug/panels/{id}/state. Every tab
// (this one included) sees the result from the event stream.
//
// The dialog's elements and what its buttons send are debug-dialog.js; this module opens it, sends
// the bodies, and adds the header's button, the panels' buttons and the triple click.
import { config } from "./config.js";
import { h, button, whileBusy } from "./dom.js";
import { createDebugDialog, describe, clearChoices, drawPanelOptions, drawCurrent } from "./debug-dialog.js";

/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./store.js').Store} Store */
/** @typedef {import('./panel.js').PanelView} PanelView */

const INTERACTIVE = "button, a, input, select, textarea, summary, details, label, [tabindex]:not([tabindex='-1']):not([data-nav])";

/**
 * @param {{api: Api, store: Store, panelsRoot: HTMLElement, headerSlot: HTMLElement,
 *   onDialogOpen: (dialog: HTMLDialogElement) => void, onDialogClose: () => void}} opts
 */
export function installDebug(opts) {
  const { store } = opts;
  /** @type {string | null} */
  let panelId = null;
  /** @type {HTMLElement | null} */
  let opener = null;

  const d = createDebugDialog(store.settings?.errorKinds ?? [], (forceButton, b) => {
    const id = panelId;
    if (id) void whileBusy(forceButton, () => send(opts, d, id, b));
  });
  const { dialog, panelSelect } = d;

  const fillPanels = () => (panelId = drawPanelOptions(d, store, panelId));
  const fillCurrent = () => drawCurrent(d, panelId ? store.panel(panelId) : null);

  panelSelect.addEventListener("change", () => {
    panelId = panelSelect.value;
    clearChoices(d);
    fillCurrent();
  });

  dialog.addEventListener("close", () => {
    opts.onDialogClose();
    if (opener?.isConnected) opener.focus({ preventScroll: true });
    opener = null;
  });
  document.body.appendChild(dialog);

  /**
   * @param {string | null} id
   * @param {HTMLElement | null} from the element to focus again on close
   */
  function open(id, from) {
    opener = from ?? /** @type {HTMLElement | null} */ (document.activeElement);
    if (id) panelId = id;
    fillPanels();
    clearChoices(d);
    fillCurrent();
    if (!dialog.open) {
      dialog.showModal();
      opts.onDialogOpen(dialog);
    }
    panelSelect.focus();
  }

  const bar = debugBar(() => panelId, open);
  opts.headerSlot.appendChild(bar);
  const stopTripleClick = followTripleClick(opts.panelsRoot, open);

  const unsubscribe = store.subscribe((c) => {
    if (!dialog.open) return;
    if (c.kind === "snapshot") {
      fillPanels();
      fillCurrent();
    } else if (c.kind === "panel" && c.id === panelId) fillCurrent();
  });

  document.body.dataset.debug = "true";

  return {
    /**
     * Adds the debug button to a panel's tools (the keyboard way in).
     * @param {PanelView} view
     * @param {string} id
     */
    decorate(view, id) {
      if (view.tools.querySelector("[data-testid='panel-debug']")) return;
      view.tools.prepend(panelDebugButton(store.panel(id)?.title ?? id, (from) => open(id, from)));
    },
    /** Removes every debug element and listener (the server restarted without --debug). */
    uninstall() {
      unsubscribe();
      stopTripleClick();
      if (dialog.open) dialog.close();
      opts.onDialogClose();
      removeFromPage(dialog, bar);
    },
  };
}

/**
 * Takes the dialog, the header's bar, the panels' buttons and the body's mark off the page.
 * @param {HTMLDialogElement} dialog
 * @param {HTMLElement} bar
 */
function removeFromPage(dialog, bar) {
  dialog.remove();
  bar.remove();
  for (const b of document.querySelectorAll("[data-testid='panel-debug']")) b.remove();
  delete document.body.dataset.debug;
}

/**
 * Sends a body forcing a panel's state, and says so in the status line once the server took it.
 * @param {{api: Api, store: Store}} opts
 * @param {import('./debug-dialog.js').DebugDialog} d
 * @param {string} id
 * @param {import('./debug-dialog.js').DebugBody} b
 */
async function send({ api, store }, d, id, b) {
  const res = await api.debugState(id, b);
  if (res) d.status.textContent = `Sent ${describe(d, b)} to ${store.panel(id)?.title ?? id}.`;
}

/**
 * A panel's own button that opens the dialog on it.
 * @param {string} title the panel's
 * @param {(from: HTMLElement) => void} open
 */
function panelDebugButton(title, open) {
  return button({
    label: `Debug states for ${title}`,
    icon: "sliders",
    iconOnly: true,
    class: ["btn-icon", "panel-debug"],
    testid: "panel-debug",
    onClick: (ev) => open(/** @type {HTMLElement} */ (ev.currentTarget)),
  });
}

/**
 * The header's bar: its "Debug states" button opens the dialog on the panel it showed last.
 * @param {() => string | null} panelId
 * @param {(id: string | null, from: HTMLElement) => void} open
 */
function debugBar(panelId, open) {
  return h(
    "div",
    { class: "debug-bar", data: { testid: "debug-bar" } },
    button({
      label: "Debug states",
      icon: "sliders",
      class: ["btn-small", "btn-ghost"],
      testid: "debug-open",
      onClick: (ev) => open(panelId(), /** @type {HTMLElement} */ (ev.currentTarget)),
    }),
  );
}

/**
 * Opens the dialog on a panel clicked three times in a row, outside its controls; returns what
 * stops it.
 * @param {HTMLElement} panelsRoot
 * @param {(id: string, from: HTMLElement) => void} open
 */
function followTripleClick(panelsRoot, open) {
  /** @param {MouseEvent} ev */
  function onClick(ev) {
    if (ev.detail !== config.debugClickCount) return;
    const target = /** @type {Element} */ (ev.target);
    if (target.closest(INTERACTIVE)) return;
    const panel = /** @type {HTMLElement | null} */ (target.closest("[data-testid='panel']"));
    if (!panel?.dataset.panelId) return;
    window.getSelection()?.removeAllRanges();
    open(panel.dataset.panelId, panel);
  }
  /** @param {MouseEvent} ev */
  function onMouseDown(ev) {
    // Keep the third click from selecting a paragraph.
    if (ev.detail >= config.debugClickCount && !(/** @type {Element} */ (ev.target).closest(INTERACTIVE))) ev.preventDefault();
  }
  panelsRoot.addEventListener("click", onClick);
  panelsRoot.addEventListener("mousedown", onMouseDown);
  return () => {
    panelsRoot.removeEventListener("click", onClick);
    panelsRoot.removeEventListener("mousedown", onMouseDown);
  };
}

/** @typedef {ReturnType<typeof installDebug>} Debug */
