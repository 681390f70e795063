// @ts-check
// What this page's user may do, as GET /api/caller says (PROTOCOL.md, "Roles"): asked once at
// start (app.js), beside the state document. Every control that acts names what it needs
// (`gate`, or `button({needs})`): when the role does not allow it, the control is disabled with
// the server's sentence as its title ("Needs the operator role; you are a viewer"). The server
// refuses such a request anyway; this spares a click that cannot work and says why. Any module
// with controls that act gates them here. A past moment (travel.js) disables every such control
// the same way, with its own sentence: nothing can be done in the past.

/**
 * What a role may do, by action: the keys of `may`.
 * @typedef {"retry" | "recover" | "itemActions" | "maintenance" | "incidents" | "notifyTest" | "pingURL" | "debug"} Permission
 */

/**
 * GET /api/caller.
 * @typedef {object} CallerDocument
 * @property {string} name
 * @property {"viewer" | "operator" | "designer"} role
 * @property {Record<Permission, boolean>} may
 * @property {Partial<Record<Permission, string>>} why the sentence for each action `may` refuses
 */

/** @type {CallerDocument | null} */
let caller = null;
/** Why nothing may be done while the page shows a past moment, or null while it is live. */
/** @type {string | null} */
let past = null;
/**
 * Controls gated before the caller was known (in the document or not yet), gated again once it is.
 * @type {Set<HTMLButtonElement | HTMLInputElement> | null}
 */
let early = new Set();

/**
 * Takes the caller document, and gates again every control gated before it came. Null when the
 * server could not say: nothing is disabled, and the server decides.
 * @param {CallerDocument | null} doc
 */
export function setCaller(doc) {
  caller = doc;
  for (const el of early ?? []) apply(el, /** @type {Permission} */ (el.dataset.needs));
  early = null;
}

/**
 * Disables every gated control with `reason` while the page shows a past moment, or gives them
 * back to the role's gate (null, live again).
 * @param {string | null} reason
 */
export function setPast(reason) {
  past = reason;
  for (const el of document.querySelectorAll("[data-needs]")) {
    if (el instanceof HTMLButtonElement || el instanceof HTMLInputElement) apply(el, /** @type {Permission} */ (el.dataset.needs));
  }
}

/**
 * Why `permission` is not allowed now (a past moment, or the role), or null when it is (or nobody said).
 * @param {Permission} permission
 * @returns {string | null}
 */
export function whyNot(permission) {
  return past ?? roleRefusal(permission);
}

/**
 * Why the role does not allow `permission`, or null when it does (or nobody said); a past moment
 * changes nothing here: what it shows may still be read.
 * @param {Permission} permission
 * @returns {string | null}
 */
export function roleRefusal(permission) {
  if (!caller || caller.may[permission] !== false) return null;
  return caller.why[permission] ?? "Your role does not allow this";
}

/** @param {Permission} permission */
export function allows(permission) {
  return whyNot(permission) === null;
}

/**
 * Marks `el` as needing `permission`: disabled, with the reason as its title, when the role does
 * not allow it.
 * @template {HTMLButtonElement | HTMLInputElement} E
 * @param {E} el
 * @param {Permission} permission
 * @returns {E}
 */
export function gate(el, permission) {
  el.dataset.needs = permission;
  early?.add(el);
  apply(el, permission);
  return el;
}

/**
 * Disables `el` with the reason, or gives back what it had when it is allowed after all.
 * @param {HTMLButtonElement | HTMLInputElement} el
 * @param {Permission} permission
 */
function apply(el, permission) {
  const why = whyNot(permission);
  if (why !== null) {
    if (el.dataset.denied === undefined) el.dataset.ownTitle = el.title;
    if (el.dataset.denied === why) return;
    el.dataset.denied = why;
    el.disabled = true;
    el.title = why;
  } else if (el.dataset.denied !== undefined) {
    el.disabled = false;
    el.title = el.dataset.ownTitle ?? "";
    delete el.dataset.denied;
    delete el.dataset.ownTitle;
  }
}
