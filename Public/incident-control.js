// @ts-check
// The header's Incidents button and its dialog: the incidents open and past (asked of the server
// at each opening and after each change, newest first), each with its updates, and the forms that
// open one, post an update or resolve it (incident-forms.js). The dialog joins the document at its
// first opening, as the maintenance dialog does.
import { h, button, icon, trapFocus, replaceChildren } from "./dom.js";
import { statusPill } from "./incidents.js";
import { untilText } from "./maintenance.js";
import { openForm, updateForm, setIncidentWriting } from "./incident-forms.js";

/** @typedef {import('./store.js').Store} Store */
/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./types.js').Incident} Incident */

/** How many incidents the dialog lists. */
const listLimit = 100;

/**
 * @typedef {{host: HTMLElement, store: Store, api: Api, onDialogOpen: (dialog: HTMLDialogElement) => void,
 *   onDialogClose: () => void}} IncidentControlOptions
 */

/**
 * One incident: its status, title, panels and updates (newest first); an open one's update form.
 * @param {Incident} incident @param {Store} store
 * @param {Parameters<typeof updateForm>[1]} onUpdate
 */
function incidentItem(incident, store, onUpdate) {
  const panels = incident.panels.map((id) => store.panel(id)?.title ?? id).join(", ") || "Announcement";
  const updates = [...incident.updates].reverse().map((u) => h(
    "li",
    { class: "incident-update", data: { testid: "incident-update" } },
    h("span", { class: "incident-update-head", text: `${untilText(u.at)} · ${u.status} · ${u.author}` }),
    h("p", { text: u.message }),
  ));
  return h(
    "li",
    { class: "incident-item", data: { testid: "incident-item", "incident-id": incident.id, status: incident.status } },
    h("div", { class: "incident-item-head" }, statusPill(incident.status), h("strong", { text: incident.title })),
    h("p", { class: "incident-facts", text: `${panels} · opened ${untilText(incident.openedAt)}` }),
    h("ol", { class: "incident-updates" }, ...updates),
    incident.resolvedAt ? null : updateForm(incident, onUpdate),
  );
}

/**
 * The dialog's frame: heading, close button, the open and past lists, the problem line, the form.
 * @param {HTMLFormElement} form
 */
function dialogElements(form) {
  const open = h("ul", { class: "incident-list", data: { testid: "incident-open-list" } });
  const past = h("ul", { class: "incident-list", data: { testid: "incident-past-list" } });
  const problem = h("p", { class: "incident-problem", data: { testid: "incident-problem" }, attrs: { role: "alert" } });
  const close = button({ label: "Close", icon: "x", iconOnly: true, class: ["btn-icon"], testid: "incident-close", onClick: () => dialog.close() });
  const dialog = /** @type {HTMLDialogElement} */ (h(
    "dialog",
    { class: ["history-dialog", "incident-dialog"], data: { testid: "incident-dialog" }, attrs: { "aria-labelledby": "incident-heading" } },
    h("header", { class: "history-head" }, h("div", { class: "history-heading" }, icon("alert"), h("h2", { attrs: { id: "incident-heading" }, text: "Incidents" })), close),
    problem,
    h("h3", { class: "history-subhead", text: "Open" }), open,
    form,
    h("h3", { class: "history-subhead", text: "Past" }), past,
  ));
  trapFocus(dialog);
  return { dialog, open, past, problem };
}

/**
 * The dialog, joined to the document: its lists asked of the server, its forms' writes.
 * @param {IncidentControlOptions} opts @param {() => boolean} writable
 */
function incidentDialog(opts, writable) {
  const { store, api } = opts;
  const creation = openForm(store, async (body) => {
    const opened = await api.openIncident(body);
    if (opened) void refresh();
    return opened !== null;
  });
  const { dialog, open, past, problem } = dialogElements(/** @type {HTMLFormElement} */ (creation.form));
  /** @type {Parameters<typeof updateForm>[1]} */
  const onUpdate = async (id, body) => {
    const updated = await api.updateIncident(id, body);
    if (updated) void refresh();
    return updated !== null;
  };
  dialog.addEventListener("close", () => opts.onDialogClose());
  document.body.append(dialog);

  async function refresh() {
    const result = await api.listIncidents(listLimit);
    if (!result.ok) {
      problem.textContent = `Incidents could not be read: ${result.failure.message}`;
      return;
    }
    problem.textContent = "";
    const items = result.data.incidents;
    const draw = (/** @type {Incident[]} */ list, /** @type {string} */ none) =>
      list.length ? list.map((i) => incidentItem(i, store, onUpdate)) : [h("li", { class: "incident-none", text: none })];
    replaceChildren(open, ...draw(items.filter((i) => !i.resolvedAt), "Nothing is open."));
    replaceChildren(past, ...draw(items.filter((i) => i.resolvedAt), "No past incident."));
    setIncidentWriting(dialog, writable());
  }

  return {
    dialog,
    refresh,
    show() {
      creation.drawPanels();
      setIncidentWriting(dialog, writable());
      opts.onDialogOpen(dialog);
      dialog.showModal();
      void refresh();
    },
  };
}

/**
 * Installs the button in `host`, counting the open incidents.
 * @param {IncidentControlOptions} opts
 */
export function installIncidentControl(opts) {
  /** @type {ReturnType<typeof incidentDialog> | null} */
  let built = null;
  let writable = true;
  const openButton = button({
    label: "Incidents",
    icon: "alert",
    class: ["btn-small", "btn-secondary", "incident-open"],
    testid: "incident-open",
    onClick: () => {
      built ??= incidentDialog(opts, () => writable);
      built.show();
    },
  });
  opts.host.prepend(openButton);

  return {
    /** The store's incidents changed: the button counts the open ones, an open dialog reads again. */
    update() {
      const count = opts.store.incidents.filter((i) => !i.resolvedAt).length;
      openButton.dataset.open = String(count);
      openButton.title = count ? `${count} incident${count === 1 ? "" : "s"} open` : "Incidents and announcements";
      if (built?.dialog.open) void built.refresh();
    },
    /**
     * Whether this page may open, update and resolve incidents (the roles decide).
     * @param {boolean} can
     */
    setWritable(can) {
      writable = can;
      if (built) setIncidentWriting(built.dialog, can);
    },
  };
}
