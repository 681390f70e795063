// @ts-check
// The notifications dialog, opened from the header's "Notifications" button beside the desktop
// notifications toggle: the deck's notify targets as the state document lists them (settings.
// notifyTargets), each with a "Send test" button whose answer is drawn beside it, and the
// notification log (GET /api/notify/log), asked for each time the dialog opens and after each test.
// The server decides what a test sends and what the log holds; this draws their answers.
import { button, whileBusy } from "./dom.js";
import { createNotifyDialog, targetRow, drawTestAnswer, drawLog } from "./notify-dialog.js";

/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./store.js').Store} Store */
/** @typedef {import('./notify-dialog.js').TargetRow} TargetRow */

/**
 * @param {{api: Api, store: Store, host: HTMLElement, before: HTMLElement | null,
 *   onDialogOpen: (dialog: HTMLDialogElement) => void, onDialogClose: () => void}} opts
 *   host: the header's tools; before: the element the button goes before (the connection pill)
 */
export function installNotify(opts) {
  const { api, store } = opts;
  const d = createNotifyDialog();
  const { dialog } = d;
  /** @type {Map<string, TargetRow>} the rows drawn, by target name: kept while the name is listed */
  const rows = new Map();
  /** @type {HTMLElement | null} */
  let opener = null;
  /** Counts the log's requests: only the newest one's answer is drawn. */
  let logAsked = 0;

  /** @param {TargetRow} row */
  function sendTest(row) {
    void whileBusy(row.button, async () => {
      drawTestAnswer(row, null);
      drawTestAnswer(row, await api.notifyTest(row.name));
      if (dialog.open) void refreshLog();
    });
  }

  function drawTargets() {
    const names = (store.settings?.notifyTargets ?? []).map((t) => t.name);
    for (const name of [...rows.keys()]) if (!names.includes(name)) rows.delete(name);
    for (const name of names) if (!rows.has(name)) rows.set(name, targetRow(name, sendTest));
    d.targets.list.replaceChildren(...names.map((name) => /** @type {TargetRow} */ (rows.get(name)).el));
    d.targets.list.hidden = names.length === 0;
    d.targets.none.hidden = names.length > 0;
  }

  async function refreshLog() {
    const asked = ++logAsked;
    const answer = await api.notifyLog();
    if (asked === logAsked) drawLog(d, answer);
  }

  /** @param {HTMLElement} from the element to focus again on close */
  function open(from) {
    opener = from;
    drawTargets();
    drawLog(d, null);
    void refreshLog();
    // In the page from its first opening only, as the history dialog is.
    if (!dialog.isConnected) document.body.appendChild(dialog);
    dialog.showModal();
    opts.onDialogOpen(dialog);
    const first = d.targets.list.querySelector("button");
    (first instanceof HTMLButtonElement ? first : d.closeButton).focus();
  }

  dialog.addEventListener("close", () => {
    opts.onDialogClose();
    if (opener?.isConnected) opener.focus({ preventScroll: true });
    opener = null;
  });

  const openButton = button({
    label: "Notifications",
    icon: "bell",
    class: ["btn-small", "btn-ghost", "notify-open"],
    testid: "notify-open",
    title: "Notify targets, test sends and the notification log",
    onClick: (ev) => open(/** @type {HTMLElement} */ (ev.currentTarget)),
  });
  openButton.setAttribute("aria-haspopup", "dialog");
  opts.host.insertBefore(openButton, opts.before);

  // A new deck (an edited deck file) may name other targets.
  store.subscribe((change) => {
    if (change.kind === "snapshot" && dialog.open) drawTargets();
  });
}
