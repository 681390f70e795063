// @ts-check
// The notifications dialog's elements, built once: the deck's notify targets, each with its "Send
// test" button and the answer drawn beside it, and the notification log as a table, newest first.
// notify.js decides when they are drawn and sends the tests.
import { h, icon, button, replaceChildren, trapFocus } from "./dom.js";
import { fullTimeText, loadTimeText } from "./timeline-text.js";

/** @typedef {import('./types.js').NotifyTestResult} NotifyTestResult */
/** @typedef {import('./types.js').NotifyLogEntry} NotifyLogEntry */
/** @typedef {import('./api.js').ApiFailure} ApiFailure */

/** The targets' section: a hint, the list, and what it says when the deck has none. */
function targetsSection() {
  const list = h("ul", { class: "notify-targets", data: { testid: "notify-targets" }, attrs: { "aria-labelledby": "notify-targets-heading" } });
  const none = h("p", {
    class: "notify-none",
    data: { testid: "notify-no-targets" },
    text: "No panel of this deck tells a notify target: only this page's desktop notifications hear of outages.",
  });
  const section = h(
    "section",
    { class: "notify-section", attrs: { "aria-labelledby": "notify-targets-heading" } },
    h("h3", { class: "history-subhead", attrs: { id: "notify-targets-heading" }, text: "Targets" }),
    h("p", { class: "notify-hint", text: "Send a test notification to check a target before an outage depends on it." }),
    list,
    none,
  );
  return { list, none, section };
}

/** The log's section: its status line and its table. */
function logSection() {
  const status = h("p", { class: "notify-log-status", attrs: { role: "status" }, data: { testid: "notify-log-status" } });
  const rows = h("tbody");
  const table = h(
    "table",
    { class: "notify-log", data: { testid: "notify-log" }, attrs: { "aria-labelledby": "notify-log-heading" } },
    h(
      "thead",
      {},
      h("tr", {}, ["Time", "Message", "Target", "Outcome"].map((text) => h("th", { attrs: { scope: "col" }, text }))),
    ),
    rows,
  );
  table.hidden = true;
  const section = h(
    "section",
    { class: "notify-section", attrs: { "aria-labelledby": "notify-log-heading" } },
    h("h3", { class: "history-subhead", attrs: { id: "notify-log-heading" }, text: "Log, newest first" }),
    status,
    h("div", { class: "notify-log-scroll" }, table),
  );
  return { status, table, rows, section };
}

export function createNotifyDialog() {
  const targets = targetsSection();
  const log = logSection();
  const closeButton = button({
    label: "Close",
    icon: "x",
    iconOnly: true,
    class: ["btn-icon"],
    testid: "notify-close",
    onClick: () => dialog.close(),
  });
  const dialog = h(
    "dialog",
    { class: ["history-dialog", "notify-dialog"], data: { testid: "notify-dialog" }, attrs: { "aria-labelledby": "notify-title" } },
    h(
      "header",
      { class: "history-head" },
      h("div", { class: "history-heading" }, icon("bell"), h("h2", { attrs: { id: "notify-title" }, text: "Notifications" })),
      closeButton,
    ),
    targets.section,
    log.section,
  );
  trapFocus(dialog);
  return { dialog, closeButton, targets, log };
}

/** @typedef {ReturnType<typeof createNotifyDialog>} NotifyDialog */

/**
 * One target's line: its name, its button and where the answer is drawn.
 * @param {string} name
 * @param {(row: TargetRow) => void} onSend
 */
export function targetRow(name, onSend) {
  const result = h("p", { class: "notify-result", attrs: { role: "status" }, data: { testid: "notify-result" } });
  const sendButton = button({
    label: "Send test",
    ariaLabel: `Send a test notification to ${name}`,
    class: ["btn-small", "btn-secondary"],
    testid: "notify-send-test",
    needs: "notifyTest",
    onClick: () => onSend(row),
  });
  const el = h(
    "li",
    { class: "notify-target", data: { testid: "notify-target", target: name } },
    h("span", { class: "notify-target-name", data: { testid: "notify-target-name" }, text: name }),
    sendButton,
    result,
  );
  /** @type {TargetRow} */
  const row = { name, el, button: sendButton, result };
  return row;
}

/** @typedef {{name: string, el: HTMLLIElement, button: HTMLButtonElement, result: HTMLParagraphElement}} TargetRow */

/**
 * Draws what a test send came to beside its button: each target's answer, or why none was sent.
 * @param {TargetRow} row
 * @param {{ok: true, data: {results: NotifyTestResult[]}} | {ok: false, failure: ApiFailure} | null} answer
 *   null while the test is under way
 */
export function drawTestAnswer(row, answer) {
  if (!answer) {
    row.result.dataset.outcome = "sending";
    row.result.textContent = "Sending…";
    return;
  }
  if (!answer.ok) {
    row.result.dataset.outcome = "refused";
    row.result.textContent = `Not sent: ${answer.failure.message}`;
    return;
  }
  const results = answer.data.results ?? [];
  const several = results.length > 1;
  row.result.dataset.outcome = results.every((r) => r.outcome === "sent") ? "sent" : "failed";
  row.result.textContent = results
    .map((r, i) => (several ? `${i + 1} of ${results.length}: ` : "") + resultText(r))
    .join("; ");
}

/** @param {NotifyTestResult} r */
function resultText(r) {
  const took = loadTimeText(r.ms);
  return r.outcome === "sent" ? `Sent in ${took}` : `Failed: ${r.error ?? "no reason given"} (after ${took})`;
}

/**
 * Draws the log: its entries as rows, or its status line saying why there are none.
 * @param {NotifyDialog} d
 * @param {{ok: true, data: {entries: NotifyLogEntry[]}} | {ok: false, failure: ApiFailure} | null} answer
 *   null while it is asked for
 */
export function drawLog(d, answer) {
  const { status, table, rows } = d.log;
  const entries = answer?.ok ? answer.data.entries ?? [] : [];
  if (!answer) {
    status.dataset.state = "loading";
    status.textContent = "Loading the log…";
  } else if (!answer.ok) {
    const missing = answer.failure.status === 404;
    status.dataset.state = missing ? "unavailable" : "error";
    status.textContent = missing
      ? "The notification log is unavailable on this server."
      : `Could not load the notification log: ${answer.failure.message}`;
  } else {
    status.dataset.state = entries.length ? "shown" : "empty";
    status.textContent = entries.length ? "" : "No notification has been sent yet.";
  }
  replaceChildren(rows, entries.map(logRow));
  table.hidden = entries.length === 0;
}

/** @param {NotifyLogEntry} entry */
function logRow(entry) {
  const outcome = entry.why ? `${entry.outcome}: ${entry.why}` : entry.outcome;
  return h(
    "tr",
    { data: { testid: "notify-log-entry", outcome: entry.outcome, event: entry.event } },
    h("td", {}, h("time", { attrs: { datetime: entry.at }, text: fullTimeText(entry.at) })),
    h("td", { data: { testid: "notify-log-message" }, text: entry.message }),
    h("td", { data: { testid: "notify-log-target" }, text: entry.target }),
    h("td", { class: "notify-outcome", data: { testid: "notify-log-outcome" }, text: outcome }),
  );
}
