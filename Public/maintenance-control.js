// @ts-check
// The header's Maintenance button and its dialog: the windows holding now, each with an End button,
// and a form that starts one over panels and groups for some minutes, with a reason. The server
// checks what is sent and keeps the windows; the dialog draws the store's `maintenance` as it is.
import { h, button, icon, trapFocus, whileBusy, replaceChildren } from "./dom.js";
import { untilText } from "./maintenance.js";
import { gate } from "./access.js";

/** @typedef {import('./store.js').Store} Store */
/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./types.js').MaintenanceWindow} MaintenanceWindow */

/**
 * One checkbox of the form's list of panels and groups.
 * @param {"panel" | "group"} kind @param {string} id @param {string} label
 */
function choice(kind, id, label) {
  const box = h("input", { attrs: { type: "checkbox", value: id, name: kind }, data: { testid: `maintenance-${kind}` } });
  return h("label", { class: "maintenance-choice" }, box, h("span", { text: label }));
}

/** The form's fields, built once; their choices are drawn from the store when the dialog opens. */
function formFields() {
  const choices = h("fieldset", { class: "maintenance-choices" }, h("legend", { text: "Panels and groups" }));
  const minutes = h("input", {
    attrs: { type: "number", id: "maintenance-minutes", min: 1, max: 10080, step: 1, value: 60, required: true },
    data: { testid: "maintenance-minutes" },
  });
  const reason = h("input", {
    attrs: { type: "text", id: "maintenance-reason", maxlength: 200, required: true, autocomplete: "off", placeholder: "Database upgrade" },
    data: { testid: "maintenance-reason" },
  });
  const problem = h("p", { class: "maintenance-problem", data: { testid: "maintenance-problem" }, attrs: { role: "alert" } });
  return { choices, minutes, reason, problem };
}

/**
 * One active window: its reason, panels and end, and the button that ends it.
 * @param {MaintenanceWindow} w @param {(id: string) => Promise<unknown>} onEnd
 */
function activeItem(w, onEnd) {
  const end = button({
    label: "End",
    class: ["btn-small", "btn-secondary"],
    testid: "maintenance-end",
    needs: "maintenance",
    ariaLabel: `End maintenance: ${w.reason}`,
    onClick: (ev) => whileBusy(/** @type {HTMLButtonElement} */ (ev.currentTarget), () => onEnd(w.id)),
  });
  const facts = `${w.panels.join(", ")} · until ${untilText(w.until)}${w.schedule ? ` · ${w.schedule}` : ""}`;
  return h(
    "li",
    { class: "maintenance-item", data: { testid: "maintenance-active", "maintenance-id": w.id } },
    h("div", {}, h("strong", { text: w.reason }), h("p", { class: "maintenance-facts", text: facts })),
    end,
  );
}

/**
 * The dialog: its heading, the active windows' list and the form.
 * @param {ReturnType<typeof formFields>} fields @param {HTMLElement} active
 */
function dialogElements(fields, active) {
  const start = gate(
    /** @type {HTMLButtonElement} */ (h("button", { class: ["btn", "btn-primary"], attrs: { type: "submit" }, data: { testid: "maintenance-start" }, text: "Start" })),
    "maintenance",
  );
  const form = h(
    "form",
    { class: "maintenance-form" },
    h("h3", { class: "history-subhead", text: "Start a window now" }),
    fields.choices,
    h("label", { attrs: { for: "maintenance-minutes" }, text: "Minutes" }), fields.minutes,
    h("label", { attrs: { for: "maintenance-reason" }, text: "Reason" }), fields.reason,
    fields.problem,
    h("div", { class: "maintenance-actions" }, start),
  );
  const close = button({ label: "Close", icon: "x", iconOnly: true, class: ["btn-icon"], testid: "maintenance-close", onClick: () => dialog.close() });
  const dialog = /** @type {HTMLDialogElement} */ (h(
    "dialog",
    { class: ["history-dialog", "maintenance-dialog"], data: { testid: "maintenance-dialog" }, attrs: { "aria-labelledby": "maintenance-title" } },
    h("header", { class: "history-head" }, h("div", { class: "history-heading" }, icon("wrench"), h("h2", { attrs: { id: "maintenance-title" }, text: "Maintenance" })), close),
    h("h3", { class: "history-subhead", text: "Active now" }),
    active,
    form,
  ));
  trapFocus(dialog);
  return { dialog, form, start: /** @type {HTMLButtonElement} */ (start) };
}

/**
 * @typedef {{host: HTMLElement, store: Store, api: Api, onDialogOpen: (dialog: HTMLDialogElement) => void,
 *   onDialogClose: () => void}} MaintenanceControlOptions
 */

/**
 * The dialog, joined to the document: its drawing from the store and its form's submission.
 * @param {MaintenanceControlOptions} opts
 */
function maintenanceDialog(opts) {
  const { store, api } = opts;
  const fields = formFields();
  const active = h("ul", { class: "maintenance-list", data: { testid: "maintenance-list" } });
  const { dialog, form, start } = dialogElements(fields, active);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void submit();
  });
  dialog.addEventListener("close", () => opts.onDialogClose());
  document.body.append(dialog);

  function drawActive() {
    const windows = store.maintenance.active;
    replaceChildren(active, ...(windows.length ? windows.map((w) => activeItem(w, api.endMaintenance))
      : [h("li", { class: "maintenance-none", text: "No window is active." })]));
  }

  function drawChoices() {
    const legend = fields.choices.querySelector("legend");
    const groups = store.groups.map((g) => choice("group", g.id, `Group: ${g.title}`));
    const panels = store.order.map((id) => choice("panel", id, store.panel(id)?.title ?? id));
    replaceChildren(fields.choices, legend, ...groups, ...panels);
  }

  async function submit() {
    const picked = (/** @type {string} */ kind) =>
      [...fields.choices.querySelectorAll(`input[name="${kind}"]:checked`)].map((el) => /** @type {HTMLInputElement} */ (el).value);
    const body = { panels: picked("panel"), groups: picked("group"), minutes: Number(fields.minutes.value), reason: fields.reason.value };
    if (!body.panels.length && !body.groups.length) {
      fields.problem.textContent = "Pick at least one panel or group.";
      return;
    }
    fields.problem.textContent = "";
    /** @type {MaintenanceWindow | null} */
    let started = null;
    await whileBusy(start, async () => {
      started = await api.startMaintenance(body);
    });
    if (started) fields.reason.value = "";
  }

  return {
    dialog,
    drawActive,
    show() {
      drawChoices();
      drawActive();
      fields.problem.textContent = "";
      opts.onDialogOpen(dialog);
      dialog.showModal();
    },
  };
}

/**
 * Installs the button in `host`; the dialog joins the document at its first opening, as the
 * history dialog does.
 * @param {MaintenanceControlOptions} opts
 */
export function installMaintenanceControl(opts) {
  /** @type {ReturnType<typeof maintenanceDialog> | null} */
  let built = null;
  const open = button({
    label: "Maintenance",
    icon: "wrench",
    class: ["btn-small", "btn-secondary", "maintenance-open"],
    testid: "maintenance-open",
    onClick: () => {
      built ??= maintenanceDialog(opts);
      built.show();
    },
  });
  opts.host.prepend(open);

  return {
    /** The store's maintenance changed: the open dialog's list follows it, the button counts it. */
    update() {
      const count = opts.store.maintenance.active.length;
      open.dataset.active = String(count);
      open.title = count ? `${count} maintenance window${count === 1 ? "" : "s"} active` : "Maintenance windows";
      if (built?.dialog.open) built.drawActive();
    },
  };
}
