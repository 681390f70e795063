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
 * @typedef {{
 *   onBecomeLeader: () => void,
 *   getSync: () => {snapshot: StateDocument | null, connection: ConnectionState},
 *   onEvent: (type: string, text: string, id: string | null) => void,
 *   onConnection: (c: ConnectionState) => void,
 *   onSync: (snapshot: StateDocument | null, c: ConnectionState) => void,
 *   onReconnectRequest: () => void,
 * }} TabHandlers
 */

/**
 * @typedef {object} TabState
 * @property {string} tabId
 * @property {boolean} leader
 * @property {boolean} heard leader: whether another tab has said hello, so there is someone to relay to
 */

/**
 * @param {BroadcastChannel | null} channel
 * @param {RelayMessage} msg
 */
function post(channel, msg) {
  try {
    channel?.postMessage(msg);
  } catch {
    /* a closing channel */
  }
}

/**
 * Answers a message from another tab.
 * @param {TabState} tab
 * @param {RelayMessage} msg
 * @param {TabHandlers} handlers
 * @param {(msg: RelayMessage) => void} send
 */
function hear(tab, msg, handlers, send) {
  if (!msg || typeof msg !== "object") return;
  const { leader, tabId } = tab;
  switch (msg.kind) {
    case "events":
      if (!leader) for (const e of msg.events) handlers.onEvent(e.type, e.text, e.id);
      break;
    case "conn":
      if (!leader) handlers.onConnection(msg.connection);
      break;
    case "leader":
      if (!leader) send({ kind: "hello", from: tabId });
      break;
    case "hello":
      if (leader) {
        tab.heard = true;
        const { snapshot, connection } = handlers.getSync();
        if (snapshot) send({ kind: "sync", to: msg.from, snapshot, connection });
        else send({ kind: "conn", connection });
      }
      break;
    case "sync":
      if (!leader && msg.to === tabId) handlers.onSync(msg.snapshot, msg.connection);
      break;
    case "reconnect":
      if (leader) handlers.onReconnectRequest();
      break;
  }
}

/**
 * The leader's events not relayed yet, sent together config.tabs.relayEveryMs after the first.
 * @param {(msg: RelayMessage) => void} send
 */
function createEventBatch(send) {
  /** @type {RelayedEvent[]} oldest first */
  let pending = [];
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let relayTimer;
  function relayPending() {
    clearTimeout(relayTimer);
    relayTimer = undefined;
    if (!pending.length) return;
    send({ kind: "events", events: pending });
    pending = [];
  }
  return {
    /** @param {RelayedEvent} event */
    add(event) {
      pending.push(event);
      relayTimer ??= setTimeout(relayPending, config.tabs.relayEveryMs);
    },
    /** Sends the events waiting now. */
    relayPending,
  };
}

/** @param {TabHandlers} handlers */
export function createTabs(handlers) {
  const channel = "BroadcastChannel" in globalThis ? new BroadcastChannel(config.tabs.channelName) : null;
  const locks = globalThis.navigator?.locks;
  /** @type {TabState} */
  const tab = { tabId: Math.random().toString(36).slice(2) + Date.now().toString(36), leader: false, heard: false };
  /** @type {(() => void) | null} */
  let resign = null;
  /** @param {RelayMessage} msg */
  const send = (msg) => post(channel, msg);
  const batch = createEventBatch(send);

  channel?.addEventListener("message", (ev) => hear(tab, ev.data, handlers, send));

  function becomeLeader() {
    tab.leader = true;
    send({ kind: "leader" });
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
        if (!tab.leader) becomeLeader();
      });
    // Ask a leader (if there is one) for the current state.
    queueMicrotask(() => {
      if (!tab.leader) send({ kind: "hello", from: tab.tabId });
    });
  } else {
    queueMicrotask(becomeLeader);
  }

  return {
    get isLeader() {
      return tab.leader;
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
      if (!tab.leader || !tab.heard) return;
      batch.add({ type, text, id });
    },
    /**
     * Leader: relays its connection state, after the events before it.
     * @param {ConnectionState} connection
     */
    relayConnection(connection) {
      if (!tab.leader) return;
      batch.relayPending();
      send({ kind: "conn", connection });
    },
    /** Follower: asks the leader to reconnect at once. */
    requestReconnect() {
      if (!tab.leader) send({ kind: "reconnect" });
    },
    /** Gives up the lead and the channel (page going away). */
    close() {
      batch.relayPending();
      resign?.();
      channel?.close();
    },
  };
}

/** @typedef {ReturnType<typeof createTabs>} Tabs */
