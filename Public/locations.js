// @ts-check
// A panel checked from several places (remote probes beside the server): the server's one-line
// summary over its locations, and one chip per location with its health and uptime. The server
// decides both (health, summary, order); this only draws them. Panels without locations draw nothing.
import { h, clockTime } from "./dom.js";

/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./types.js').PanelLocation} PanelLocation */

const HEALTH_LABEL = /** @type {Record<PanelLocation["health"], string>} */ ({
  up: "up",
  down: "down",
  loading: "checking",
  noData: "no data",
});

/**
 * The uptime as the chip says it: "99.5%", or nothing before a result.
 * @param {number | null | undefined} uptime
 */
export function uptimeText(uptime) {
  return typeof uptime === "number" ? `${uptime}%` : "";
}

/**
 * One location's chip: its name and uptime, its health as a dot and in words for screen readers.
 * @param {PanelLocation} location
 */
function chip(location) {
  const when = clockTime(location.since);
  const uptime = uptimeText(location.uptime);
  const said = [
    `${location.name}: ${HEALTH_LABEL[location.health] ?? location.health}`,
    location.summary ?? "",
    when ? (location.health === "noData" ? `last report ${when}` : `since ${when}`) : "",
    uptime ? `${uptime} up` : "",
  ].filter(Boolean).join(", ");
  return h(
    "li",
    {
      class: "location-chip",
      data: { testid: "location-chip", health: location.health, location: location.name },
      attrs: { title: said, "aria-label": said },
    },
    h("span", { class: "location-dot", attrs: { "aria-hidden": "true" } }),
    h("span", { class: "location-name", text: location.name }),
    uptime ? h("span", { class: "location-uptime", data: { testid: "location-uptime" }, text: uptime }) : null,
  );
}

/**
 * The summary line and chips of a panel's locations, or null for a panel without them.
 * @param {PanelState} s
 * @returns {HTMLElement | null}
 */
export function renderLocations(s) {
  if (!Array.isArray(s.locations) || !s.locations.length) return null;
  return h(
    "div",
    { class: "panel-locations", data: { testid: "panel-locations" } },
    h("p", { class: "locations-summary", data: { testid: "locations-summary" }, text: s.locationsSummary ?? "" }),
    h("ul", { class: "location-chips", attrs: { "aria-label": `${s.title} by location` } }, ...s.locations.map(chip)),
  );
}

/**
 * Whether some location sees the panel otherwise than the others (one down, another up), for
 * the compact line's emphasis.
 * @param {PanelState} s
 */
export function locationsDisagree(s) {
  const healths = new Set((s.locations ?? []).map((l) => l.health));
  return healths.has("down") && healths.size > 1;
}
