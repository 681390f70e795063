// @ts-check
// The loaded view: draws an Info (summary, fields, items with their action buttons, image, text) as
// sent. An item whose id is in modifyingIds shows a spinner in place of its actions. The same view,
// redacted, is the skeleton drawn from a panel's placeholder info.
import { h, button, spinner } from "./dom.js";

/** @typedef {import('./types.js').Info} Info */
/** @typedef {import('./types.js').Item} Item */

/**
 * @typedef {object} InfoContext
 * @property {string} panelTitle
 * @property {string[] | null | undefined} modifyingIds
 * @property {(itemId: string, actionId: string, btn: HTMLButtonElement) => void} onItemAction
 * @property {(itemId: string) => number} itemSpinnerDelay ms until an item's spinner shows
 */

/**
 * @param {Info} info
 * @param {InfoContext} ctx
 */
export function renderInfo(info, ctx) {
  return h("div", { class: "info", data: { testid: "info" } }, infoParts(info, ctx));
}

/**
 * The skeleton for the initial load: the placeholder info, redacted, inert and hidden from
 * assistive technology.
 * @param {Info} placeholder
 */
export function renderSkeleton(placeholder) {
  const el = h(
    "div",
    { class: ["info", "redacted"], data: { testid: "skeleton" }, attrs: { "aria-hidden": "true" } },
    infoParts(placeholder, { panelTitle: "", modifyingIds: null, onItemAction: () => {}, itemSpinnerDelay: () => 0 }),
  );
  el.inert = true;
  return el;
}

/**
 * @param {Info} info
 * @param {InfoContext} ctx
 */
function infoParts(info, ctx) {
  const parts = [];
  if (info.summary) {
    parts.push(h("p", { class: "info-summary", data: { testid: "info-summary" } }, h("span", { class: "sd-text", text: info.summary })));
  }
  if (Array.isArray(info.fields) && info.fields.length) {
    parts.push(
      h(
        "dl",
        { class: "info-fields", data: { testid: "info-fields" } },
        info.fields.map((f) =>
          h(
            "div",
            { class: "field" },
            h("dt", {}, h("span", { class: "sd-text", text: String(f.label ?? "") })),
            h("dd", {}, h("span", { class: "sd-text", text: String(f.value ?? "") })),
          ),
        ),
      ),
    );
  }
  if (Array.isArray(info.items) && info.items.length) {
    parts.push(h("ul", { class: "info-items", data: { testid: "info-items" } }, info.items.map((item) => renderItem(item, ctx))));
  }
  if (info.image) {
    parts.push(
      h("img", {
        class: "info-image",
        attrs: { src: info.image, alt: info.imageAlt ?? "", loading: "lazy", decoding: "async" },
        data: { testid: "info-image" },
      }),
    );
  }
  if (info.text) {
    parts.push(h("pre", { class: "info-text", data: { testid: "info-text" }, attrs: { tabindex: 0 } }, h("span", { class: "sd-text", text: info.text })));
  }
  if (!parts.length) parts.push(h("p", { class: "info-empty", text: "Nothing to show." }));
  return parts;
}

/**
 * @param {Item} item
 * @param {InfoContext} ctx
 */
function renderItem(item, ctx) {
  const busy = Array.isArray(ctx.modifyingIds) && ctx.modifyingIds.includes(item.id);
  const actions = Array.isArray(item.actions) ? item.actions : [];
  let trailing;
  if (busy) {
    trailing = spinner(`Working on ${item.title}`, ctx.itemSpinnerDelay(item.id), { testid: "item-progress", class: "item-progress" });
  } else if (actions.length) {
    trailing = actions.map((a) =>
      button({
        label: a.label,
        key: `action:${item.id}:${a.id}`,
        testid: "item-action",
        needs: "itemActions",
        class: ["btn-small", roleClass(a.role)],
        ariaLabel: `${a.label}: ${item.title}`,
        onClick: (ev) => ctx.onItemAction(item.id, a.id, /** @type {HTMLButtonElement} */ (ev.currentTarget)),
      }),
    );
  }
  return h(
    "li",
    { class: ["item", busy && "is-busy"], data: { testid: "item", "item-id": item.id }, attrs: { "aria-busy": busy ? "true" : null } },
    h(
      "div",
      { class: "item-text" },
      h("span", { class: "item-title" }, h("span", { class: "sd-text", text: item.title })),
      item.subtitle ? h("span", { class: "item-subtitle" }, h("span", { class: "sd-text", text: item.subtitle })) : null,
    ),
    trailing ? h("div", { class: "item-actions" }, trailing) : null,
  );
}

/** @param {string | undefined} role */
export function roleClass(role) {
  switch (role) {
    case "primary":
      return "btn-primary";
    case "destructive":
      return "btn-danger";
    default:
      return "btn-secondary";
  }
}
