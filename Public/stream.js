// @ts-check
// The one server-sent-events stream (GET /events): connection, reconnection with jittered backoff,
// and a silence watchdog.
//
// Why fetch() and not EventSource: EventSource hides comment lines, and PROTOCOL.md's heartbeat is a
// comment (`: ping`), so an EventSource cannot tell a quiet healthy stream from a dead one; it also
// cannot send Last-Event-ID on a stream it opens itself, nor let us pace its retries. This module reads
// the same text/event-stream format (WHATWG "event stream interpretation") over one fetch() body, sends
// Last-Event-ID on every reconnection (so the server replays what was missed, or sends a snapshot), and
// treats a stream silent for deadStreamFactor × pingInterval as dead.
import { config } from "./config.js";

/** @typedef {import('./types.js').ConnectionState} ConnectionState */

/**
 * @typedef {object} StreamEvent
 * @property {string} type the `event:` field, "message" when absent
 * @property {string} data the `data:` lines joined with "\n"
 * @property {string} lastEventId the stream's last event id after this event ("" when none)
 * @property {boolean} hasId whether this event carried its own `id:` field
 */

/**
 * Incremental parser of the text/event-stream format. Feed it decoded text in any chunking.
 */
export class EventStreamParser {
  /**
   * @param {{onEvent: (e: StreamEvent) => void, onComment?: (text: string) => void,
   *   onRetry?: (ms: number) => void}} handlers
   * @param {string} [lastEventId]
   */
  constructor(handlers, lastEventId = "") {
    this.handlers = handlers;
    this.lastEventId = lastEventId;
    this.buffer = "";
    this.type = "";
    this.data = "";
    this.hasData = false;
    this.hasId = false;
    this.skipLF = false;
  }

  /** @param {string} chunk */
  feed(chunk) {
    let text = chunk;
    if (this.skipLF && text.startsWith("\n")) text = text.slice(1);
    this.skipLF = false;
    this.buffer += text;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== "\n" && c !== "\r") continue;
      this.line(this.buffer.slice(start, i));
      if (c === "\r") {
        if (i + 1 < this.buffer.length) {
          if (this.buffer[i + 1] === "\n") i++;
        } else {
          this.skipLF = true; // a CRLF split across chunks
        }
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
  }

  /** @param {string} line */
  line(line) {
    if (line === "") {
      this.dispatch();
      return;
    }
    if (line.startsWith(":")) {
      this.handlers.onComment?.(line.slice(1).trimStart());
      return;
    }
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "event":
        this.type = value;
        break;
      case "data":
        this.data += value + "\n";
        this.hasData = true;
        break;
      case "id":
        if (!value.includes("\0")) {
          this.lastEventId = value;
          this.hasId = true;
        }
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.handlers.onRetry?.(Number(value));
        break;
      default:
        break;
    }
  }

  dispatch() {
    const type = this.type || "message";
    const data = this.data.endsWith("\n") ? this.data.slice(0, -1) : this.data;
    const had = this.hasData;
    const hasId = this.hasId;
    this.type = "";
    this.data = "";
    this.hasData = false;
    this.hasId = false;
    if (!had) return;
    this.handlers.onEvent({ type, data, lastEventId: this.lastEventId, hasId });
  }
}

/**
 * The reconnection delay for a number of failed attempts in a row (1, 2, …): exponential, capped,
 * spread by ±jitter so that many clients do not come back in step.
 * @param {number} attempt
 * @param {() => number} [random]
 */
export function backoffDelay(attempt, random = Math.random) {
  const { baseMs, factor, capMs, jitter } = config.backoff;
  const raw = Math.min(capMs, baseMs * Math.pow(factor, Math.max(0, attempt - 1)));
  const spread = raw * jitter * (2 * random() - 1);
  return Math.max(0, Math.min(capMs, Math.round(raw + spread)));
}

/**
 * Opens and keeps open the event stream.
 * @param {{
 *   url: string,
 *   lastEventId?: () => string | null,
 *   onEvent: (e: StreamEvent) => void,
 *   onStatus: (s: ConnectionState) => void,
 *   silenceMs: () => number | null,
 * }} opts silenceMs: how long a silent stream may stay silent before it is treated as dead; null
 *   while not known (before the first state document names the server's ping interval)
 */
export function createEventStream(opts) {
  /** @type {ConnectionState} */
  let state = { status: "connecting", attempt: 0, downSince: null, nextRetryAt: null };
  /** @type {AbortController | null} */
  let controller = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retryTimer;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let watchdog;
  /** When the stream last brought anything: the watchdog's timer reads it when it fires, rather than
   * being set again at each of a thousand reads a second. */
  let heardAt = 0;
  let stopped = true;
  let generation = 0;
  /** @type {string | null} */
  let lastId = null;

  /** @param {Partial<ConnectionState>} patch */
  function setState(patch) {
    state = { ...state, ...patch };
    opts.onStatus(state);
  }

  function armWatchdog() {
    clearTimeout(watchdog);
    watchdog = undefined;
    heardAt = performance.now();
    const silenceMs = opts.silenceMs();
    if (silenceMs !== null) watchdog = setTimeout(checkSilence, silenceMs);
  }

  function checkSilence() {
    watchdog = undefined;
    const silenceMs = opts.silenceMs();
    if (silenceMs === null) return;
    const silent = performance.now() - heardAt;
    if (silent >= silenceMs) controller?.abort(new Error("silent stream"));
    else watchdog = setTimeout(checkSilence, silenceMs - silent);
  }

  async function connect() {
    clearTimeout(retryTimer);
    controller?.abort();
    const gen = ++generation;
    const ctrl = new AbortController();
    controller = ctrl;
    setState({ nextRetryAt: null });
    /** @type {Record<string, string>} */
    const headers = { Accept: "text/event-stream" };
    // Resume from the newest event the page has applied (the store knows it best), else from the
    // last id this stream saw.
    const resumeFrom = opts.lastEventId?.() ?? lastId;
    if (resumeFrom) headers["Last-Event-ID"] = resumeFrom;
    armWatchdog();
    try {
      const res = await fetch(opts.url, { headers, cache: "no-store", signal: ctrl.signal });
      const type = res.headers.get("content-type") ?? "";
      if (!res.ok || !type.startsWith("text/event-stream") || !res.body) {
        throw new Error(`stream refused: ${res.status} ${type}`);
      }
      if (gen !== generation) return;
      setState({ status: "open", downSince: null });
      const parser = new EventStreamParser(
        {
          onEvent: (e) => {
            lastId = e.lastEventId || lastId;
            opts.onEvent(e);
          },
        },
        resumeFrom ?? "",
      );
      // Decoded here rather than through a TextDecoderStream, whose extra stream costs promises on
      // every one of the many small reads.
      const decoder = new TextDecoder();
      const reader = res.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (gen !== generation) return;
        if (watchdog === undefined) armWatchdog();
        else heardAt = performance.now();
        if (state.attempt !== 0) setState({ attempt: 0 });
        parser.feed(decoder.decode(value, { stream: true }));
      }
      throw new Error("stream ended");
    } catch (err) {
      if (gen !== generation || stopped) return;
      lost();
    }
  }

  function lost() {
    clearTimeout(watchdog);
    controller?.abort();
    controller = null;
    const attempt = state.attempt + 1;
    const delay = backoffDelay(attempt);
    setState({
      status: "down",
      attempt,
      downSince: state.downSince ?? Date.now(),
      nextRetryAt: Date.now() + delay,
    });
    retryTimer = setTimeout(connect, delay);
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      void connect();
    },
    /** Drops any pending wait and tries at once (the banner's "reconnect now"). */
    reconnectNow() {
      if (stopped) return;
      void connect();
    },
    stop() {
      stopped = true;
      generation++;
      clearTimeout(retryTimer);
      clearTimeout(watchdog);
      controller?.abort();
      controller = null;
    },
    get state() {
      return state;
    },
  };
}
