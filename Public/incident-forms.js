// @ts-check
// The Incidents dialog's forms: one that opens an incident (title, affected panels picked from the
// deck, status, message) and, under each open incident, one that posts an update or resolves it.
// Every control that writes carries `data-incident-write`, so one switch (setIncidentWriting)
// turns them all off for someone who may only read.
import { h, button, whileBusy } from "./dom.js";
import { statusLabels } from "./incidents.js";

/** @typedef {import('./store.js').Store} Store */
/** @typedef {import('./types.js').Incident} Incident */
/** @typedef {import('./types.js').IncidentStatus} IncidentStatus */

/**
 * A status picker of `statuses`.
 * @param {IncidentStatus[]} statuses @param {string} testid
 */
function statusSelect(statuses, testid) {
  const options = statuses.map((s) => h("option", { attrs: { value: s }, text: statusLabels[s] }));
  return /** @type {HTMLSelectElement} */ (h("select", { attrs: { "aria-label": "Status" }, data: { testid } }, ...options));
}

/** @param {string} testid @param {string} placeholder */
function messageBox(testid, placeholder) {
  return /** @type {HTMLTextAreaElement} */ (h("textarea", {
    attrs: { rows: 3, maxlength: 5000, required: true, placeholder, "aria-label": "Message" },
    data: { testid },
  }));
}

/**
 * The form that opens an incident; `onOpen` sends it and says whether it was taken.
 * @param {Store} store
 * @param {(body: {title: string, panels: string[], status: IncidentStatus, message: string}) => Promise<boolean>} onOpen
 */
export function openForm(store, onOpen) {
  const title = /** @type {HTMLInputElement} */ (h("input", {
    attrs: { type: "text", maxlength: 200, required: true, autocomplete: "off", placeholder: "Slow answers from the API", "aria-label": "Title" },
    data: { testid: "incident-title" },
  }));
  const panels = h("fieldset", { class: "incident-panels" });
  const status = statusSelect(["investigating", "identified", "monitoring"], "incident-new-status");
  const message = messageBox("incident-message", "What people should know");
  const submit = h("button", { class: ["btn", "btn-primary"], attrs: { type: "submit" }, data: { testid: "incident-open-submit" }, text: "Open" });
  const form = h(
    "form",
    { class: "incident-form", data: { testid: "incident-new", "incident-write": "" } },
    h("h3", { class: "history-subhead", text: "Open an incident" }),
    title, panels, status, message,
    h("p", { class: "incident-hint", text: "No panel picked: an announcement." }),
    h("div", { class: "incident-actions" }, submit),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const picked = [...panels.querySelectorAll("input:checked")].map((el) => /** @type {HTMLInputElement} */ (el).value);
    const body = { title: title.value, panels: picked, status: /** @type {IncidentStatus} */ (status.value), message: message.value };
    void whileBusy(/** @type {HTMLButtonElement} */ (submit), async () => {
      if (await onOpen(body)) /** @type {HTMLFormElement} */ (form).reset();
    });
  });
  return {
    form,
    /** Draws the deck's panels to pick from. */
    drawPanels() {
      const legend = h("legend", { text: "Affected panels" });
      const boxes = store.order.map((id) => h(
        "label",
        { class: "incident-panel" },
        h("input", { attrs: { type: "checkbox", value: id }, data: { testid: "incident-panel" } }),
        h("span", { text: store.panel(id)?.title ?? id }),
      ));
      panels.replaceChildren(legend, ...boxes);
    },
  };
}

/**
 * Under an open incident: a status, a message, and the buttons that post it or resolve.
 * @param {Incident} incident
 * @param {(id: string, body: {status: IncidentStatus, message: string}) => Promise<boolean>} onUpdate
 */
export function updateForm(incident, onUpdate) {
  const status = statusSelect(["investigating", "identified", "monitoring", "resolved"], "incident-update-status");
  status.value = incident.status;
  const message = messageBox("incident-update-message", "What changed");
  /** @param {IncidentStatus} chosen @param {MouseEvent} ev */
  const send = (chosen, ev) => {
    if (!message.reportValidity()) return;
    void whileBusy(/** @type {HTMLButtonElement} */ (ev.currentTarget), async () => {
      if (await onUpdate(incident.id, { status: chosen, message: message.value })) message.value = "";
    });
  };
  const post = button({ label: "Post update", class: ["btn-small", "btn-primary"], testid: "incident-post", onClick: (ev) => send(/** @type {IncidentStatus} */ (status.value), ev) });
  const resolve = button({ label: "Resolve", icon: "check", class: ["btn-small", "btn-secondary"], testid: "incident-resolve", onClick: (ev) => send("resolved", ev) });
  return h(
    "div",
    { class: "incident-update-form", data: { testid: "incident-update-form", "incident-write": "" } },
    status, message, h("div", { class: "incident-actions" }, resolve, post),
  );
}

/**
 * Shows or hides every control under `root` that writes (opening, updating, resolving): the one
 * place that decides whether this page may change incidents.
 * @param {ParentNode} root
 * @param {boolean} writable
 */
export function setIncidentWriting(root, writable) {
  for (const el of root.querySelectorAll("[data-incident-write]")) /** @type {HTMLElement} */ (el).hidden = !writable;
}
