// @ts-check
// Time on the page: a panel's timeline as the server tallied it (GET /api/panels/{id}/uptime), drawn
// and never recomputed. A strip of slots (one focusable button each, coloured by the slot's state,
// with a tooltip telling what happened then), a sparkline of each slot's average load time, the up
// ratios over 24 h, 7 d and 30 d, and the panel's health now ("Down since 10:42 (17 min)").
//
// The strip is one tab stop: arrow keys, Home and End move between its slots (a roving tabindex),
// and each slot names its time range and state, its tooltip (role="tooltip", also its
// aria-describedby) the rest. The tooltip is a manual popover, in the top layer, so no panel's
// overflow clips it.
//
// createPanelTimeline() is the card's section and decides when to ask: when the panel is first drawn,
// config.uptime.settleMs after its phase turns loaded or error, every config.uptime.refreshMs, and
// again when the state document is replaced; only while the panel is on screen.
import { config } from "./config.js";
import { h, replaceChildren } from "./dom.js";

/** @typedef {import('./types.js').UptimeReport} UptimeReport */
/** @typedef {import('./types.js').UptimeSlot} UptimeSlot */
/** @typedef {import('./types.js').CurrentHealth} CurrentHealth */
/** @typedef {import('./types.js').TimeStretch} TimeStretch */
/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./types.js').HistorySettings} HistorySettings */
/** @typedef {HTMLElement & {showPopover(): void, hidePopover(): void}} PopoverElement */

const SVG_NS = "http://www.w3.org/2000/svg";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const SLOT_STATE = /** @type {Record<string, string>} */ ({
  up: "Up",
  down: "Down",
  degraded: "Up and down",
  loading: "Loading",
  none: "No data",
});

const CURRENT_STATE = /** @type {Record<string, string>} */ ({
  up: "Up",
  down: "Down",
  loading: "Loading",
  unknown: "Unknown",
});

// ---- formatting ---------------------------------------------------------------------------------

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
 * @param {number} n
 * @param {string} one
 * @param {string} many
 */
function count(n, one, many) {
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
  if (times.length) lines.push(capitalize(times.join(", ")));
  lines.push(`${count(slot.loads, "load", "loads")}, ${slot.failures ? count(slot.failures, "failure", "failures") : "no failures"}`);
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
 * The strip's text alternative: "Last 24 h: 99.9 % up, 2 failures".
 * @param {UptimeReport} report
 * @param {number} spanMs the span the strip was asked for
 */
export function stripSummary(report, spanMs) {
  const ratio = spanMs === DAY ? report["24h"] : spanMs === 7 * DAY ? report["7d"] : spanMs === 30 * DAY ? report["30d"] : undefined;
  const parts = [];
  if (ratio !== undefined) parts.push(ratio === null ? "no uptime data" : `${ratioText(ratio)} up`);
  let failures = 0;
  for (const slot of report.slots) failures += slot.failures;
  parts.push(failures ? count(failures, "failure", "failures") : "no failures");
  return `Last ${spanText(spanMs)}: ${parts.join(", ")}`;
}

// ---- the strip, the sparkline and the tooltip -----------------------------------------------------

let tipIds = 0;

/**
 * A timeline: the strip of slots, the sparkline, and the slots' tooltip. `render` draws a report.
 * @param {{testid?: string, compact?: boolean, onSlot?: (slot: UptimeSlot, btn: HTMLButtonElement) => void}} [opts]
 *   compact: the strip and its tooltip alone (a line of the compact overview); onSlot: a slot was
 *   activated (click, Enter, Space)
 */
export function createTimeline(opts = {}) {
  const tipId = `timeline-tip-${++tipIds}`;
  /** @type {HTMLElement} */
  const tipElement = h("div", {
    class: "timeline-tip",
    attrs: { id: tipId, role: "tooltip", popover: "manual" },
    data: { testid: "timeline-tooltip" },
  });
  const tip = /** @type {PopoverElement} */ (tipElement);
  const strip = h("div", {
    class: "timeline-strip",
    attrs: { role: "group" },
    data: { testid: "timeline-strip" },
  });
  const axisStart = h("span", { data: { testid: "timeline-start" } });
  const axisEnd = h("span", { data: { testid: "timeline-end" } });
  const axis = h("div", { class: "timeline-axis", attrs: { "aria-hidden": "true" } }, axisStart, axisEnd);
  const sparkBox = h("div", { class: "sparkline-box" });
  const el = opts.compact
    ? h("div", { class: ["timeline", "timeline-compact"], data: { testid: opts.testid ?? "timeline" } }, strip, tip)
    : h("div", { class: "timeline", data: { testid: opts.testid ?? "timeline" } }, strip, axis, sparkBox, tip);

  /** @type {UptimeSlot[]} */
  let slots = [];
  let withDay = false;
  /** The slot in the tab order (the roving tabindex), counted from the newest: 0 is the newest. */
  let rovingFromEnd = 0;
  /** @type {HTMLButtonElement | null} the slot whose tooltip shows */
  let tipFor = null;
  /** @type {HTMLButtonElement | null} */
  let hovered = null;

  const buttons = () => /** @type {HTMLButtonElement[]} */ ([...strip.querySelectorAll("button.slot")]);

  /** @param {HTMLButtonElement} btn */
  function slotOf(btn) {
    return slots[Number(btn.dataset.index)];
  }

  /** @param {HTMLButtonElement} btn */
  function showTip(btn) {
    const slot = slotOf(btn);
    if (!slot) return;
    tipFor = btn;
    replaceChildren(
      tip,
      h("strong", { class: "timeline-tip-head", text: `${slotRangeText(slot, withDay)} · ${SLOT_STATE[slot.state] ?? slot.state}` }),
      slotFacts(slot).map((line) => h("span", { class: "timeline-tip-line", text: line })),
    );
    tip.dataset.state = slot.state;
    try {
      if (!tip.matches(":popover-open")) tip.showPopover();
    } catch {
      tip.hidden = false;
    }
    place(btn);
  }

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

  function hideTip() {
    tipFor = null;
    try {
      if (tip.matches(":popover-open")) tip.hidePopover();
    } catch {
      tip.hidden = true;
    }
  }

  /** Shows the tooltip of the hovered slot, else of the focused one, else none. */
  function syncTip() {
    const focused = strip.contains(document.activeElement) ? /** @type {HTMLButtonElement} */ (document.activeElement) : null;
    const target = hovered ?? (focused && focused.matches("button.slot") ? focused : null);
    if (target) showTip(target);
    else hideTip();
  }

  /** @param {number} index */
  function moveTo(index) {
    const all = buttons();
    if (!all.length) return;
    const i = Math.max(0, Math.min(all.length - 1, index));
    for (const b of all) b.tabIndex = -1;
    all[i].tabIndex = 0;
    rovingFromEnd = all.length - 1 - i;
    all[i].focus();
  }

  strip.addEventListener("keydown", (ev) => {
    const btn = /** @type {HTMLElement} */ (ev.target).closest("button.slot");
    if (!(btn instanceof HTMLButtonElement)) return;
    const i = Number(btn.dataset.index);
    const all = buttons();
    /** @type {number | null} */
    let next = null;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") next = i + 1;
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") next = i - 1;
    else if (ev.key === "Home") next = 0;
    else if (ev.key === "End") next = all.length - 1;
    else if (ev.key === "PageUp") next = i - 10;
    else if (ev.key === "PageDown") next = i + 10;
    else if (ev.key === "Escape" && tipFor) {
      // The tooltip is dismissed without moving focus; a dialog around the strip stays open.
      ev.preventDefault();
      ev.stopPropagation();
      hovered = null;
      hideTip();
      return;
    }
    if (next === null) return;
    ev.preventDefault();
    moveTo(next);
  });
  strip.addEventListener("focusin", (ev) => {
    const btn = /** @type {HTMLElement} */ (ev.target);
    if (!btn.matches("button.slot")) return;
    for (const b of buttons()) b.tabIndex = b === btn ? 0 : -1;
    rovingFromEnd = buttons().length - 1 - Number(btn.dataset.index);
    syncTip();
  });
  strip.addEventListener("focusout", (ev) => {
    const to = /** @type {FocusEvent} */ (ev).relatedTarget;
    if (to instanceof Node && strip.contains(to)) return;
    queueMicrotask(syncTip);
  });
  strip.addEventListener("pointerover", (ev) => {
    const btn = /** @type {HTMLElement} */ (ev.target).closest("button.slot");
    if (!(btn instanceof HTMLButtonElement) || btn === hovered) return;
    hovered = btn;
    syncTip();
  });
  strip.addEventListener("pointerleave", () => {
    hovered = null;
    syncTip();
  });
  strip.addEventListener("click", (ev) => {
    const btn = /** @type {HTMLElement} */ (ev.target).closest("button.slot");
    if (!(btn instanceof HTMLButtonElement) || !opts.onSlot) return;
    const slot = slotOf(btn);
    if (slot) opts.onSlot(slot, btn);
  });
  // The page scrolls under a fixed tooltip: it follows its slot.
  window.addEventListener("scroll", () => {
    if (tipFor?.isConnected) place(tipFor);
  }, { passive: true, capture: true });

  /**
   * Draws a report.
   * @param {UptimeReport} report
   * @param {{spanMs: number}} shape the span the report was asked for
   */
  function render(report, shape) {
    const focusedIndex = strip.contains(document.activeElement)
      ? Number(/** @type {HTMLElement} */ (document.activeElement).dataset.index)
      : null;
    const hoveredIndex = hovered ? Number(hovered.dataset.index) : null;
    slots = Array.isArray(report.slots) ? report.slots : [];
    const first = slots.length ? Date.parse(slots[0].from) : NaN;
    const last = slots.length ? Date.parse(slots[slots.length - 1].to) : NaN;
    withDay = !Number.isNaN(first) && !Number.isNaN(last) && new Date(first).toDateString() !== new Date(last).toDateString();
    const roving = Math.max(0, slots.length - 1 - rovingFromEnd);
    strip.setAttribute("aria-label", stripSummary(report, shape.spanMs));
    strip.dataset.slots = String(slots.length);
    replaceChildren(
      strip,
      slots.map((slot, i) =>
        h("button", {
          class: "slot",
          attrs: {
            type: "button",
            tabindex: i === roving ? 0 : -1,
            "aria-label": `${slotRangeText(slot, withDay)}: ${SLOT_STATE[slot.state] ?? slot.state}`,
            "aria-describedby": tipId,
          },
          data: {
            testid: "timeline-slot", index: i, state: slot.state, from: slot.from, to: slot.to,
            unwatched: overlapsUnwatched(slot, report.unwatched) ? "true" : undefined,
          },
        }),
      ),
    );
    axisStart.textContent = Number.isNaN(first) ? "" : momentText(first, last);
    axisEnd.textContent = slots.length ? "now" : "";
    if (slots.length && !Number.isNaN(last) && last < Date.now() - 2 * (report.slotMs || 0)) {
      axisEnd.textContent = momentText(last, last);
    }
    if (!opts.compact) replaceChildren(sparkBox, sparkline(slots));
    const all = buttons();
    hovered = hoveredIndex !== null && all[hoveredIndex] ? all[hoveredIndex] : null;
    if (focusedIndex !== null && !Number.isNaN(focusedIndex) && all.length) {
      const i = Math.min(all.length - 1, focusedIndex);
      for (const b of all) b.tabIndex = -1;
      all[i].tabIndex = 0;
      all[i].focus({ preventScroll: true });
    }
    syncTip();
  }

  return { el, render, hideTip };
}

/**
 * The average load time of each slot as a polyline, broken where a slot has no timed load; null
 * when no slot has one.
 * @param {UptimeSlot[]} slots
 */
function sparkline(slots) {
  const values = slots.map((s) => (typeof s.avgMs === "number" && Number.isFinite(s.avgMs) ? s.avgMs : null));
  const known = /** @type {number[]} */ (values.filter((v) => v !== null));
  if (!known.length) return null;
  const top = Math.max(...known, 1);
  const low = Math.min(...known);
  const height = 100;
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "sparkline");
  svg.setAttribute("viewBox", `0 0 ${slots.length} ${height}`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("role", "img");
  svg.setAttribute("data-testid", "sparkline");
  svg.setAttribute(
    "aria-label",
    `Average load time per slot: ${loadTimeText(low)} to ${loadTimeText(top)}, in ${count(known.length, "slot", "slots")} with timed loads`,
  );
  /** @type {string[]} */
  let run = [];
  /** @type {number[]} */
  let runX = [];
  const y = (/** @type {number} */ v) => (height - 4 - (v / top) * (height - 8)).toFixed(2);
  const flush = () => {
    if (!run.length) return;
    const line = document.createElementNS(SVG_NS, "polyline");
    // A slot alone is drawn as a short level stroke across its width, so it is seen at all.
    const points = run.length === 1 ? [`${(runX[0] - 0.35).toFixed(2)},${run[0]}`, `${(runX[0] + 0.35).toFixed(2)},${run[0]}`] : run.map((v, k) => `${runX[k].toFixed(2)},${v}`);
    line.setAttribute("points", points.join(" "));
    line.setAttribute("data-testid", "sparkline-run");
    svg.appendChild(line);
    run = [];
    runX = [];
  };
  values.forEach((v, i) => {
    if (v === null) {
      flush();
      return;
    }
    run.push(y(v));
    runX.push(i + 0.5);
  });
  flush();
  return h(
    "div",
    { class: "sparkline-wrap" },
    h("span", { class: "sparkline-scale", attrs: { "aria-hidden": "true" }, text: `load time · peak ${loadTimeText(top)}` }),
    svg,
  );
}

// ---- "Down since 10:42 (17 min)", kept current ----------------------------------------------------

/**
 * The health-now line; refreshSince() keeps its relative part current.
 * @param {CurrentHealth | null | undefined} current
 * @param {string} [testid]
 */
export function currentLine(current, testid = "current-health") {
  const el = h("p", { class: "current-health", data: { testid } });
  setCurrentLine(el, current);
  return el;
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

/**
 * Redraws a health-now line.
 * @param {HTMLElement} el
 * @param {CurrentHealth | null | undefined} current
 * @param {TimeStretch[]} [unwatched] the report's stretches not watched
 */
export function setCurrentLine(el, current, unwatched = []) {
  const gap = current ? unwatched.find((stretch) => stretch.to === current.watchedSince) : undefined;
  for (const [key, value] of Object.entries({ state: current?.state, since: current?.since,
    watchedSince: current?.watchedSince, notWatchedFrom: gap?.from })) {
    if (current && typeof current.since === "string" && value) el.dataset[key] = value;
    else delete el.dataset[key];
  }
  const text = currentText(current, Date.now(), gap?.from);
  if (el.textContent !== text) el.textContent = text;
}

/**
 * Updates every health-now line under `root`.
 * @param {ParentNode} root
 */
export function refreshSince(root) {
  const now = Date.now();
  for (const node of root.querySelectorAll(".current-health[data-since]")) {
    const el = /** @type {HTMLElement} */ (node);
    const state = /** @type {CurrentHealth["state"]} */ (el.dataset.state ?? "unknown");
    const text = currentText({ state, since: el.dataset.since ?? "", watchedSince: el.dataset.watchedSince },
      now, el.dataset.notWatchedFrom);
    if (el.textContent !== text) el.textContent = text;
  }
}

/**
 * The three up ratios as a description list.
 * @param {UptimeReport} report
 */
export function ratioList(report) {
  /** @type {[string, string, number | null | undefined][]} */
  const rows = [["24h", "24 h", report["24h"]], ["7d", "7 d", report["7d"]], ["30d", "30 d", report["30d"]]];
  return h(
    "dl",
    { class: "uptime", data: { testid: "uptime" } },
    rows.map(([key, label, ratio]) =>
      h(
        "div",
        { class: "uptime-figure", data: { testid: `uptime-${key}` } },
        h("dt", { text: label }),
        h("dd", { text: ratioText(ratio), attrs: { title: typeof ratio === "number" ? `Up ${ratioText(ratio)} of the time it was checked` : "No data" } }),
      ),
    ),
  );
}

// ---- the card's section ---------------------------------------------------------------------------

/**
 * @typedef {object} PanelTimelineOptions
 * @property {(query: {span: string, slots: number}) => Promise<import('./api.js').ReadResult<UptimeReport>>} load
 * @property {() => HistorySettings | null | undefined} settings the server's timeline settings, now
 * @property {(available: boolean) => void} onAvailable whether the server keeps a history of the panel
 * @property {Element} watch the element whose visibility decides whether to ask
 * @property {(slot: UptimeSlot, opener: HTMLElement) => void} [onSlot] a slot was activated
 * @property {boolean} [compact] the strip alone, drawn small (a line of the compact overview)
 */

/**
 * The card's timeline section: health now, up ratios, strip and sparkline (or, compact, the strip
 * alone); hidden until the server has answered with a report.
 * @param {string} panelId
 * @param {PanelTimelineOptions} opts
 */
export function createPanelTimeline(panelId, opts) {
  const timeline = createTimeline({
    compact: opts.compact,
    onSlot: (slot, btn) => opts.onSlot?.(slot, btn),
  });
  const current = currentLine(null);
  const ratios = h("div", { class: "uptime-slot" });
  const el = h(
    "div",
    {
      class: ["panel-history", opts.compact ? "panel-history-compact" : null],
      data: { testid: "panel-history", "panel-id": panelId },
      attrs: { hidden: true },
    },
    opts.compact ? null : h("div", { class: "panel-history-head" }, current, ratios),
    timeline.el,
  );

  let visible = false;
  /** Following the server's timeline: history is on and the panel has been drawn. */
  let active = false;
  /** A request is owed: asked for while the panel was off screen. */
  let owed = false;
  let inFlight = false;
  let again = false;
  let sequence = 0;
  /** @type {string | null} */
  let lastPhase = null;
  /** The server's timeline settings the last request was made for. */
  let askedFor = "";
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let settleTimer;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let refreshTimer;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let seenTimer;

  // A panel asks once it has stayed on screen a moment: scrolling through thousands of panels
  // asks for none of those that only flew by.
  const observer =
    "IntersectionObserver" in globalThis
      ? new IntersectionObserver((entries) => {
          for (const e of entries) visible = e.isIntersecting;
          clearTimeout(seenTimer);
          if (visible && owed) {
            seenTimer = setTimeout(() => {
              if (visible && owed) void fetchNow();
            }, config.uptime.seenMs);
          }
        })
      : null;
  if (observer) observer.observe(opts.watch);
  else visible = true;

  /** @param {boolean} on */
  function setAvailable(on) {
    el.hidden = !on;
    opts.onAvailable(on);
  }

  async function fetchNow() {
    const settings = opts.settings();
    if (!settings || !active) return;
    if (!visible) {
      owed = true;
      return;
    }
    if (inFlight) {
      again = true;
      return;
    }
    owed = false;
    inFlight = true;
    const mine = ++sequence;
    const spanMs = settings.timelineSpanMs;
    try {
      const res = await opts.load({ span: spanParam(spanMs), slots: settings.timelineSlots });
      if (mine !== sequence || !active) return;
      if (!res.ok) {
        // No history of this panel (unknown to the server, or history off): nothing to draw. Other
        // failures keep what is drawn; the next refresh tries again.
        if (res.failure.status === 404) setAvailable(false);
        return;
      }
      const report = res.data;
      setAvailable(true);
      replaceChildren(ratios, ratioList(report));
      setCurrentLine(current, report.current, report.unwatched);
      timeline.render(report, { spanMs });
    } finally {
      if (mine === sequence) inFlight = false;
      if (again && !inFlight) {
        again = false;
        void fetchNow();
      }
    }
  }

  function stop() {
    active = false;
    owed = false;
    again = false;
    inFlight = false;
    sequence++;
    clearTimeout(settleTimer);
    clearTimeout(seenTimer);
    clearInterval(refreshTimer);
    refreshTimer = undefined;
    timeline.hideTip();
    setAvailable(false);
  }

  /** Asks again once a burst of changes has settled. */
  function refreshSoon() {
    clearTimeout(settleTimer);
    settleTimer = setTimeout(() => void fetchNow(), config.uptime.settleMs);
  }

  return {
    el,
    /**
     * Follows a new state of the panel.
     * @param {PanelState} s
     */
    update(s) {
      const settings = opts.settings();
      const changed = lastPhase !== null && s.phase !== lastPhase && (s.phase === "loaded" || s.phase === "error");
      lastPhase = s.phase;
      if (!settings) {
        if (active) stop();
        return;
      }
      const key = JSON.stringify(settings);
      if (!active) {
        active = true;
        askedFor = key;
        refreshTimer = setInterval(() => void fetchNow(), config.uptime.refreshMs);
        void fetchNow();
      } else if (key !== askedFor) {
        askedFor = key;
        void fetchNow();
      } else if (changed) {
        refreshSoon();
      }
    },
    /** Asks again soon (the state document was replaced: the server may have restarted). */
    refreshSoon,
    /** Stops asking (the panel left the deck). */
    destroy() {
      stop();
      observer?.disconnect();
    },
  };
}
