// @ts-check
// The moment the page shows lives in the address as `?at=<ISO>`, so a past moment can be shared:
// the address is rewritten in place as the scrubber moves (no history entry per step), and other
// parameters (the overview's view) and the hash are kept.

/**
 * The moment an address's query names, or null for the live board.
 * @param {string} search `location.search`
 */
export function readAt(search) {
  const at = new URLSearchParams(search).get("at");
  return at ? at : null;
}

/**
 * Writes the moment into the address in place; null drops it (live).
 * @param {string | null} at
 */
export function writeAt(at) {
  const params = new URLSearchParams(location.search);
  if (at) params.set("at", at);
  else params.delete("at");
  const text = params.toString().replace(/%2C/gi, ",").replace(/%3A/gi, ":");
  const url = `${location.pathname}${text ? `?${text}` : ""}${location.hash}`;
  history.replaceState(history.state, "", url);
}

/** Made once: a formatter per call is costly while dragging. */
const momentFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/**
 * "27 Nov, 03:12:00": a moment as the banner and the scrubber say it, in local time.
 * @param {string | number} at ISO time or milliseconds
 */
export function momentLabel(at) {
  const t = typeof at === "number" ? at : Date.parse(at);
  if (Number.isNaN(t)) return String(at);
  const parts = Object.fromEntries(momentFormat.formatToParts(t).map((p) => [p.type, p.value]));
  return `${parts.day} ${parts.month}, ${parts.hour}:${parts.minute}:${parts.second}`;
}
