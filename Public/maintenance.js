// @ts-check
// What a panel under a maintenance window says of it, on its card and its compact line:
// "Maintenance: Database upgrade (until 04:00)", the end in local time, with its date when it is
// not today. The server decides which window a panel is under; the page only words it.
import { h } from "./dom.js";

/** @typedef {import('./types.js').MaintenanceMark} MaintenanceMark */

/** Made once, as dom.js's clock format is. */
const hourMinute = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
const dayMonth = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short" });

/**
 * "04:00" for an end today, "28 Nov 04:00" for one on another day (local time); "" when unparsable.
 * @param {string} iso
 * @param {Date} [now]
 */
export function untilText(iso, now = new Date()) {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  const end = new Date(t);
  const today = end.toDateString() === now.toDateString();
  return today ? hourMinute.format(end) : `${dayMonth.format(end)} ${hourMinute.format(end)}`;
}

/**
 * "Maintenance: Database upgrade (until 04:00)".
 * @param {MaintenanceMark} mark
 * @param {Date} [now]
 */
export function maintenanceText(mark, now = new Date()) {
  const until = untilText(mark.until, now);
  return `Maintenance: ${mark.reason}${until ? ` (until ${until})` : ""}`;
}

/**
 * The card's maintenance line, or null when the panel is under none.
 * @param {MaintenanceMark | null | undefined} mark
 */
export function maintenanceLine(mark) {
  if (!mark) return null;
  return h("p", {
    class: "maintenance-line",
    data: { testid: "maintenance-line", "maintenance-id": mark.id },
    text: maintenanceText(mark),
  });
}
