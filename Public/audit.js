// @ts-check
// The audit, opened from the header's "Audit" button: the deck's newest signed actions
// (GET /api/audit), asked for each time the dialog opens, which joins the page at its first opening.
// The server signs and words each entry; this draws them.
import { button } from "./dom.js";
import { config } from "./config.js";
import { createAuditDialog, drawAudit } from "./audit-dialog.js";

/** @typedef {import('./api.js').Api} Api */

/**
 * @param {{api: Api, host: HTMLElement, before: HTMLElement | null,
 *   onDialogOpen: (dialog: HTMLDialogElement) => void, onDialogClose: () => void}} opts
 *   host: the header's tools; before: the element the button goes before
 */
export function installAudit(opts) {
  const { api } = opts;
  /** @type {import('./audit-dialog.js').AuditDialog | null} built at the first opening */
  let d = null;
  /** @type {HTMLElement | null} */
  let opener = null;
  /** Counts the requests: only the newest one's answer is drawn. */
  let asked = 0;

  /** @param {import('./audit-dialog.js').AuditDialog} dialog */
  async function refresh(dialog) {
    const mine = ++asked;
    drawAudit(dialog, null);
    const answer = await api.audit({ limit: config.auditList.limit });
    if (mine === asked) drawAudit(dialog, answer);
  }

  /** @returns {import('./audit-dialog.js').AuditDialog} */
  function built() {
    if (d) return d;
    const made = createAuditDialog();
    made.dialog.addEventListener("close", () => {
      opts.onDialogClose();
      if (opener?.isConnected) opener.focus({ preventScroll: true });
      opener = null;
    });
    document.body.appendChild(made.dialog);
    d = made;
    return made;
  }

  /** @param {HTMLElement} from the element to focus again on close */
  function open(from) {
    const dialog = built();
    opener = from;
    void refresh(dialog);
    dialog.dialog.showModal();
    opts.onDialogOpen(dialog.dialog);
    dialog.closeButton.focus();
  }

  const openButton = button({
    label: "Audit",
    icon: "history",
    class: ["btn-small", "btn-ghost", "audit-open"],
    testid: "audit-open",
    title: "Every action taken on this deck, signed",
    onClick: (ev) => open(/** @type {HTMLElement} */ (ev.currentTarget)),
  });
  openButton.setAttribute("aria-haspopup", "dialog");
  opts.host.insertBefore(openButton, opts.before);
}
