// @ts-check
// The time range the history view shows: a preset that ends now (or at the past moment the board
// shows, so the history is the one of then), the two datetime-local inputs, or a timeline slot that
// was activated. No DOM.
import { config } from "./config.js";
import { fullTimeText } from "./timeline-text.js";
import { shownMoment } from "./shown-moment.js";

/** @typedef {import('./types.js').UptimeSlot} UptimeSlot */

/**
 * @typedef {object} Range
 * @property {number} from epoch ms
 * @property {number} to epoch ms
 * @property {boolean} live the range ends now (a preset on the live board): the timeline is asked without `to`
 * @property {string} label
 */

/**
 * The value of a datetime-local input for a moment, in local time, to the minute.
 * @param {number} t epoch ms
 */
export function localInputValue(t) {
  const d = new Date(t);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * @param {string} id
 * @returns {Range}
 */
export function presetRange(id) {
  const preset = config.historyView.ranges.find((r) => r.id === id) ?? config.historyView.ranges[0];
  const moment = shownMoment();
  if (moment) {
    const to = Date.parse(moment);
    return { from: to - preset.spanMs, to, live: false, label: `${preset.label} up to ${fullTimeText(moment)}` };
  }
  const to = Date.now();
  return { from: to - preset.spanMs, to, live: true, label: `Last ${preset.label}` };
}

/**
 * The range two datetime-local values give, or what is wrong with them.
 * @param {string} fromValue
 * @param {string} toValue
 * @returns {{range: Range, problem: ""} | {range: null, problem: string}}
 */
export function customRange(fromValue, toValue) {
  const from = fromValue ? new Date(fromValue).getTime() : NaN;
  const to = toValue ? new Date(toValue).getTime() : NaN;
  if (Number.isNaN(from) || Number.isNaN(to)) return { range: null, problem: "Choose both a start and an end." };
  if (from >= to) return { range: null, problem: "The start must come before the end." };
  const label = `${fullTimeText(new Date(from).toISOString())} to ${fullTimeText(new Date(to).toISOString())}`;
  return { range: { from, to, live: false, label }, problem: "" };
}

/**
 * The range of a timeline slot, or null when its times do not parse.
 * @param {UptimeSlot} slot
 * @returns {Range | null}
 */
export function slotRange(slot) {
  const from = Date.parse(slot.from);
  const to = Date.parse(slot.to);
  if (Number.isNaN(from) || Number.isNaN(to)) return null;
  return { from, to: Math.max(to, from + 1), live: false, label: `${fullTimeText(slot.from)} to ${fullTimeText(slot.to)}` };
}
