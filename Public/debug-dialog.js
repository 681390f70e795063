// @ts-check
// The debug-state dialog's elements, built once: the panel select, the panel's state now, the buttons
// that force a state, the error kind, the info JSON for "Loaded", the items in progress and the status
// line; the bodies those buttons send, read from the inputs; and the panel's state drawn in it.
// debug.js decides which panel it shows and sends the bodies.
import { h, icon, button, replaceChildren, trapFocus } from "./dom.js";

/** @typedef {import('./types.js').PanelState} PanelState */

/** @typedef {Record<string, unknown>} DebugBody a body of POST /api/debug/panels/{id}/state */

/**
 * The inputs the dialog reads.
 * @param {string[]} errorKinds
 */
function inputs(errorKinds) {
  const panelSelect = h("select", { data: { testid: "debug-panel" }, attrs: { id: "debug-panel" } });
  const kindSelect = h(
    "select",
    { data: { testid: "debug-error-kind" }, attrs: { id: "debug-error-kind" } },
    errorKinds.map((k) => h("option", { attrs: { value: k }, text: k })),
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
  return { panelSelect, kindSelect, current, status, infoText, itemsBox, otherIds };
}

/**
 * @param {string[]} errorKinds
 * @param {(button: HTMLButtonElement, body: DebugBody) => void} onForce a force button was pressed and
 *   its body read
 */
export function createDebugDialog(errorKinds, onForce) {
  const parts = inputs(errorKinds);
  const { panelSelect, kindSelect, current, status, infoText, itemsBox, otherIds } = parts;
  /**
   * @param {string} label
   * @param {string} testid
   * @param {() => DebugBody | null} body
   * @param {string} [cls]
   */
  const force = (label, testid, body, cls = "btn-secondary") =>
    button({
      label,
      testid,
      class: cls,
      onClick: (ev) => {
        const b = body();
        if (b) onForce(/** @type {HTMLButtonElement} */ (ev.currentTarget), b);
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
    h("header", { class: "debug-head" }, h("h2", { attrs: { id: "debug-title" } }, icon("sliders"), "Debug state"), closeButton),
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
        force("Loaded", "debug-loaded", () => loadedBody(parts)),
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
      force("Apply", "debug-modifying-apply", () => modifyingBody(parts)),
    ),
    status,
  );
  trapFocus(dialog);
  return { dialog, ...parts };
}

/** @typedef {ReturnType<typeof createDebugDialog>} DebugDialog */
/** @typedef {ReturnType<typeof inputs>} DebugInputs */

/**
 * "Loaded", with the info typed in when there is some; null, and the status says why, when it is not JSON.
 * @param {DebugInputs} d
 * @returns {DebugBody | null}
 */
function loadedBody(d) {
  const raw = d.infoText.value.trim();
  if (!raw) return { state: "loaded" };
  try {
    return { state: "loaded", info: JSON.parse(raw) };
  } catch (err) {
    d.status.textContent = `The info is not valid JSON: ${/** @type {Error} */ (err).message}`;
    d.infoText.focus();
    return null;
  }
}

/**
 * The items checked and the other ids typed, each once.
 * @param {DebugInputs} d
 */
function modifyingBody(d) {
  const ids = [...d.itemsBox.querySelectorAll("input:checked")].map((c) => /** @type {HTMLInputElement} */ (c).value);
  for (const id of d.otherIds.value.split(",").map((s) => s.trim()).filter(Boolean)) if (!ids.includes(id)) ids.push(id);
  return { modifyingIds: ids };
}

/**
 * A body in words, for the status line.
 * @param {DebugDialog} d
 * @param {DebugBody} b
 */
export function describe(d, b) {
  if ("modifyingIds" in b) return `modifying ids [${/** @type {string[]} */ (b.modifyingIds).join(", ")}]`;
  if (b.state === "error") return `error (${d.kindSelect.value})`;
  return String(b.state);
}

/**
 * Clears the status line and the items checked (another panel, or the dialog opened again).
 * @param {DebugDialog} d
 */
export function clearChoices(d) {
  d.status.textContent = "";
  for (const c of d.itemsBox.querySelectorAll("input")) /** @type {HTMLInputElement} */ (c).checked = false;
}

/**
 * Lists the deck's panels in the select, choosing the one shown if it is still there; returns the
 * panel chosen (the first when that one is gone, null on an empty deck).
 * @param {DebugDialog} d
 * @param {import('./store.js').Store} store
 * @param {string | null} panelId the panel shown
 */
export function drawPanelOptions(d, store, panelId) {
  const ids = store.order;
  replaceChildren(d.panelSelect, ids.map((id) => h("option", { attrs: { value: id }, text: store.panel(id)?.title ?? id })));
  if (panelId && ids.includes(panelId)) {
    d.panelSelect.value = panelId;
    return panelId;
  }
  return ids[0] ?? null;
}

/**
 * Draws a panel's state now and its items, keeping the boxes checked and the one focused.
 * @param {DebugDialog} d
 * @param {PanelState | null | undefined} s none: no panel
 */
export function drawCurrent(d, s) {
  const { current, itemsBox } = d;
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
