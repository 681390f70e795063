// @ts-check
// Debug controls, installed only when GET /api/state says "debug": true (app.js imports this module
// only then; without debug no debug element exists in the DOM). The debug-state dialog:
// clicking a panel three times in a row, the "Debug states" button in the header, or a panel's own
// debug button opens a <dialog> that forces the panel loading / loaded / error (of a chosen kind) /
// reset / modifying ids / back to live, each through POST /api/debug/panels/{id}/state. Every tab
// (this one included) sees the result from the event stream.
import { config } from "./config.js";
import { h, icon, button, whileBusy, replaceChildren, trapFocus } from "./dom.js";

/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./store.js').Store} Store */
/** @typedef {import('./panel.js').PanelView} PanelView */

const INTERACTIVE = "button, a, input, select, textarea, summary, details, label, [tabindex]:not([tabindex='-1']):not([data-nav])";

/**
 * @param {{api: Api, store: Store, panelsRoot: HTMLElement, headerSlot: HTMLElement,
 *   onDialogOpen: (dialog: HTMLDialogElement) => void, onDialogClose: () => void}} opts
 */
export function installDebug(opts) {
  const { api, store } = opts;
  /** @type {string | null} */
  let panelId = null;
  /** @type {HTMLElement | null} */
  let opener = null;

  // ---- the dialog -------------------------------------------------------------------------------
  const panelSelect = h("select", { data: { testid: "debug-panel" }, attrs: { id: "debug-panel" } });
  const kindSelect = h(
    "select",
    { data: { testid: "debug-error-kind" }, attrs: { id: "debug-error-kind" } },
    (store.settings?.errorKinds ?? []).map((k) => h("option", { attrs: { value: k }, text: k })),
  );
  const current = h("p", { class: "debug-current", data: { testid: "debug-current" } });
  const status = h("p", { class: "debug-status", data: { testid: "debug-status" } });
  const infoText = h("textarea", {
    class: "debug-info",
    data: { testid: "debug-info" },
    attrs: { id: "debug-info", rows: 5, spellcheck: "false", placeholder: '{"summary": "All good", "fields": [{"label": "p95", "value": "42 ms"}]}' },
  });
  const itemsBox = h("div", { class: "debug-items", data: { testid: "debug-items" } });
  const otherIds = h("input", {
    data: { testid: "debug-modifying" },
    attrs: { id: "debug-modifying", type: "text", placeholder: "other ids, comma separated", autocomplete: "off" },
  });

  /**
   * @param {string} label
   * @param {string} testid
   * @param {() => Record<string, unknown> | null} body
   * @param {string} [cls]
   */
  const force = (label, testid, body, cls = "btn-secondary") =>
    button({
      label,
      testid,
      class: cls,
      onClick: (ev) => {
        const b = body();
        if (!b || !panelId) return;
        const id = panelId;
        void whileBusy(/** @type {HTMLButtonElement} */ (ev.currentTarget), async () => {
          const res = await api.debugState(id, b);
          if (res) status.textContent = `Sent ${describe(b)} to ${store.panel(id)?.title ?? id}.`;
        });
      },
    });

  const closeButton = button({
    label: "Close",
    icon: "x",
    iconOnly: true,
    class: ["btn-icon"],
    testid: "debug-close",
    onClick: () => dialog.close(),
  });

  const dialog = h(
    "dialog",
    { class: "debug-dialog", data: { testid: "debug-dialog" }, attrs: { "aria-labelledby": "debug-title" } },
    h(
      "header",
      { class: "debug-head" },
      h("h2", { attrs: { id: "debug-title" } }, icon("sliders"), "Debug state"),
      closeButton,
    ),
    h("div", { class: "debug-row" }, h("label", { attrs: { for: "debug-panel" }, text: "Panel" }), panelSelect),
    current,
    h(
      "fieldset",
      { class: "debug-set" },
      h("legend", { text: "Force a state" }),
      h(
        "div",
        { class: "debug-buttons" },
        force("Loading", "debug-loading", () => ({ state: "loading" })),
        force("Loaded", "debug-loaded", loadedBody),
        force("Reset", "debug-reset", () => ({ state: "reset" })),
        force("Back to live", "debug-live", () => ({ state: "live" }), "btn-primary"),
      ),
      h(
        "div",
        { class: "debug-row" },
        h("label", { attrs: { for: "debug-error-kind" }, text: "Error kind" }),
        kindSelect,
        force("Error", "debug-error", () => ({ state: "error", error: { kind: kindSelect.value } }), "btn-danger"),
      ),
      h(
        "details",
        { class: "debug-more" },
        h("summary", { text: "Info for “Loaded” (JSON, optional)" }),
        h("label", { class: "sr-only", attrs: { for: "debug-info" }, text: "Info JSON" }),
        infoText,
      ),
    ),
    h(
      "fieldset",
      { class: "debug-set" },
      h("legend", { text: "Items in progress (modifyingIds)" }),
      itemsBox,
      h("div", { class: "debug-row" }, h("label", { attrs: { for: "debug-modifying" }, text: "Other ids" }), otherIds),
      force("Apply", "debug-modifying-apply", modifyingBody),
    ),
    status,
  );

  /** @returns {Record<string, unknown> | null} */
  function loadedBody() {
    const raw = infoText.value.trim();
    if (!raw) return { state: "loaded" };
    try {
      return { state: "loaded", info: JSON.parse(raw) };
    } catch (err) {
      status.textContent = `The info is not valid JSON: ${/** @type {Error} */ (err).message}`;
      infoText.focus();
      return null;
    }
  }

  function modifyingBody() {
    const ids = [...itemsBox.querySelectorAll("input:checked")].map((c) => /** @type {HTMLInputElement} */ (c).value);
    for (const id of otherIds.value.split(",").map((s) => s.trim()).filter(Boolean)) if (!ids.includes(id)) ids.push(id);
    return { modifyingIds: ids };
  }

  /** @param {Record<string, unknown>} b */
  function describe(b) {
    if ("modifyingIds" in b) return `modifying ids [${/** @type {string[]} */ (b.modifyingIds).join(", ")}]`;
    if (b.state === "error") return `error (${kindSelect.value})`;
    return String(b.state);
  }

  function fillPanels() {
    const ids = store.order;
    replaceChildren(panelSelect, ids.map((id) => h("option", { attrs: { value: id }, text: store.panel(id)?.title ?? id })));
    if (panelId && ids.includes(panelId)) panelSelect.value = panelId;
    else panelId = ids[0] ?? null;
  }

  function fillCurrent() {
    const s = panelId ? store.panel(panelId) : null;
    if (!s) {
      current.textContent = "No panel.";
      replaceChildren(itemsBox);
      return;
    }
    const bits = [`Now: ${s.phase}`];
    if (s.isLoading) bits.push("loading");
    if (s.debugPinned) bits.push("pinned by debug");
    current.textContent = bits.join(" · ");
    const items = (s.latestValidInfo ?? s.latestInfo ?? s.placeholder)?.items ?? [];
    const busy = new Set(s.modifyingIds ?? []);
    const checked = new Set([...itemsBox.querySelectorAll("input:checked")].map((c) => /** @type {HTMLInputElement} */ (c).value));
    const focusedValue = itemsBox.contains(document.activeElement) ? /** @type {HTMLInputElement} */ (document.activeElement).value : null;
    replaceChildren(
      itemsBox,
      items.length
        ? items.map((it) => {
            const box = h("input", { attrs: { type: "checkbox", value: it.id, checked: busy.has(it.id) || checked.has(it.id) } });
            return h("label", { class: "debug-check" }, box, h("span", { text: it.title }));
          })
        : h("p", { class: "debug-hint", text: "This panel shows no items." }),
    );
    if (focusedValue !== null) {
      /** @type {HTMLElement | null} */ (itemsBox.querySelector(`input[value="${CSS.escape(focusedValue)}"]`))?.focus();
    }
  }

  panelSelect.addEventListener("change", () => {
    panelId = panelSelect.value;
    status.textContent = "";
    for (const c of itemsBox.querySelectorAll("input")) /** @type {HTMLInputElement} */ (c).checked = false;
    fillCurrent();
  });

  trapFocus(dialog);
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
    status.textContent = "";
    for (const c of itemsBox.querySelectorAll("input")) /** @type {HTMLInputElement} */ (c).checked = false;
    fillCurrent();
    if (!dialog.open) {
      dialog.showModal();
      opts.onDialogOpen(dialog);
    }
    panelSelect.focus();
  }

  // ---- the debug bar ----------------------------------------------------------------------------
  const bar = h(
    "div",
    { class: "debug-bar", data: { testid: "debug-bar" } },
    button({
      label: "Debug states",
      icon: "sliders",
      class: ["btn-small", "btn-ghost"],
      testid: "debug-open",
      onClick: (ev) => open(panelId, /** @type {HTMLElement} */ (ev.currentTarget)),
    }),
  );
  opts.headerSlot.appendChild(bar);

  // ---- triple-click on a panel ------------------------------------------------------------------
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
  opts.panelsRoot.addEventListener("click", onClick);
  opts.panelsRoot.addEventListener("mousedown", onMouseDown);

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
      const title = store.panel(id)?.title ?? id;
      view.tools.prepend(
        button({
          label: `Debug states for ${title}`,
          icon: "sliders",
          iconOnly: true,
          class: ["btn-icon", "panel-debug"],
          testid: "panel-debug",
          onClick: (ev) => open(id, /** @type {HTMLElement} */ (ev.currentTarget)),
        }),
      );
    },
    /** Removes every debug element and listener (the server restarted without --debug). */
    uninstall() {
      unsubscribe();
      opts.panelsRoot.removeEventListener("click", onClick);
      opts.panelsRoot.removeEventListener("mousedown", onMouseDown);
      if (dialog.open) dialog.close();
      opts.onDialogClose();
      dialog.remove();
      bar.remove();
      for (const b of document.querySelectorAll("[data-testid='panel-debug']")) b.remove();
      delete document.body.dataset.debug;
    },
  };
}

/** @typedef {ReturnType<typeof installDebug>} Debug */
