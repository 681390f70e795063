// @ts-check
// The history view's requests: the panel's timeline for the range (GET /api/panels/{id}/uptime) and
// its stored changes, a page at a time (GET /api/panels/{id}/history), drawn into the dialog when
// they answer for the panel and range still shown.
import { config } from "./config.js";
import { replaceChildren } from "./dom.js";
import { setCurrentLine, ratioList } from "./timeline-figures.js";
import { spanParam } from "./timeline-text.js";
import { entryItem } from "./history-dialog.js";
import { loadAudit, placeAudit } from "./history-audit.js";

/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./history-dialog.js').HistoryDialog} HistoryDialog */

/**
 * What the dialog shows, changed by history.js and by the loads here.
 * @typedef {object} HistorySession
 * @property {string | null} panelId null while the dialog is closed
 * @property {HTMLElement | null} opener the element to focus again on close
 * @property {string | null} cursor where the next page of older changes starts
 * @property {number} generation counts requests, so an answer for an earlier panel or range is dropped
 * @property {import('./history-range.js').Range} range
 * @property {import('./types.js').AuditEntry[]} audit the panel's signed actions in the range, drawn among the changes
 */

/**
 * Asks for the range's timeline, first page of changes and signed actions, dropping the list shown.
 * @param {Api} api
 * @param {HistoryDialog} d
 * @param {HistorySession} s
 */
export async function loadAll(api, d, s) {
  s.generation++;
  s.cursor = null;
  replaceChildren(d.list);
  d.olderButton.hidden = true;
  await Promise.all([loadChart(api, d, s), loadPage(api, d, s, false), loadAudit(api, d, s)]);
}

/**
 * @param {Api} api
 * @param {HistoryDialog} d
 * @param {HistorySession} s
 */
async function loadChart(api, d, s) {
  if (!s.panelId) return;
  const id = s.panelId;
  const mine = s.generation;
  const range = s.range;
  const spanMs = range.to - range.from;
  d.chartHeading.textContent = range.label;
  d.chartStatus.textContent = "Loading the timeline…";
  d.chart.setAttribute("aria-busy", "true");
  const res = await api.uptime(id, {
    span: spanParam(spanMs),
    slots: config.historyView.timelineSlots,
    to: range.live ? undefined : new Date(range.to).toISOString(),
  });
  if (mine !== s.generation || id !== s.panelId) return;
  d.chart.removeAttribute("aria-busy");
  if (!res.ok) {
    d.chartStatus.textContent = `Could not load the timeline: ${res.failure.message}`;
    d.timeline.el.hidden = true;
    return;
  }
  d.chartStatus.textContent = "";
  d.timeline.el.hidden = false;
  replaceChildren(d.ratios, ratioList(res.data));
  setCurrentLine(d.current, res.data.current);
  d.timeline.render(res.data, { spanMs });
}

/**
 * Asks for the first page of changes, or with `older` the page after those listed.
 * @param {Api} api
 * @param {HistoryDialog} d
 * @param {HistorySession} s
 * @param {boolean} older
 */
export async function loadPage(api, d, s, older) {
  if (!s.panelId) return;
  if (older && !s.cursor) return;
  const id = s.panelId;
  const mine = s.generation;
  const { list, listStatus, olderButton } = d;
  listStatus.textContent = older ? "Loading older changes…" : "Loading changes…";
  list.setAttribute("aria-busy", "true");
  olderButton.setAttribute("aria-disabled", "true");
  const res = await api.history(id, {
    from: new Date(s.range.from).toISOString(),
    to: s.range.live ? undefined : new Date(s.range.to).toISOString(),
    limit: config.historyView.pageSize,
    cursor: older ? s.cursor : null,
  });
  if (mine !== s.generation || id !== s.panelId) return;
  list.removeAttribute("aria-busy");
  olderButton.removeAttribute("aria-disabled");
  if (!res.ok) {
    listStatus.textContent = `Could not load the changes: ${res.failure.message}`;
    return;
  }
  const entries = Array.isArray(res.data.entries) ? res.data.entries : [];
  const hadFocus = olderButton === document.activeElement;
  const added = entries.map(entryItem);
  for (const item of added) list.appendChild(item);
  s.cursor = typeof res.data.next === "string" && res.data.next ? res.data.next : null;
  olderButton.hidden = s.cursor === null;
  placeAudit(d, s);
  const shown = list.querySelectorAll(".history-entry").length;
  listStatus.textContent = shown
    ? `${shown === 1 ? "1 change" : `${shown} changes`} shown${s.cursor ? "; older ones with “Older”" : ""}.`
    : "No changes in this range.";
  // "Older" gone: focus goes to the first change it brought, not to the page behind the dialog.
  if (hadFocus && olderButton.hidden && added.length) added[0].focus();
}
