// @ts-check
// Which moment the board shows: null while it is live, else the instant of the past moment drawn
// (app.js sets it as it applies a moment's document, travel.js). What a card asks the server for
// beside its state (its timeline, panel-timeline.js) ends there, so the board is the board as it was.

/** @type {string | null} */
let shown = null;

/** The instant (ISO) of the past moment the board shows, or null while it is live. */
export function shownMoment() {
  return shown;
}

/**
 * Takes the moment the board now shows: an ISO instant, or null for the live board.
 * @param {string | null} at
 */
export function setShownMoment(at) {
  shown = at;
}
