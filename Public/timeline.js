// @ts-check
// A panel's timeline as the server tallied it (GET /api/panels/{id}/uptime), drawn and never
// recomputed: a strip of slots (one focusable button each, coloured by the slot's state, with a
// tooltip telling what happened then) over its axis, and the load-time line under it. The strip is
// one tab stop, and each slot names its time range and state, its tooltip (role="tooltip", also its
// aria-describedby) the rest.
//
// Its parts: timeline-text.js puts time in words, timeline-tip.js is the tooltip, timeline-keys.js
// the strip's keys, pointer and focus, timeline-sparkline.js the load-time line; beside a strip,
// timeline-figures.js draws the health now and the up ratios, and panel-timeline.js decides when a
// card's timeline is asked for.
import { h, replaceChildren } from "./dom.js";
import { momentText, slotRangeText, slotStateText, stripSummary } from "./timeline-text.js";
import { createSlotTip } from "./timeline-tip.js";
import { followStrip, slotButtons, syncTip } from "./timeline-keys.js";
import { sparkline } from "./timeline-sparkline.js";

/** @typedef {import('./types.js').UptimeReport} UptimeReport */
/** @typedef {import('./types.js').UptimeSlot} UptimeSlot */
/** @typedef {import('./types.js').TimeStretch} TimeStretch */
/** @typedef {import('./timeline-tip.js').SlotTip} SlotTip */

/**
 * @typedef {object} SlotStrip a strip of slots, and what of it the keys and the tooltip follow
 * @property {HTMLElement} el
 * @property {SlotTip} tip
 * @property {UptimeSlot[]} slots
 * @property {boolean} withDay whether the slots span more than one day, so that their ranges name it
 * @property {number} rovingFromEnd the slot in the tab order (the roving tabindex), counted from the
 *   newest: 0 is the newest
 * @property {HTMLButtonElement | null} hovered
 */

/**
 * @typedef {object} SlotSpan the time a strip's slots cover
 * @property {number} count how many slots there are
 * @property {number} first when the first starts (epoch ms; NaN without slots)
 * @property {number} last when the last ends (epoch ms; NaN without slots)
 */

/**
 * A timeline: the strip of slots, the sparkline, and the slots' tooltip. `render` draws a report.
 * @param {{testid?: string, compact?: boolean, onSlot?: (slot: UptimeSlot, btn: HTMLButtonElement) => void}} [opts]
 *   compact: the strip and its tooltip alone (a line of the compact overview); onSlot: a slot was
 *   activated (click, Enter, Space)
 */
export function createTimeline(opts = {}) {
  const tip = createSlotTip();
  const stripEl = h("div", {
    class: "timeline-strip",
    attrs: { role: "group" },
    data: { testid: "timeline-strip" },
  });
  const axisStart = h("span", { data: { testid: "timeline-start" } });
  const axisEnd = h("span", { data: { testid: "timeline-end" } });
  const axis = h("div", { class: "timeline-axis", attrs: { "aria-hidden": "true" } }, axisStart, axisEnd);
  const sparkBox = h("div", { class: "sparkline-box" });
  const el = opts.compact
    ? h("div", { class: ["timeline", "timeline-compact"], data: { testid: opts.testid ?? "timeline" } }, stripEl, tip.el)
    : h("div", { class: "timeline", data: { testid: opts.testid ?? "timeline" } }, stripEl, axis, sparkBox, tip.el);
  /** @type {SlotStrip} */
  const strip = { el: stripEl, tip, slots: [], withDay: false, rovingFromEnd: 0, hovered: null };
  followStrip(strip, opts.onSlot);

  /**
   * Draws a report, the focused and the hovered slot kept by their place.
   * @param {UptimeReport} report
   * @param {{spanMs: number, to?: number | null}} shape the span the report was asked for, and the
   *   past moment it ends at (epoch ms; null or left out for now)
   */
  function render(report, shape) {
    const focusedIndex = stripEl.contains(document.activeElement)
      ? Number(/** @type {HTMLElement} */ (document.activeElement).dataset.index)
      : null;
    const hoveredIndex = strip.hovered ? Number(strip.hovered.dataset.index) : null;
    drawAxis(axisStart, axisEnd, drawSlots(strip, report, shape.spanMs, shape.to ?? null), report.slotMs, shape.to ?? null);
    if (!opts.compact) replaceChildren(sparkBox, sparkline(strip.slots));
    const all = slotButtons(strip);
    strip.hovered = hoveredIndex !== null && all[hoveredIndex] ? all[hoveredIndex] : null;
    if (focusedIndex !== null && !Number.isNaN(focusedIndex) && all.length) {
      const i = Math.min(all.length - 1, focusedIndex);
      for (const b of all) b.tabIndex = -1;
      all[i].tabIndex = 0;
      all[i].focus({ preventScroll: true });
    }
    syncTip(strip);
  }

  return { el, render, hideTip: tip.hide };
}

/**
 * Puts a report's slots in the strip, one button each.
 * @param {SlotStrip} strip @param {UptimeReport} report @param {number} spanMs
 * @param {number | null} to the past moment it ends at, null for now
 * @returns {SlotSpan}
 */
function drawSlots(strip, report, spanMs, to) {
  const slots = Array.isArray(report.slots) ? report.slots : [];
  strip.slots = slots;
  const first = slots.length ? Date.parse(slots[0].from) : NaN;
  const last = slots.length ? Date.parse(slots[slots.length - 1].to) : NaN;
  const withDay = !Number.isNaN(first) && !Number.isNaN(last) && new Date(first).toDateString() !== new Date(last).toDateString();
  strip.withDay = withDay;
  const roving = Math.max(0, slots.length - 1 - strip.rovingFromEnd);
  strip.el.setAttribute("aria-label", stripSummary(report, spanMs, to));
  strip.el.dataset.slots = String(slots.length);
  replaceChildren(
    strip.el,
    slots.map((slot, i) =>
      h("button", {
        class: "slot",
        attrs: {
          type: "button",
          tabindex: i === roving ? 0 : -1,
          "aria-label": `${slotRangeText(slot, withDay)}: ${slotStateText(slot.state)}`,
          "aria-describedby": strip.tip.id,
        },
        data: {
          testid: "timeline-slot", index: i, state: slot.state, from: slot.from, to: slot.to,
          unwatched: overlapsUnwatched(slot, report.unwatched) ? "true" : undefined,
        },
      }),
    ),
  );
  return { count: slots.length, first, last };
}

/**
 * The axis under the strip: when its first slot starts, and "now", or when its last ends if that
 * was a while ago, or the past moment the timeline was asked to end at.
 * @param {HTMLElement} start @param {HTMLElement} end @param {SlotSpan} span
 * @param {number} slotMs how long a slot lasts
 * @param {number | null} to the past moment asked for (epoch ms), null for now
 */
function drawAxis(start, end, { count, first, last }, slotMs, to) {
  start.textContent = Number.isNaN(first) ? "" : momentText(first, last);
  end.textContent = count ? "now" : "";
  if (count && to !== null) {
    end.textContent = momentText(to, to);
  } else if (count && !Number.isNaN(last) && last < Date.now() - 2 * (slotMs || 0)) {
    end.textContent = momentText(last, last);
  }
}

/**
 * Whether a slot holds time StateDeck did not watch.
 * @param {UptimeSlot} slot
 * @param {TimeStretch[] | undefined} unwatched
 */
function overlapsUnwatched(slot, unwatched) {
  const from = Date.parse(slot.from);
  const to = Date.parse(slot.to);
  return (unwatched ?? []).some((stretch) => Date.parse(stretch.from) < to && Date.parse(stretch.to) > from);
}
