// @ts-check
// A strip's tooltip: what happened in one slot (its range and state, then a line a fact). It is a
// manual popover, in the top layer, so no panel's overflow clips it; placed above its slot (below it
// when there is no room) inside the viewport, and moved with its slot when the page scrolls.
import { h, replaceChildren } from "./dom.js";
import { slotRangeText, slotStateText, slotFacts } from "./timeline-text.js";

/** @typedef {import('./types.js').UptimeSlot} UptimeSlot */
/** @typedef {HTMLElement & {showPopover(): void, hidePopover(): void}} PopoverElement */

let tipIds = 0;

export function createSlotTip() {
  const id = `timeline-tip-${++tipIds}`;
  /** @type {HTMLElement} */
  const el = h("div", {
    class: "timeline-tip",
    attrs: { id, role: "tooltip", popover: "manual" },
    data: { testid: "timeline-tooltip" },
  });
  const tip = /** @type {PopoverElement} */ (el);
  /** @type {HTMLButtonElement | null} the slot whose tooltip shows */
  let shownFor = null;

  /** Puts the tooltip above the slot (below it when there is no room), inside the viewport. */
  /** @param {HTMLElement} btn */
  function place(btn) {
    const r = btn.getBoundingClientRect();
    const t = tip.getBoundingClientRect();
    const margin = 6;
    const left = Math.min(Math.max(margin, r.left + r.width / 2 - t.width / 2), window.innerWidth - t.width - margin);
    const above = r.top - t.height - margin;
    const top = above >= margin ? above : r.bottom + margin;
    tip.style.setProperty("--tip-x", `${Math.round(left)}px`);
    tip.style.setProperty("--tip-y", `${Math.round(top)}px`);
  }

  // The page scrolls under a fixed tooltip: it follows its slot.
  window.addEventListener("scroll", () => {
    if (shownFor?.isConnected) place(shownFor);
  }, { passive: true, capture: true });

  return {
    el,
    /** The tooltip's id, for its slots' aria-describedby. */
    id,
    /** The slot whose tooltip shows, if one does. */
    get shownFor() {
      return shownFor;
    },
    /**
     * Tells of `slot` beside its button.
     * @param {HTMLButtonElement} btn @param {UptimeSlot} slot @param {boolean} withDay
     */
    show(btn, slot, withDay) {
      shownFor = btn;
      replaceChildren(
        tip,
        h("strong", { class: "timeline-tip-head", text: `${slotRangeText(slot, withDay)} · ${slotStateText(slot.state)}` }),
        slotFacts(slot).map((line) => h("span", { class: "timeline-tip-line", text: line })),
      );
      tip.dataset.state = slot.state;
      try {
        if (!tip.matches(":popover-open")) tip.showPopover();
      } catch {
        tip.hidden = false;
      }
      place(btn);
    },
    hide() {
      shownFor = null;
      try {
        if (tip.matches(":popover-open")) tip.hidePopover();
      } catch {
        tip.hidden = true;
      }
    },
  };
}

/** @typedef {ReturnType<typeof createSlotTip>} SlotTip */
