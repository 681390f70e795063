// @ts-check
// The deck-wide timeline: a strip over the last 24 hours or 7 days (from the oldest instant the
// history keeps when that is later: "since …" says so) with each change marked (coloured by the
// health it went to) and each incident marked over the time it was open, and a scrubber on it.
// The strip only draws and reports: where a person dragged, clicked or stepped; travel.js decides
// its range, which moment that is, and moves the board.
import { button, h, replaceChildren } from "./dom.js";
import { momentLabel } from "./travel-url.js";

/** @typedef {import('./types.js').DeckChange} DeckChange */
/** @typedef {import('./types.js').Incident} Incident */
/** @typedef {"24h" | "7d"} Span */

export const spanMs = Object.freeze(/** @type {Record<Span, number>} */ ({ "24h": 86_400_000, "7d": 7 * 86_400_000 }));

/**
 * @typedef {object} StripHandlers
 * @property {(ms: number, settled: boolean) => void} onScrub a drag or a click at that time
 * @property {(direction: -1 | 1) => void} onStep the previous or next change
 * @property {(edge: "first" | "last") => void} onEdge the oldest or newest change
 * @property {(span: Span) => void} onSpan
 * @property {() => void} onLive
 */

/**
 * A segmented pair of span buttons.
 * @param {StripHandlers} handlers
 */
function spanButtons(handlers) {
  /** @type {Record<Span, HTMLButtonElement>} */
  const buttons = {
    "24h": button({ label: "24 h", class: ["btn-small"], testid: "travel-span-24h", onClick: () => handlers.onSpan("24h") }),
    "7d": button({ label: "7 days", class: ["btn-small"], testid: "travel-span-7d", onClick: () => handlers.onSpan("7d") }),
  };
  const group = h("div", { class: "density travel-span", attrs: { role: "group", "aria-label": "Timeline span" } }, buttons["24h"], buttons["7d"]);
  /** @param {Span} span the span drawn */
  const sync = (span) => Object.entries(buttons).forEach(([k, b]) => b.setAttribute("aria-pressed", String(k === span)));
  return { group, sync };
}

/**
 * Keys on the scrubber: ←/→ the previous/next change, Home/End the oldest/newest, Escape live.
 * @param {KeyboardEvent} ev
 * @param {StripHandlers} handlers
 */
function onScrubberKey(ev, handlers) {
  /** @type {Record<string, () => void>} */
  const keys = {
    ArrowLeft: () => handlers.onStep(-1),
    ArrowRight: () => handlers.onStep(1),
    Home: () => handlers.onEdge("first"),
    End: () => handlers.onEdge("last"),
    Escape: () => handlers.onLive(),
  };
  const run = keys[ev.key];
  if (!run) return;
  ev.preventDefault();
  run();
}

/**
 * Drag and click on the track report the time under the pointer: while moving unsettled, on
 * release settled.
 * @param {HTMLElement} track
 * @param {(clientX: number) => number} timeAt
 * @param {StripHandlers} handlers
 */
function followPointer(track, timeAt, handlers) {
  let dragging = false;
  track.addEventListener("pointerdown", (ev) => {
    dragging = true;
    track.setPointerCapture(ev.pointerId);
    handlers.onScrub(timeAt(ev.clientX), false);
  });
  track.addEventListener("pointermove", (ev) => {
    if (dragging) handlers.onScrub(timeAt(ev.clientX), false);
  });
  const end = (/** @type {PointerEvent} */ ev) => {
    if (!dragging) return;
    dragging = false;
    handlers.onScrub(timeAt(ev.clientX), true);
  };
  track.addEventListener("pointerup", end);
  track.addEventListener("pointercancel", end);
}

/**
 * @param {StripHandlers} handlers
 */
export function createStrip(handlers) {
  const marks = h("div", { class: "travel-marks", attrs: { "aria-hidden": "true" } });
  const thumb = h("div", {
    class: "travel-thumb",
    data: { testid: "travel-scrubber" },
    attrs: { role: "slider", tabindex: "0", "aria-label": "Moment shown", "aria-keyshortcuts": "ArrowLeft ArrowRight Home End Escape" },
    on: { keydown: (ev) => onScrubberKey(/** @type {KeyboardEvent} */ (ev), handlers) },
  });
  const track = h("div", { class: "travel-track", data: { testid: "travel-track" } }, marks, thumb);
  const span = spanButtons(handlers);
  const since = h("span", { class: "travel-since", data: { testid: "travel-since" } });
  const label = h("span", { class: "travel-label", data: { testid: "travel-label" }, attrs: { "aria-live": "polite" } });
  const prev = button({ label: "Previous change", icon: "chevron-down", iconOnly: true, class: ["btn-small", "btn-ghost", "travel-prev"], testid: "travel-prev", onClick: () => handlers.onStep(-1) });
  const next = button({ label: "Next change", icon: "chevron-down", iconOnly: true, class: ["btn-small", "btn-ghost", "travel-next"], testid: "travel-next", onClick: () => handlers.onStep(1) });
  const live = button({ label: "Live", class: ["btn-small", "btn-secondary"], testid: "travel-live", onClick: () => handlers.onLive() });
  const el = h("div", { class: "travel-strip" }, h("div", { class: "travel-tools" }, span.group, since, prev, label, next, live), track);
  /** The span drawn: its start and end, in ms. */
  let range = { from: 0, to: 1 };
  const fraction = (/** @type {number} */ ms) => Math.min(1, Math.max(0, (ms - range.from) / (range.to - range.from)));
  // A pointer dragged past an end of the track is at that end: never before the strip's start.
  followPointer(track, (x) => {
    const box = track.getBoundingClientRect();
    const within = Math.min(1, Math.max(0, (x - box.left) / Math.max(1, box.width)));
    return Math.round(range.from + within * (range.to - range.from));
  }, handlers);

  return {
    el,
    focus: () => thumb.focus(),
    /**
     * @param {{span: Span, from: number, to: number, since: boolean, changes: DeckChange[], incidents: Incident[]}} data
     *   since: the strip starts at the oldest instant kept, later than the span's start
     */
    drawMarks(data) {
      range = { from: data.from, to: data.to };
      span.sync(data.span);
      since.textContent = data.since ? `since ${momentLabel(data.from)}` : "";
      since.hidden = !data.since;
      thumb.setAttribute("aria-valuemin", String(range.from));
      thumb.setAttribute("aria-valuemax", String(range.to));
      const incidentMarks = data.incidents.map((i) => incidentMark(i, fraction));
      const changeMarks = data.changes.map((c) => h("span", { class: "travel-mark", data: { health: c.to.health, testid: "travel-mark" }, vars: { "--at": fraction(Date.parse(c.at)) } }));
      replaceChildren(marks, ...incidentMarks, ...changeMarks);
    },
    /** @param {number | null} ms the moment shown, null live (the strip's end) */
    drawThumb(ms) {
      const at = ms ?? range.to;
      thumb.style.setProperty("--at", String(fraction(at)));
      thumb.setAttribute("aria-valuenow", String(at));
      const text = ms === null ? "Live" : momentLabel(ms);
      thumb.setAttribute("aria-valuetext", text);
      label.textContent = text;
      live.hidden = ms === null;
    },
  };
}

/**
 * An incident over the time it was open (to the strip's end while it is).
 * @param {Incident} incident
 * @param {(ms: number) => number} fraction
 */
function incidentMark(incident, fraction) {
  const from = fraction(Date.parse(incident.openedAt));
  const to = fraction(incident.resolvedAt ? Date.parse(incident.resolvedAt) : Date.now());
  return h("span", { class: "travel-incident", data: { testid: "travel-incident" }, attrs: { title: incident.title }, vars: { "--at": from, "--width": Math.max(0.002, to - from) } });
}
