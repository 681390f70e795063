// @ts-check
// One event stream for all the tabs of a browser. Browsers allow six HTTP/1.1 connections per host,
// so a stream per tab would leave the seventh tab hanging. The tabs elect a leader with the Web Locks
// API (the tab holding the lock owns the stream; when it closes the lock passes to the next tab in
// line, which opens its own stream) and the leader relays every event and its connection state to the
// others over a BroadcastChannel, the events of config.tabs.relayEveryMs in one message, and only
// once another tab has said hello (a message per event, with no tab to hear it, cost the leader a
// fifth of its main thread at a thousand events a second). A new tab asks the leader for the current
// state ("hello" → "sync"); a new leader asks the tabs there are to say hello ("leader").
//
// Without Web Locks or BroadcastChannel (e.g. an insecure context) every tab leads its own stream.
import { config } from "./config.js";

/** @typedef {import('./types.js').ConnectionState} ConnectionState */
/** @typedef {import('./types.js').StateDocument} StateDocument */

/**
 * @typedef {{type: string, text: string, id: string | null}} RelayedEvent
 * @typedef {{kind: "events", events: RelayedEvent[]}
 *   | {kind: "conn", connection: ConnectionState}
 *   | {kind: "hello", from: string}
 *   | {kind: "sync", to: string, snapshot: StateDocument, connection: ConnectionState}
 *   | {kind: "reconnect"} | {kind: "leader"}} RelayMessage
 */

/**
 * @param {{
 *   onBecomeLeader: () => void,
 *   getSync: () => {snapshot: StateDocument | null, connection: ConnectionState},
 *   onEvent: (type: string, text: string, id: string | null) => void,
 *   onConnection: (c: ConnectionState) => void,
 *   onSync: (snapshot: StateDocument | null, c: ConnectionState) => void,
 *   onReconnectRequest: () => void,
 * }} handlers
 */
export function createTabs(handlers) {
  const tabId = Math.random().toString(36).slice(2) + Date.now().toString(36);
  const channel = "BroadcastChannel" in globalThis ? new BroadcastChannel(config.tabs.channelName) : null;
  const locks = globalThis.navigator?.locks;
  let leader = false;
  /** @type {(() => void) | null} */
  let resign = null;
  /** Leader: whether another tab has said hello, so there is someone to relay to. */
  let heard = false;
  /** Leader: the events not relayed yet, oldest first. */
  /** @type {RelayedEvent[]} */
  let pending = [];
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let relayTimer;

  function relayPending() {
    clearTimeout(relayTimer);
    relayTimer = undefined;
    if (!pending.length) return;
    post({ kind: "events", events: pending });
    pending = [];
  }

  /** @param {RelayMessage} msg */
  function post(msg) {
    try {
      channel?.postMessage(msg);
    } catch {
      /* a closing channel */
    }
  }

  if (channel) {
    channel.addEventListener("message", (ev) => {
      /** @type {RelayMessage} */
      const msg = ev.data;
      if (!msg || typeof msg !== "object") return;
      switch (msg.kind) {
        case "events":
          if (!leader) for (const e of msg.events) handlers.onEvent(e.type, e.text, e.id);
          break;
        case "conn":
          if (!leader) handlers.onConnection(msg.connection);
          break;
        case "leader":
          if (!leader) post({ kind: "hello", from: tabId });
          break;
        case "hello":
          if (leader) {
            heard = true;
            const { snapshot, connection } = handlers.getSync();
            if (snapshot) post({ kind: "sync", to: msg.from, snapshot, connection });
            else post({ kind: "conn", connection });
          }
          break;
        case "sync":
          if (!leader && msg.to === tabId) handlers.onSync(msg.snapshot, msg.connection);
          break;
        case "reconnect":
          if (leader) handlers.onReconnectRequest();
          break;
      }
    });
  }

  function becomeLeader() {
    leader = true;
    post({ kind: "leader" });
    handlers.onBecomeLeader();
  }

  if (channel && locks) {
    // Waits in line for the lock; holds it (the promise never settles) until the tab goes away.
    locks
      .request(config.tabs.lockName, () => {
        becomeLeader();
        return new Promise((resolve) => {
          resign = () => resolve(undefined);
        });
      })
      .catch(() => {
        if (!leader) becomeLeader();
      });
    // Ask a leader (if there is one) for the current state.
    queueMicrotask(() => {
      if (!leader) post({ kind: "hello", from: tabId });
    });
  } else {
    queueMicrotask(becomeLeader);
  }

  return {
    get isLeader() {
      return leader;
    },
    get shared() {
      return Boolean(channel && locks);
    },
    /**
     * Leader: relays one stream event as its text, which costs the channel a copy of a string
     * where an object would be cloned member by member, for every event, even with no other tab.
     * @param {string} type
     * @param {string} text
     * @param {string | null} id
     */
    relayEvent(type, text, id) {
      if (!leader || !heard) return;
      pending.push({ type, text, id });
      relayTimer ??= setTimeout(relayPending, config.tabs.relayEveryMs);
    },
    /**
     * Leader: relays its connection state, after the events before it.
     * @param {ConnectionState} connection
     */
    relayConnection(connection) {
      if (!leader) return;
      relayPending();
      post({ kind: "conn", connection });
    },
    /** Follower: asks the leader to reconnect at once. */
    requestReconnect() {
      if (!leader) post({ kind: "reconnect" });
    },
    /** Gives up the lead and the channel (page going away). */
    close() {
      relayPending();
      resign?.();
      channel?.close();
    },
  };
}

/** @typedef {ReturnType<typeof createTabs>} Tabs */
