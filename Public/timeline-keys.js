// @ts-check
// A strip's keys, pointer and focus. The strip is one tab stop (a roving tabindex): arrow keys, Home,
// End, PageUp and PageDown move between its slots, and Escape hides the tooltip without moving focus.
// The tooltip tells of the slot under the pointer, else of the focused one; a click (or Enter, or
// Space) on a slot activates it.

/** @typedef {import('./types.js').UptimeSlot} UptimeSlot */
/** @typedef {import('./timeline.js').SlotStrip} SlotStrip */

/** @param {SlotStrip} strip */
export function slotButtons(strip) {
  return /** @type {HTMLButtonElement[]} */ ([...strip.el.querySelectorAll("button.slot")]);
}

/** @param {SlotStrip} strip @param {HTMLButtonElement} btn */
function slotOf(strip, btn) {
  return strip.slots[Number(btn.dataset.index)];
}

/**
 * Shows the tooltip of the hovered slot, else of the focused one, else none.
 * @param {SlotStrip} strip
 */
export function syncTip(strip) {
  const focused = strip.el.contains(document.activeElement) ? /** @type {HTMLButtonElement} */ (document.activeElement) : null;
  const target = strip.hovered ?? (focused && focused.matches("button.slot") ? focused : null);
  if (!target) {
    strip.tip.hide();
    return;
  }
  const slot = slotOf(strip, target);
  if (slot) strip.tip.show(target, slot, strip.withDay);
}

/**
 * The slot a key moves to from slot `i` of `count`; null for a key that moves nowhere.
 * @param {string} key @param {number} i @param {number} count
 */
function slotAfterKey(key, i, count) {
  if (key === "ArrowRight" || key === "ArrowDown") return i + 1;
  if (key === "ArrowLeft" || key === "ArrowUp") return i - 1;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  if (key === "PageUp") return i - 10;
  if (key === "PageDown") return i + 10;
  return null;
}

/** @param {SlotStrip} strip @param {number} index */
function moveTo(strip, index) {
  const all = slotButtons(strip);
  if (!all.length) return;
  const i = Math.max(0, Math.min(all.length - 1, index));
  for (const b of all) b.tabIndex = -1;
  all[i].tabIndex = 0;
  strip.rovingFromEnd = all.length - 1 - i;
  all[i].focus();
}

/**
 * Makes a strip follow keys, pointer and focus.
 * @param {SlotStrip} strip
 * @param {(slot: UptimeSlot, btn: HTMLButtonElement) => void} [onSlot] a slot was activated
 */
export function followStrip(strip, onSlot) {
  const { el } = strip;
  el.addEventListener("keydown", (ev) => {
    const btn = /** @type {HTMLElement} */ (ev.target).closest("button.slot");
    if (!(btn instanceof HTMLButtonElement)) return;
    if (ev.key === "Escape" && strip.tip.shownFor) {
      // The tooltip is dismissed without moving focus; a dialog around the strip stays open.
      ev.preventDefault();
      ev.stopPropagation();
      strip.hovered = null;
      strip.tip.hide();
      return;
    }
    const next = slotAfterKey(ev.key, Number(btn.dataset.index), slotButtons(strip).length);
    if (next === null) return;
    ev.preventDefault();
    moveTo(strip, next);
  });
  el.addEventListener("focusin", (ev) => {
    const btn = /** @type {HTMLElement} */ (ev.target);
    if (!btn.matches("button.slot")) return;
    for (const b of slotButtons(strip)) b.tabIndex = b === btn ? 0 : -1;
    strip.rovingFromEnd = slotButtons(strip).length - 1 - Number(btn.dataset.index);
    syncTip(strip);
  });
  el.addEventListener("focusout", (ev) => {
    const to = /** @type {FocusEvent} */ (ev).relatedTarget;
    if (to instanceof Node && el.contains(to)) return;
    queueMicrotask(() => syncTip(strip));
  });
  el.addEventListener("pointerover", (ev) => {
    const btn = /** @type {HTMLElement} */ (ev.target).closest("button.slot");
    if (!(btn instanceof HTMLButtonElement) || btn === strip.hovered) return;
    strip.hovered = btn;
    syncTip(strip);
  });
  el.addEventListener("pointerleave", () => {
    strip.hovered = null;
    syncTip(strip);
  });
  el.addEventListener("click", (ev) => {
    const btn = /** @type {HTMLElement} */ (ev.target).closest("button.slot");
    if (!(btn instanceof HTMLButtonElement) || !onSlot) return;
    const slot = slotOf(strip, btn);
    if (slot) onSlot(slot, btn);
  });
}
