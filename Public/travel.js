// @ts-check
// Time travel: the whole board as it was at a moment (GET /api/state?at=, PROTOCOL.md "Moments").
// Opened at `/?at=<ISO>` the page never goes live (app.js opens no stream) and "Back to live"
// loads the live page; moved to a moment from the live page (the header's "History" timeline),
// the stream's events wait unapplied and "Back to live" takes the live state again. While a past
// moment is shown every control that acts is disabled through access.js, with one sentence.
import { config } from "./config.js";
import { button } from "./dom.js";
import { setPast } from "./access.js";
import { readAt, writeAt } from "./travel-url.js";
import { createMomentBanner } from "./travel-banner.js";
import { createStrip, spanMs } from "./travel-strip.js";
import { createChangesView } from "./travel-changes.js";
import { createMarksReloader } from "./travel-reload.js";
import { createSpanChanges } from "./travel-marks.js";

/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./types.js').Moment} Moment */
/** @typedef {import('./types.js').DeckChange} DeckChange */
/** @typedef {import('./travel-strip.js').Span} Span */

/** The reason every control that acts gives while a past moment is shown. */
export const pastReason = "This is a past moment";

/**
 * What the strip spans: the span up to `to`, or from the oldest instant kept when that is later
 * (`since`), so no part of it is a moment the server refuses.
 * @param {Span} span
 * @param {number} to
 * @param {number | null} oldest
 */
function stripRange(span, to, oldest) {
  const from = to - spanMs[span];
  return oldest !== null && oldest > from ? { from: oldest, to, since: true } : { from, to, since: false };
}

/**
 * The change to step to from `ms` (null: live, the strip's end): the newest before it, or the
 * oldest after it; null past the newest (live again) or before the oldest (stay).
 * @param {DeckChange[]} changes oldest first
 * @param {number | null} ms
 * @param {-1 | 1} direction
 */
export function stepTarget(changes, ms, direction) {
  if (direction < 0) {
    const before = changes.filter((c) => ms === null || Date.parse(c.at) < ms);
    return before[before.length - 1] ?? null;
  }
  if (ms === null) return null;
  return changes.find((c) => Date.parse(c.at) > ms) ?? null;
}

/**
 * @typedef {object} TravelHooks
 * @property {(moment: Moment) => void} onMoment draw this moment's document
 * @property {() => void} onLive take the live state again (only for a page that was live)
 * @property {() => void} onFailed the moment asked cannot be shown (the banner says why)
 */

/**
 * @param {{api: Api, host: HTMLElement, before: HTMLElement | null, banner: HTMLElement, region: HTMLElement} & TravelHooks} opts
 *   host: the header's tools, before: the element the History button goes before; banner:
 *   #moment-banner; region: #travel, where the timeline opens
 * @returns {{bootedAt: string | null, deckChanged: () => void}} bootedAt: the moment the page was
 *   opened at; deckChanged: call when the live deck changed, so the open strip reads its marks again
 */
export function installTravel(opts) {
  const bootedAt = readAt(location.search);
  const moments = momentLoader(opts);
  const timeline = createTimeline(opts.api, moments);
  opts.region.append(timeline.strip.el, timeline.changesView.el);
  const openButton = button({
    label: "History",
    icon: "clock",
    class: ["btn-small", "btn-ghost"],
    testid: "travel-open",
    title: "The whole deck over time: move the board to a past moment",
    onClick: () => toggle(),
  });
  openButton.setAttribute("aria-expanded", "false");
  openButton.setAttribute("aria-controls", opts.region.id);
  opts.host.insertBefore(openButton, opts.before);

  function toggle() {
    const open = opts.region.hidden;
    opts.region.hidden = !open;
    openButton.setAttribute("aria-expanded", String(open));
    timeline.shownOrHidden(open);
    if (open) timeline.strip.focus();
  }

  moments.onLiveAsked(() => {
    if (bootedAt !== null) {
      writeAt(null);
      location.reload();
      return;
    }
    timeline.wentLive();
  });
  if (bootedAt !== null) {
    void moments.show(bootedAt).then((moment) => {
      if (moment) timeline.chose(Date.parse(moment.at));
    });
  }
  return { bootedAt, deckChanged: timeline.deckChanged };
}

/**
 * Asks for moments and shows them: the board, the banner, the address, the disabled controls.
 * Only the newest moment asked is drawn.
 * @param {{api: Api, banner: HTMLElement} & TravelHooks} opts
 */
function momentLoader(opts) {
  /** @type {() => void} */
  let liveAsked = () => {};
  const banner = createMomentBanner(opts.banner, { onLive: () => liveAsked() });
  let asked = 0;
  let past = false;
  return {
    /** @param {() => void} handler what "Back to live" (or Escape, or stepping past the newest) does */
    onLiveAsked(handler) {
      liveAsked = handler;
    },
    askLive: () => liveAsked(),
    /** Shows the live board again (the address and the banner say so at once). */
    live() {
      asked++;
      writeAt(null);
      banner.hide();
      if (!past) return;
      past = false;
      setPast(null);
      opts.onLive();
    },
    /**
     * Asks for the moment at `at`; the board stays as it is until it comes, and when it cannot
     * be shown (the banner says why).
     * @param {string} at ISO time
     * @returns {Promise<Moment | null>} the moment shown, null when another was asked since or it cannot be shown
     */
    async show(at) {
      const mine = ++asked;
      writeAt(at);
      const answer = await opts.api.stateAt(at);
      if (mine !== asked) return null;
      if (!answer.ok) {
        banner.showFailure(answer.failure.message);
        opts.onFailed();
        return null;
      }
      past = true;
      setPast(pastReason);
      opts.onMoment(answer.data);
      banner.showMoment(answer.data);
      return answer.data;
    },
  };
}

/**
 * "What changed" over the hour before a moment, nearest it first (a page of them, however many came
 * before on a busy deck): only the newest asked is drawn.
 * @param {Api} api
 * @param {ReturnType<typeof createChangesView>} changesView
 */
function changesLister(api, changesView) {
  let listed = 0;
  /** @param {number} ms the moment shown */
  return async (ms) => {
    const mine = ++listed;
    const range = { from: new Date(ms - config.travel.beforeMs).toISOString(), to: new Date(ms).toISOString() };
    changesView.draw(range, null);
    const answer = await api.changes({ ...range, limit: config.travel.pageSize, order: "newest" });
    if (mine === listed) changesView.draw(range, answer);
  };
}

/**
 * @typedef {object} StripMarks the changes the strip marks, and where it starts
 * @property {DeckChange[]} changes oldest first
 * @property {number | null} since the oldest instant kept, where the strip starts when later than the span's start
 */

/**
 * @typedef {object} TimelineChoice what the timeline shows
 * @property {Span} span
 * @property {number | null} chosen the moment chosen, null live
 */

/**
 * The span's changes and incidents up to now, drawn as marks, with the scrubber on the moment
 * chosen when they come (at the strip's end while live).
 * @param {Api} api
 * @param {ReturnType<typeof createStrip>} strip
 * @param {TimelineChoice} shown
 */
function marksLoader(api, strip, shown) {
  /** @type {Promise<StripMarks> | null} */
  let loading = null;
  const spanChanges = createSpanChanges(api);
  function load() {
    const span = shown.span;
    const to = Date.now();
    loading = Promise.all([spanChanges.read(to - spanMs[span], to), api.listIncidents(500)]).then(
      ([{ changes, oldest }, incidents]) => {
        const range = stripRange(span, to, oldest);
        strip.drawMarks({ span, ...range, changes, incidents: incidents.ok ? incidents.data.incidents : [] });
        strip.drawThumb(shown.chosen);
        return { changes, since: range.since ? range.from : null };
      },
    );
    return loading;
  }
  return {
    load,
    /** The changes read last, reading them first when the timeline has not. */
    changes: () => loading ?? load(),
  };
}

/**
 * The timeline's strip and "What changed", and the moment they have chosen. While the strip is
 * open its marks are read again as the deck changes and as time passes (travel-reload.js).
 * @param {Api} api
 * @param {ReturnType<typeof momentLoader>} moments
 */
function createTimeline(api, moments) {
  /** @type {TimelineChoice} */
  const shown = { span: "24h", chosen: null };
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let restTimer;
  const changesView = createChangesView({ onPick: (c) => choose(Date.parse(c.at), true) });
  const listChanges = changesLister(api, changesView);
  const strip = createStrip({
    onScrub: (ms, settled) => choose(ms, settled),
    onStep: (direction) => void steps.step(direction),
    onEdge: (edge) => void steps.edge(edge),
    onSpan: (s) => {
      shown.span = s;
      reloader.now();
    },
    onLive: () => moments.askLive(),
  });
  changesView.draw(null, null);
  strip.drawThumb(null);

  const marks = marksLoader(api, strip, shown);
  const reloader = createMarksReloader(marks.load);
  const steps = stepper(marks, moments, shown, (ms) => choose(ms, true));

  /**
   * Moves the board to `ms`: the scrubber at once, the board once a drag rests (or at once).
   * @param {number} ms
   * @param {boolean} settled
   */
  function choose(ms, settled) {
    const at = Math.min(ms, Date.now());
    shown.chosen = at;
    strip.drawThumb(at);
    clearTimeout(restTimer);
    const go = () => {
      void moments.show(new Date(at).toISOString());
      void listChanges(at);
    };
    if (settled) go();
    else restTimer = setTimeout(go, config.travel.dragRestMs);
  }

  return {
    strip,
    changesView,
    /** The strip opened (read its marks, and keep them fresh) or closed. */
    shownOrHidden: (/** @type {boolean} */ open) => (open ? reloader.open() : reloader.close()),
    /** The live deck changed: the strip, when open, reads its marks again soon. */
    deckChanged: () => reloader.changed(),
    /** The page opened at this moment: the strip and the list say so. */
    chose: (/** @type {number} */ ms) => {
      shown.chosen = ms;
      strip.drawThumb(ms);
      void listChanges(ms);
    },
    wentLive() {
      clearTimeout(restTimer);
      shown.chosen = null;
      strip.drawThumb(null);
      changesView.draw(null, null);
      moments.live();
    },
  };
}

/**
 * ←/→ and Home/End on the strip: to the changes read last.
 * @param {ReturnType<typeof marksLoader>} marks
 * @param {ReturnType<typeof momentLoader>} moments
 * @param {TimelineChoice} shown
 * @param {(ms: number) => void} choose
 */
function stepper(marks, moments, shown, choose) {
  return {
    /** @param {-1 | 1} direction */
    async step(direction) {
      const { changes } = await marks.changes();
      const target = stepTarget(changes, shown.chosen, direction);
      if (target) choose(Date.parse(target.at));
      else if (direction > 0 && shown.chosen !== null) moments.askLive();
    },
    /**
     * The newest change, or the oldest: the oldest moment kept where the strip starts there.
     * @param {"first" | "last"} edge
     */
    async edge(edge) {
      const { changes, since } = await marks.changes();
      if (edge === "first" && since !== null) return choose(since);
      const target = edge === "first" ? changes[0] : changes[changes.length - 1];
      if (target) choose(Date.parse(target.at));
    },
  };
}
