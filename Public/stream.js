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
 * Treats a stream silent for longer than silenceMs() as dead. When the stream last brought anything
 * is kept as a time that the timer reads when it fires, rather than the timer being set again at each
 * of a thousand reads a second.
 * @param {() => number | null} silenceMs null while not known: no watch
 * @param {() => void} onSilent
 */
function createWatchdog(silenceMs, onSilent) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let heardAt = 0;

  function arm() {
    clearTimeout(timer);
    timer = undefined;
    heardAt = performance.now();
    const ms = silenceMs();
    if (ms !== null) timer = setTimeout(check, ms);
  }

  function check() {
    timer = undefined;
    const ms = silenceMs();
    if (ms === null) return;
    const silent = performance.now() - heardAt;
    if (silent >= ms) onSilent();
    else timer = setTimeout(check, ms - silent);
  }

  return {
    arm,
    /** The stream brought something. */
    heard() {
      if (timer === undefined) arm();
      else heardAt = performance.now();
    },
    stop() {
      clearTimeout(timer);
    },
  };
}

/**
 * Asks for the stream; its body, or an error when the server refuses it.
 * @param {string} url
 * @param {string | null} resumeFrom the id of the newest event the page has
 * @param {AbortSignal} signal
 */
async function openStream(url, resumeFrom, signal) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "text/event-stream" };
  if (resumeFrom) headers["Last-Event-ID"] = resumeFrom;
  const res = await fetch(url, { headers, cache: "no-store", signal });
  const type = res.headers.get("content-type") ?? "";
  if (!res.ok || !type.startsWith("text/event-stream") || !res.body) {
    throw new Error(`stream refused: ${res.status} ${type}`);
  }
  return res.body;
}

/**
 * Reads a body to its end, handing on each chunk as text; false when it stopped early because
 * `current` said the stream was no longer the one to read.
 * @param {ReadableStream<Uint8Array>} body
 * @param {() => boolean} current
 * @param {(text: string) => void} onText
 */
async function readBody(body, current, onText) {
  // Decoded here rather than through a TextDecoderStream, whose extra stream costs promises on
  // every one of the many small reads.
  const decoder = new TextDecoder();
  const reader = body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return true;
    if (!current()) return false;
    onText(decoder.decode(value, { stream: true }));
  }
}

/**
 * The stream asked for or read now: each connection is a new generation, so that the work of one
 * replaced or stopped leaves off; its abort controller and its silence watch.
 * @param {() => number | null} silenceMs
 */
function createCurrentStream(silenceMs) {
  /** @type {AbortController | null} */
  let controller = null;
  let generation = 0;
  const watchdog = createWatchdog(silenceMs, () => controller?.abort(new Error("silent stream")));

  /** Ends the stream being read or asked for, and its watch. */
  function drop() {
    watchdog.stop();
    controller?.abort();
    controller = null;
  }

  return {
    watchdog,
    /** Aborts the stream before and starts the next generation: its number and abort signal. */
    next() {
      controller?.abort();
      const gen = ++generation;
      controller = new AbortController();
      return { gen, signal: controller.signal };
    },
    /** @param {number} gen whether that generation is the current one */
    is: (gen) => gen === generation,
    drop,
    /** Drops the stream, and leaves no generation current. */
    retire() {
      generation++;
      drop();
    },
  };
}

/**
 * When to try again after losing the stream, and the state until then.
 * @param {ConnectionState} state
 * @returns {{delay: number, down: Partial<ConnectionState>}}
 */
function retryAfterLoss(state) {
  const attempt = state.attempt + 1;
  const delay = backoffDelay(attempt);
  return {
    delay,
    down: { status: "down", attempt, downSince: state.downSince ?? Date.now(), nextRetryAt: Date.now() + delay },
  };
}

/**
 * Opens and keeps open the event stream.
 * @param {{
 *   url: string,
 *   lastEventId?: () => string | null,
 *   onEvent: (e: StreamEvent) => void,
 *   onStatus: (s: ConnectionState) => void,
 *   silenceMs: () => number | null,
 * }} opts lastEventId: the newest event the page has applied (the store knows it best), where a
 *   reconnection resumes from; without one, from the last id this stream saw. silenceMs: how long a
 *   silent stream may stay silent before it is treated as dead; null while not known (before the
 *   first state document names the server's ping interval)
 */
export function createEventStream(opts) {
  /** @type {ConnectionState} */
  let state = { status: "connecting", attempt: 0, downSince: null, nextRetryAt: null };
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retryTimer;
  const current = createCurrentStream(opts.silenceMs);
  let stopped = true;
  /** @type {string | null} */
  let lastId = null;

  /** @param {Partial<ConnectionState>} patch */
  function setState(patch) {
    state = { ...state, ...patch };
    opts.onStatus(state);
  }

  async function connect() {
    clearTimeout(retryTimer);
    const { gen, signal } = current.next();
    setState({ nextRetryAt: null });
    const resumeFrom = opts.lastEventId?.() ?? lastId;
    current.watchdog.arm();
    try {
      const body = await openStream(opts.url, resumeFrom, signal);
      if (!current.is(gen)) return;
      setState({ status: "open", downSince: null });
      const onEvent = (/** @type {StreamEvent} */ e) => {
        lastId = e.lastEventId || lastId;
        opts.onEvent(e);
      };
      const parser = new EventStreamParser({ onEvent }, resumeFrom ?? "");
      const ended = await readBody(body, () => current.is(gen), (text) => {
        current.watchdog.heard();
        if (state.attempt !== 0) setState({ attempt: 0 });
        parser.feed(text);
      });
      if (ended) throw new Error("stream ended");
    } catch (err) {
      if (!current.is(gen) || stopped) return;
      lost();
    }
  }

  function lost() {
    current.drop();
    const { delay, down } = retryAfterLoss(state);
    setState(down);
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
      clearTimeout(retryTimer);
      current.retire();
    },
    get state() {
      return state;
    },
  };
}
