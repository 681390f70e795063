// @ts-check
// Loading presentations as DOM + CSS. The server chooses the presentation and its options
// (PanelState.presentation), and names each type's default options in the state document's settings;
// this module draws every value the server can send as named, and builds:
//
//   div.loading[data-presentation][data-position][data-alignment]   --content-opacity, --spacing, --reveal-delay
//     div.loading-content   the content being loaded (dimmed / blurred / redacted per presentation)
//     div.loading-indicator the spinner (and the message for "custom"); shown after --reveal-delay
//
// styles.css lays each type out: material (blurred overlay with the indicator), horizontal (beside the
// content: leading/trailing), vertical (above/below: top/bottom), overCurrentContent (over the content
// at one of nine alignments), redacted (skeleton, no spinner), custom (a message card over the content).
import { h, icon, spinner } from "./dom.js";

/** @typedef {import('./types.js').LoadingPresentation} LoadingPresentation */

const TYPES = ["material", "horizontal", "vertical", "overCurrentContent", "redacted", "custom"];
// The values each type is drawn with; the first is drawn when neither the panel nor the type's defaults
// name one (material's indicator sits in the middle).
const NINE = ["center", "topLeading", "top", "topTrailing", "leading", "trailing", "bottomLeading", "bottom", "bottomTrailing"];
const POSITIONS = /** @type {Record<string, string[]>} */ ({
  horizontal: ["leading", "trailing"],
  vertical: ["top", "bottom"],
});
const ALIGNMENTS = /** @type {Record<string, string[]>} */ ({
  horizontal: ["top", "center", "bottom"],
  vertical: ["leading", "center", "trailing"],
  material: NINE,
  overCurrentContent: NINE,
  custom: NINE,
  redacted: ["center"],
});

/**
 * @typedef {object} NormalizedPresentation
 * @property {LoadingPresentation["type"]} type
 * @property {string} position
 * @property {string} alignment
 * @property {number} contentOpacity
 * @property {number} spacing
 * @property {string} message
 * @property {string} icon
 */

/**
 * @param {LoadingPresentation | null | undefined} p as sent for the panel
 * @param {LoadingPresentation | null | undefined} fallback the server's default for this slot
 * @param {LoadingPresentation[]} types the server's default options of each type
 * @returns {NormalizedPresentation}
 */
export function normalizePresentation(p, fallback, types) {
  const chosen = /** @type {Record<string, any>} */ (p && TYPES.includes(p.type) ? p : fallback ?? { type: "material" });
  const type = /** @type {LoadingPresentation["type"]} */ (TYPES.includes(chosen.type) ? chosen.type : "material");
  const base = /** @type {Record<string, any>} */ (types.find((t) => t.type === type) ?? {});
  const src = chosen;
  const pick = (/** @type {string} */ key, /** @type {string[]} */ allowed) => {
    const v = src[key] ?? base[key];
    if (allowed.includes(v)) return v;
    return allowed.includes(base[key]) ? base[key] : allowed[0];
  };
  const opacity = Number(src.contentOpacity ?? base.contentOpacity ?? 1);
  const spacing = Number(src.spacing ?? base.spacing ?? 8);
  return {
    type,
    position: POSITIONS[type] ? pick("position", POSITIONS[type]) : "",
    alignment: pick("alignment", ALIGNMENTS[type]),
    contentOpacity: Number.isFinite(opacity) ? Math.min(1, Math.max(0, opacity)) : 1,
    spacing: Number.isFinite(spacing) ? Math.min(96, Math.max(0, spacing)) : 8,
    message: typeof src.message === "string" && src.message ? src.message : String(base.message ?? "Loading…"),
    icon: typeof src.icon === "string" ? src.icon : "",
  };
}

/**
 * Draws `content` under a loading presentation.
 * @param {Element} content
 * @param {LoadingPresentation | null | undefined} presentation as sent by the server
 * @param {{fallback: LoadingPresentation | null | undefined, types: LoadingPresentation[], label: string,
 *   delayMs: number}} opts fallback: the server's default for this slot (initial / after info / after
 *   error); types: the server's default options of each type; label: accessible name of the indicator;
 *   delayMs: how long until the indicator (and dimming) appears
 */
export function withLoading(content, presentation, opts) {
  const p = normalizePresentation(presentation, opts.fallback, opts.types);
  const redacted = p.type === "redacted";
  const contentBox = h("div", { class: ["loading-content", redacted && "redacted"] }, content);
  if (p.type === "material" || redacted) {
    contentBox.inert = true;
    contentBox.setAttribute("aria-hidden", "true");
  }
  /** @type {(Element | null)[]} */
  const indicatorChildren = [spinner(opts.label, 0, { testid: "loading-spinner" })];
  if (p.type === "custom") {
    indicatorChildren.unshift(p.icon ? icon(p.icon) : null);
    indicatorChildren.push(h("span", { class: "loading-message", text: p.message }));
  }
  const indicator = h(
    "div",
    { class: ["loading-indicator", "reveal", redacted && "sr-only"], data: { testid: "loading-indicator" } },
    indicatorChildren,
  );
  return h(
    "div",
    {
      class: "loading",
      data: {
        testid: "loading",
        presentation: p.type,
        position: p.position || null,
        alignment: p.alignment,
      },
      vars: {
        "--content-opacity": p.contentOpacity,
        "--spacing": `${p.spacing}px`,
        "--reveal-delay": `${Math.max(0, Math.round(opts.delayMs))}ms`,
      },
    },
    contentBox,
    indicator,
  );
}

/**
 * A generic skeleton for when the server gives no placeholder info.
 */
export function genericSkeleton() {
  return h(
    "div",
    { class: ["skeleton-generic", "redacted"], data: { testid: "skeleton" }, attrs: { "aria-hidden": "true" } },
    h("span", { class: ["sd-text", "skeleton-line", "w-60"], text: "Loading summary" }),
    h("span", { class: ["sd-text", "skeleton-line", "w-90"], text: "Loading the first line of details" }),
    h("span", { class: ["sd-text", "skeleton-line", "w-75"], text: "Loading more details here" }),
  );
}
