// @ts-check
// What the server decides about a panel beyond its own source, as notes on its card and its compact
// line: the dependencies it probably fails because of ("Probably because Postgres is down", each
// title a link that brings that panel into view), and its flapping ("Flapping: 6 changes in 10 min").
import { h } from "./dom.js";
import { store } from "./store.js";

/** @typedef {import('./types.js').PanelState} PanelState */

/**
 * "Flapping: 6 changes in 10 min", or "" while the panel does not flap.
 * @param {PanelState} s
 */
export function flappingText(s) {
  const f = s.flapping;
  if (!f) return "";
  return `Flapping: ${f.changes} ${f.changes === 1 ? "change" : "changes"} in ${f.within}`;
}

/**
 * The probable causes' titles (the id of a panel the page does not hold), in the server's order.
 * @param {PanelState} s
 */
function causeTitles(s) {
  return (s.probableCauses ?? []).map((id) => ({ id, title: store.panel(id)?.title ?? id }));
}

/**
 * Items listed as people write them: "A", "A and B", "A, B and C".
 * @param {Node[]} items
 * @returns {(Node | string)[]}
 */
function listed(items) {
  return items.flatMap((item, i) => (i === 0 ? [item] : [i === items.length - 1 ? " and " : ", ", item]));
}

/**
 * "Probably because Postgres is down", each title a link to its panel; null without probable causes.
 * @param {{id: string, title: string}[]} causes
 * @param {(panelId: string) => void} openPanel
 */
function causeNote(causes, openPanel) {
  if (!causes.length) return null;
  const links = causes.map(({ id, title }) =>
    h("button", {
      class: "cause-link",
      text: title,
      attrs: { type: "button", title: `Show ${title}` },
      data: { testid: "cause-link", "cause-id": id },
      on: { click: () => openPanel(id) },
    }),
  );
  return h("span", { class: "panel-cause", data: { testid: "probable-cause" } },
    "Probably because ", ...listed(links), causes.length === 1 ? " is down" : " are down");
}

/**
 * A card's or a line's notes, drawn again only when what they say changed.
 * @param {"p" | "span"} tag a paragraph on a card, a span on a line
 * @param {(panelId: string) => void} openPanel brings a panel's card or line into view
 */
export function createPanelNotes(tag, openPanel) {
  const el = h(tag, { class: "panel-notes", data: { testid: "panel-notes" } });
  el.hidden = true;
  let said = "";
  let text = "";
  return {
    el,
    /** @param {PanelState} s */
    update(s) {
      const flapping = flappingText(s);
      const causes = causeTitles(s);
      const next = JSON.stringify([causes, flapping]);
      if (next === said) return;
      said = next;
      const flap = flapping ? h("span", { class: "panel-flapping", text: flapping, data: { testid: "flapping" } }) : null;
      const parts = /** @type {HTMLElement[]} */ ([causeNote(causes, openPanel), flap].filter((n) => n !== null));
      el.replaceChildren(...parts);
      el.hidden = !parts.length;
      text = parts.map((n) => n.textContent).join("; ");
    },
    /** What the notes say, for a line's accessible name. */
    get text() {
      return text;
    },
  };
}
