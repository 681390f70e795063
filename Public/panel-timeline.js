// @ts-check
// A card's timeline section (or a compact line's strip), and when it is asked for: when the panel is
// first drawn, config.uptime.settleMs after its phase turns loaded or error, every
// config.uptime.refreshMs while the board is live, and again when the state document is replaced (a
// past moment shown, or the live board again); only while the panel is on screen. While the board
// shows a past moment (shown-moment.js) the timeline ends at it (`to`), and is drawn as of it. One
// request runs at a time (one asked for meanwhile is sent after it), and the answer to a request
// that was overtaken, or to one sent before the panel stopped following, is dropped.
import { config } from "./config.js";
import { h, replaceChildren } from "./dom.js";
import { createTimeline } from "./timeline.js";
import { currentLine, setCurrentLine, ratioList } from "./timeline-figures.js";
import { spanParam } from "./timeline-text.js";
import { shownMoment } from "./shown-moment.js";

/** @typedef {import('./types.js').UptimeReport} UptimeReport */
/** @typedef {import('./types.js').UptimeSlot} UptimeSlot */
/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./types.js').HistorySettings} HistorySettings */

/**
 * @typedef {object} PanelTimelineOptions
 * @property {(query: {span: string, slots: number, to?: string}) => Promise<import('./api.js').ReadResult<UptimeReport>>} load
 * @property {() => HistorySettings | null | undefined} settings the server's timeline settings, now
 * @property {(available: boolean) => void} onAvailable whether the server keeps a history of the panel
 * @property {Element} watch the element whose visibility decides whether to ask
 * @property {(slot: UptimeSlot, opener: HTMLElement) => void} [onSlot] a slot was activated
 * @property {boolean} [compact] the strip alone, drawn small (a line of the compact overview)
 */

/**
 * @typedef {object} Asking a section's requests, and what decides when the next one is sent
 * @property {PanelTimelineOptions} opts
 * @property {TimelineSection} section
 * @property {boolean} visible
 * @property {boolean} active following the server's timeline: history is on and the panel has been drawn
 * @property {boolean} owed a request is owed: asked for while the panel was off screen
 * @property {boolean} inFlight
 * @property {boolean} again asked for while one was in flight: sent once it ends
 * @property {number} sequence
 * @property {string | null} lastPhase
 * @property {string} askedFor the server's timeline settings the last request was made for
 * @property {ReturnType<typeof setTimeout> | undefined} settleTimer
 * @property {ReturnType<typeof setInterval> | undefined} refreshTimer
 * @property {ReturnType<typeof setTimeout> | undefined} seenTimer
 */

/**
 * The card's timeline section: health now, up ratios, strip and sparkline (or, compact, the strip
 * alone); hidden until the server has answered with a report.
 * @param {string} panelId
 * @param {PanelTimelineOptions} opts
 */
export function createPanelTimeline(panelId, opts) {
  const section = timelineSection(panelId, opts);
  /** @type {Asking} */
  const asking = {
    opts,
    section,
    visible: false,
    active: false,
    owed: false,
    inFlight: false,
    again: false,
    sequence: 0,
    lastPhase: null,
    askedFor: "",
    settleTimer: undefined,
    refreshTimer: undefined,
    seenTimer: undefined,
  };
  const observer = watchOnScreen(asking);
  if (observer) observer.observe(opts.watch);
  else asking.visible = true;

  return {
    el: section.el,
    /**
     * Follows a new state of the panel.
     * @param {PanelState} s
     */
    update: (s) => follow(asking, s),
    /** Asks again soon (the state document was replaced: the server may have restarted). */
    refreshSoon: () => refreshSoon(asking),
    /** Stops asking (the panel left the deck). */
    destroy() {
      stop(asking);
      observer?.disconnect();
    },
  };
}

/**
 * The section's elements, and how a report is drawn in them.
 * @param {string} panelId @param {PanelTimelineOptions} opts
 */
function timelineSection(panelId, opts) {
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
  /** @param {boolean} on whether the server keeps a history of the panel */
  function setAvailable(on) {
    el.hidden = !on;
    opts.onAvailable(on);
  }
  return {
    el,
    setAvailable,
    hideTip: timeline.hideTip,
    /**
     * @param {UptimeReport} report @param {number} spanMs the span it was asked for
     * @param {number | null} to the past moment it ends at (epoch ms), null for now
     */
    draw(report, spanMs, to) {
      setAvailable(true);
      replaceChildren(ratios, ratioList(report));
      setCurrentLine(current, report.current, report.unwatched, to);
      timeline.render(report, { spanMs, to });
    },
  };
}

/** @typedef {ReturnType<typeof timelineSection>} TimelineSection */

/**
 * A panel asks once it has stayed on screen a moment: scrolling through thousands of panels asks for
 * none of those that only flew by. Null where there is no IntersectionObserver (always on screen).
 * @param {Asking} a
 */
function watchOnScreen(a) {
  if (!("IntersectionObserver" in globalThis)) return null;
  return new IntersectionObserver((entries) => {
    for (const e of entries) a.visible = e.isIntersecting;
    clearTimeout(a.seenTimer);
    if (a.visible && a.owed) {
      a.seenTimer = setTimeout(() => {
        if (a.visible && a.owed) void fetchNow(a);
      }, config.uptime.seenMs);
    }
  });
}

/** @param {Asking} a */
async function fetchNow(a) {
  const settings = a.opts.settings();
  if (!settings || !a.active) return;
  if (!a.visible) {
    a.owed = true;
    return;
  }
  if (a.inFlight) {
    a.again = true;
    return;
  }
  a.owed = false;
  a.inFlight = true;
  const mine = ++a.sequence;
  const spanMs = settings.timelineSpanMs;
  const to = shownMoment();
  try {
    const query = { span: spanParam(spanMs), slots: settings.timelineSlots };
    const res = await a.opts.load(to === null ? query : { ...query, to });
    if (mine !== a.sequence || !a.active) return;
    if (!res.ok) {
      // No history of this panel (unknown to the server, or history off): nothing to draw. Other
      // failures keep what is drawn; the next refresh tries again.
      if (res.failure.status === 404) a.section.setAvailable(false);
      return;
    }
    a.section.draw(res.data, spanMs, to === null ? null : Date.parse(to));
  } finally {
    if (mine === a.sequence) a.inFlight = false;
    if (a.again && !a.inFlight) {
      a.again = false;
      void fetchNow(a);
    }
  }
}

/**
 * Follows a new state of the panel: starts asking once history is on, asks again when the server's
 * timeline settings change or soon after a load ends, stops when history is off.
 * @param {Asking} a @param {PanelState} s
 */
function follow(a, s) {
  const settings = a.opts.settings();
  const changed = a.lastPhase !== null && s.phase !== a.lastPhase && (s.phase === "loaded" || s.phase === "error");
  a.lastPhase = s.phase;
  if (!settings) {
    if (a.active) stop(a);
    return;
  }
  const key = JSON.stringify(settings);
  if (!a.active) {
    a.active = true;
    a.askedFor = key;
    // A past moment's timeline does not change: only the live one is asked again on the timer.
    a.refreshTimer = setInterval(() => {
      if (shownMoment() === null) void fetchNow(a);
    }, config.uptime.refreshMs);
    void fetchNow(a);
  } else if (key !== a.askedFor) {
    a.askedFor = key;
    void fetchNow(a);
  } else if (changed) {
    refreshSoon(a);
  }
}

/** @param {Asking} a */
function stop(a) {
  a.active = false;
  a.owed = false;
  a.again = false;
  a.inFlight = false;
  a.sequence++;
  clearTimeout(a.settleTimer);
  clearTimeout(a.seenTimer);
  clearInterval(a.refreshTimer);
  a.refreshTimer = undefined;
  a.section.hideTip();
  a.section.setAvailable(false);
}

/**
 * Asks again once a burst of changes has settled.
 * @param {Asking} a
 */
function refreshSoon(a) {
  clearTimeout(a.settleTimer);
  a.settleTimer = setTimeout(() => void fetchNow(a), config.uptime.settleMs);
}
