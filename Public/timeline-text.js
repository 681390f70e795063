// @ts-check
// Time in words, for the timelines: up ratios, spans, durations, load times, moments, a slot's range
// and what happened in it, the panel's health now. Only what the server sent, named and never
// recomputed; no DOM here.

/** @typedef {import('./types.js').UptimeReport} UptimeReport */
/** @typedef {import('./types.js').UptimeSlot} UptimeSlot */
/** @typedef {import('./types.js').CurrentHealth} CurrentHealth */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const SLOT_STATE = /** @type {Record<string, string>} */ ({
  up: "Up",
  down: "Down",
  degraded: "Up and down",
  loading: "Loading",
  maintenance: "Maintenance",
  none: "No data",
});

const CURRENT_STATE = /** @type {Record<string, string>} */ ({
  up: "Up",
  down: "Down",
  loading: "Loading",
  unknown: "Unknown",
});

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });
const dayTimeFormat = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
const fullFormat = new Intl.DateTimeFormat(undefined, {
  year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", second: "2-digit",
});

/**
 * An up ratio (0…1) as a percentage: "99.95 %", "100 %", "—" without data. Cut, not rounded, to two
 * decimals, so a panel that was down at all never reads 100 %.
 * @param {number | null | undefined} ratio
 */
export function ratioText(ratio) {
  if (typeof ratio !== "number" || !Number.isFinite(ratio)) return "—";
  const hundredths = Math.floor(ratio * 10_000 + 1e-6);
  const text = (hundredths / 100).toFixed(2).replace(/\.?0+$/, "");
  return `${text} %`;
}

/**
 * A span of time as a range's name: "1 h", "24 h", "7 d", "90 min".
 * @param {number} ms
 */
export function spanText(ms) {
  if (ms >= 2 * DAY && ms % DAY === 0) return `${ms / DAY} d`;
  if (ms >= HOUR && ms % HOUR === 0) return `${ms / HOUR} h`;
  if (ms >= MINUTE && ms % MINUTE === 0) return `${ms / MINUTE} min`;
  return durationText(ms);
}

/**
 * A span of time as the server's `span` parameter, in whole minutes at least: "24h", "7d", "90m".
 * @param {number} ms
 */
export function spanParam(ms) {
  const minutes = Math.max(1, Math.ceil(ms / MINUTE - 1e-9));
  if (minutes >= 2 * 24 * 60 && minutes % (24 * 60) === 0) return `${minutes / (24 * 60)}d`;
  if (minutes % 60 === 0) return `${minutes / 60}h`;
  return `${minutes}m`;
}

/**
 * How long something lasted, to the two largest units: "45 s", "17 min", "3 h 5 min", "3 d 4 h".
 * @param {number} ms
 */
export function durationText(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const hours = Math.floor(m / 60);
  if (hours < 24) return m % 60 ? `${hours} h ${m % 60} min` : `${hours} h`;
  const d = Math.floor(hours / 24);
  return hours % 24 ? `${d} d ${hours % 24} h` : `${d} d`;
}

/**
 * A load time: "12 ms", "1.4 s".
 * @param {number} ms
 */
export function loadTimeText(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  return durationText(ms);
}

/**
 * A moment: "10:42" today, "Nov 24, 10:42" on another day.
 * @param {number} t epoch ms
 * @param {number} now epoch ms
 */
export function momentText(t, now) {
  const a = new Date(t);
  const b = new Date(now);
  const sameDay = a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
  return (sameDay ? timeFormat : dayTimeFormat).format(t);
}

/**
 * A full date and time, for lists: "Nov 25, 2026, 10:42:03".
 * @param {string} iso
 */
export function fullTimeText(iso) {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : fullFormat.format(t);
}

/**
 * A count and its noun: "1 load", "3 failures".
 * @param {number} n
 * @param {string} one
 * @param {string} many
 */
export function countText(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The panel's health now: "Up for 3 d", "Down since 10:42 (17 min)"; "" when unknown. A health
 * that began before a stretch StateDeck did not watch (from `notWatchedFrom` to `watchedSince`)
 * is known only since: "Down for at least 8 min (not watched 10:05–10:15)".
 * @param {CurrentHealth | null | undefined} current
 * @param {number} now epoch ms
 * @param {string} [notWatchedFrom] ISO time
 */
export function currentText(current, now, notWatchedFrom) {
  if (!current) return "";
  const since = Date.parse(current.since);
  if (Number.isNaN(since)) return "";
  const name = CURRENT_STATE[current.state] ?? current.state;
  const watched = Date.parse(current.watchedSince ?? "");
  const gapFrom = Date.parse(notWatchedFrom ?? "");
  if (watched > since && !Number.isNaN(gapFrom)) {
    return `${name} for at least ${durationText(now - watched)} (not watched ${timeFormat.format(gapFrom)}–${timeFormat.format(watched)})`;
  }
  const lasted = durationText(now - since);
  if (current.state === "up") return `${name} for ${lasted}`;
  return `${name} since ${momentText(since, now)} (${lasted})`;
}

/**
 * A slot's time range: "10:00 – 10:16"; with the day when the slots span more than one, and the
 * end's day too when it is another.
 * @param {UptimeSlot} slot
 * @param {boolean} withDay
 */
export function slotRangeText(slot, withDay) {
  const from = Date.parse(slot.from);
  const to = Date.parse(slot.to);
  if (Number.isNaN(from) || Number.isNaN(to)) return `${slot.from} – ${slot.to}`;
  if (!withDay) return `${timeFormat.format(from)} – ${timeFormat.format(to)}`;
  const sameDay = new Date(from).toDateString() === new Date(to).toDateString();
  return `${dayTimeFormat.format(from)} – ${(sameDay ? timeFormat : dayTimeFormat).format(to)}`;
}

/**
 * A slot's state by name: "Up and down", "No data".
 * @param {string} state
 */
export function slotStateText(state) {
  return SLOT_STATE[state] ?? state;
}

/**
 * What happened in a slot, one line a fact.
 * @param {UptimeSlot} slot
 * @returns {string[]}
 */
export function slotFacts(slot) {
  if (slot.state === "none") return ["No data for this time."];
  const lines = [];
  const times = [];
  if (slot.upMs > 0) times.push(`up ${durationText(slot.upMs)}`);
  if (slot.downMs > 0) times.push(`down ${durationText(slot.downMs)}`);
  if (slot.loadingMs > 0) times.push(`loading ${durationText(slot.loadingMs)}`);
  // Time under a maintenance window is in no uptime ratio; the tooltip says how much of the slot it was.
  if ((slot.maintenanceMs ?? 0) > 0) times.push(`under maintenance ${durationText(slot.maintenanceMs ?? 0)}`);
  if (times.length) lines.push(capitalize(times.join(", ")));
  lines.push(`${countText(slot.loads, "load", "loads")}, ${slot.failures ? countText(slot.failures, "failure", "failures") : "no failures"}`);
  const durations = [];
  if (typeof slot.avgMs === "number") durations.push(`avg ${loadTimeText(slot.avgMs)}`);
  if (typeof slot.p95Ms === "number") durations.push(`p95 ${loadTimeText(slot.p95Ms)}`);
  if (typeof slot.maxMs === "number") durations.push(`max ${loadTimeText(slot.maxMs)}`);
  if (durations.length) lines.push(capitalize(durations.join(", ")));
  return lines;
}

/** @param {string} s */
function capitalize(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/**
 * The strip's text alternative: "Last 24 h: 99.9 % up, 2 failures", or "24 h up to 02:20:32: …"
 * for a strip ending at a past moment.
 * @param {UptimeReport} report
 * @param {number} spanMs the span the strip was asked for
 * @param {number | null} [to] the past moment it ends at (epoch ms), null for now
 */
export function stripSummary(report, spanMs, to = null) {
  const ratio = spanMs === DAY ? report["24h"] : spanMs === 7 * DAY ? report["7d"] : spanMs === 30 * DAY ? report["30d"] : undefined;
  const parts = [];
  if (ratio !== undefined) parts.push(ratio === null ? "no uptime data" : `${ratioText(ratio)} up`);
  let failures = 0;
  for (const slot of report.slots) failures += slot.failures;
  parts.push(failures ? countText(failures, "failure", "failures") : "no failures");
  const span = to === null ? `Last ${spanText(spanMs)}` : `${spanText(spanMs)} up to ${momentText(to, Date.now())}`;
  return `${span}: ${parts.join(", ")}`;
}
