// @ts-check
// A panel's signed actions among its changes in the history view: asked for with the range
// (GET /api/audit?panel=), each drawn as a line ("alice — Retried · 03:12") between the changes
// listed, where its time falls. One older than the oldest change listed waits until "Older" brings
// the changes around it, unless no older change is left.
import { config } from "./config.js";
import { h } from "./dom.js";
import { momentText } from "./timeline-text.js";
import { auditActor, auditDeed } from "./audit-dialog.js";

/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./types.js').AuditEntry} AuditEntry */
/** @typedef {import('./history-dialog.js').HistoryDialog} HistoryDialog */
/** @typedef {import('./history-load.js').HistorySession} HistorySession */

/**
 * Asks for the panel's signed actions in the range, and draws them once they answer for the panel
 * and range still shown. A failed read lists none: the changes are what the view is for.
 * @param {Api} api
 * @param {HistoryDialog} d
 * @param {HistorySession} s
 */
export async function loadAudit(api, d, s) {
  s.audit = [];
  if (!s.panelId) return;
  const id = s.panelId;
  const mine = s.generation;
  const res = await api.audit({
    panel: id,
    since: new Date(s.range.from).toISOString(),
    until: s.range.live ? undefined : new Date(s.range.to).toISOString(),
    limit: config.historyView.auditLimit,
  });
  if (mine !== s.generation || id !== s.panelId) return;
  s.audit = res.ok && Array.isArray(res.data.entries) ? res.data.entries : [];
  placeAudit(d, s);
}

/**
 * Draws the session's signed actions among the changes listed, newest first like them.
 * @param {HistoryDialog} d
 * @param {HistorySession} s
 */
export function placeAudit(d, s) {
  for (const drawn of d.list.querySelectorAll(".history-audit")) drawn.remove();
  const changes = /** @type {HTMLElement[]} */ ([...d.list.querySelectorAll(".history-entry")]);
  const last = changes[changes.length - 1];
  const oldest = s.cursor && last ? Date.parse(last.dataset.at ?? "") : -Infinity;
  for (const entry of s.audit) {
    const at = Date.parse(entry.at);
    if (!(at >= oldest)) continue;
    const next = changes.find((li) => Date.parse(li.dataset.at ?? "") <= at) ?? null;
    d.list.insertBefore(auditItem(entry), next);
  }
}

/**
 * One signed action's line: who, then what they did as the audit dialog draws it, and when.
 * @param {AuditEntry} entry
 */
function auditItem(entry) {
  return h(
    "li",
    { class: "history-audit", data: { testid: "history-audit-entry", action: entry.action, at: entry.at } },
    auditActor(entry),
    " — ",
    h("span", { class: "history-audit-text", data: { testid: "history-audit-text" } }, auditDeed(entry)),
    " · ",
    h("time", { attrs: { datetime: entry.at, title: entry.role }, text: momentText(Date.parse(entry.at), Date.now()) }),
  );
}
