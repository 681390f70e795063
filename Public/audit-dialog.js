// @ts-check
// The audit dialog's elements, built once: the deck's signed actions as a table, newest first,
// each with its time, who acted, what they did, their role and the panel. Who acted has a column of
// its own and what they wrote is quoted and isolated (auditDeed), so no text of theirs reads as a
// signature. audit.js decides when it is drawn.
import { h, icon, button, replaceChildren, trapFocus } from "./dom.js";
import { fullTimeText } from "./timeline-text.js";

/** @typedef {import('./types.js').AuditEntry} AuditEntry */
/** @typedef {import('./api.js').ApiFailure} ApiFailure */

export function createAuditDialog() {
  const status = h("p", { class: "notify-log-status", attrs: { role: "status" }, data: { testid: "audit-status" } });
  const rows = h("tbody");
  const table = h(
    "table",
    { class: "notify-log", data: { testid: "audit-log" }, attrs: { "aria-labelledby": "audit-title" } },
    h("thead", {}, h("tr", {}, ["Time", "Who", "Action", "Role", "Panel"].map((text) => h("th", { attrs: { scope: "col" }, text })))),
    rows,
  );
  table.hidden = true;
  const closeButton = button({
    label: "Close",
    icon: "x",
    iconOnly: true,
    class: ["btn-icon"],
    testid: "audit-close",
    onClick: () => dialog.close(),
  });
  const dialog = h(
    "dialog",
    { class: ["history-dialog", "notify-dialog"], data: { testid: "audit-dialog" }, attrs: { "aria-labelledby": "audit-title" } },
    h(
      "header",
      { class: "history-head" },
      h("div", { class: "history-heading" }, icon("history"), h("h2", { attrs: { id: "audit-title" }, text: "Audit" })),
      closeButton,
    ),
    h("p", { class: "notify-hint", text: "Every action taken on this deck, signed, newest first." }),
    status,
    h("div", { class: "notify-log-scroll" }, table),
  );
  trapFocus(dialog);
  return { dialog, closeButton, status, table, rows };
}

/** @typedef {ReturnType<typeof createAuditDialog>} AuditDialog */

/**
 * Draws the entries as rows, or the status line saying why there are none.
 * @param {AuditDialog} d
 * @param {{ok: true, data: {entries: AuditEntry[]}} | {ok: false, failure: ApiFailure} | null} answer
 *   null while it is asked for
 */
export function drawAudit(d, answer) {
  const entries = answer?.ok ? answer.data.entries ?? [] : [];
  if (!answer) {
    d.status.dataset.state = "loading";
    d.status.textContent = "Loading the audit…";
  } else if (!answer.ok) {
    d.status.dataset.state = "error";
    d.status.textContent = `Could not load the audit: ${answer.failure.message}`;
  } else {
    d.status.dataset.state = entries.length ? "shown" : "empty";
    d.status.textContent = entries.length ? "" : "No action has been taken yet.";
  }
  replaceChildren(d.rows, entries.map(auditRow));
  d.table.hidden = entries.length === 0;
}

/** @param {AuditEntry} entry */
function auditRow(entry) {
  return h(
    "tr",
    { data: { testid: "audit-entry", action: entry.action } },
    h("td", {}, h("time", { attrs: { datetime: entry.at }, text: fullTimeText(entry.at) })),
    h("td", {}, auditActor(entry)),
    h("td", { data: { testid: "audit-text" } }, auditDeed(entry)),
    h("td", { data: { testid: "audit-role" }, text: entry.role }),
    h("td", { data: { testid: "audit-panel" }, text: entry.panel ?? "" }),
  );
}

/**
 * Who acted, as the server signed it: set apart from anything they wrote.
 * @param {AuditEntry} entry
 */
export function auditActor(entry) {
  return h("strong", { class: "audit-actor", data: { testid: "audit-actor" }, text: entry.actor });
}

/**
 * What was done ("Started maintenance"), then what they wrote, if anything, quoted in a <bdi> of
 * its own: right-to-left text in it (the server writes the invisible direction controls out as
 * "[U+202E]") reorders nothing outside the quotes.
 * @param {AuditEntry} entry
 * @returns {(string | HTMLElement)[]}
 */
export function auditDeed(entry) {
  if (!entry.subject) return [entry.what];
  return [`${entry.what} “`, h("bdi", { class: "audit-said", attrs: { dir: "auto" }, data: { testid: "audit-said" }, text: entry.subject }), "”"];
}
