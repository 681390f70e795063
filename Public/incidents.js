// @ts-check
// The incidents as the page words them, and the banner under the header that shows each open one:
// its status, title, latest update and when it was written. The server decides what is open; the
// banner draws the store's `incidents` as they are.
import { h, replaceChildren } from "./dom.js";
import { untilText } from "./maintenance.js";

/** @typedef {import('./types.js').Incident} Incident */
/** @typedef {import('./types.js').IncidentStatus} IncidentStatus */

/** The statuses in the order an incident moves through them, as people read them. */
export const statusLabels = Object.freeze(
  /** @type {Record<IncidentStatus, string>} */ ({
    investigating: "Investigating",
    identified: "Identified",
    monitoring: "Monitoring",
    resolved: "Resolved",
  }),
);

/**
 * The incident's newest update.
 * @param {Incident} incident
 */
export function latestUpdate(incident) {
  return incident.updates[incident.updates.length - 1];
}

/**
 * A status as a small pill, coloured by status.
 * @param {IncidentStatus} status
 */
export function statusPill(status) {
  return h("span", { class: "incident-status", data: { status, testid: "incident-status" }, text: statusLabels[status] ?? status });
}

/**
 * One open incident's line in the banner.
 * @param {Incident} incident
 */
function bannerItem(incident) {
  const update = latestUpdate(incident);
  const kind = incident.panels.length ? "Incident" : "Announcement";
  return h(
    "li",
    { class: "incident-banner-item", data: { testid: "incident-banner-item", "incident-id": incident.id } },
    statusPill(incident.status),
    h("strong", { class: "incident-banner-title", attrs: { title: kind }, text: incident.title }),
    h("span", { class: "incident-banner-message", data: { testid: "incident-banner-message" }, text: update.message }),
    h("time", { class: "incident-banner-time", attrs: { datetime: update.at }, data: { testid: "incident-banner-time" }, text: untilText(update.at) }),
  );
}

/**
 * The banner in `host` (#incident-banner in index.html): hidden while nothing is open.
 * @param {HTMLElement} host
 */
export function createIncidentBanner(host) {
  const list = h("ul", { class: "incident-banner-list" });
  host.append(list);
  return {
    /** @param {Incident[]} incidents the store's, newest opened first */
    update(incidents) {
      const open = incidents.filter((i) => i.status !== "resolved");
      host.hidden = open.length === 0;
      replaceChildren(list, ...open.map(bannerItem));
    },
  };
}
