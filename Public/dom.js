// @ts-check
// A tiny element builder. Text always goes through textContent / text nodes, never innerHTML,
// so nothing a server sends can become markup. Styles are only ever set through CSSOM.
import { config } from "./config.js";
import { gate } from "./access.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * @typedef {object} Props
 * @property {string | (string | false | null | undefined)[]} [class]
 * @property {string} [text] textContent
 * @property {Record<string, string | number | boolean | null | undefined>} [attrs] attributes (false/null/undefined: left out)
 * @property {Record<string, string | number | null | undefined>} [data] data-* attributes
 * @property {Record<string, string | number>} [vars] CSS custom properties, set through CSSOM
 * @property {Record<string, EventListener>} [on] event listeners
 */

/** @typedef {Node | string | number | false | null | undefined} Child */

/**
 * Builds an element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  applyProps(el, props);
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {Props} props
 */
function applyProps(el, props) {
  if (props.class) {
    const names = Array.isArray(props.class) ? props.class : [props.class];
    for (const n of names) if (n) el.classList.add(...n.split(" ").filter(Boolean));
  }
  if (props.text !== undefined) el.textContent = props.text;
  for (const [k, v] of Object.entries(props.attrs ?? {})) {
    if (v === false || v === null || v === undefined) continue;
    el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const [k, v] of Object.entries(props.data ?? {})) {
    if (v === null || v === undefined) continue;
    el.setAttribute(`data-${k}`, String(v));
  }
  if (props.vars && (el instanceof HTMLElement || el instanceof SVGElement)) {
    for (const [k, v] of Object.entries(props.vars)) el.style.setProperty(k, String(v));
  }
  for (const [k, v] of Object.entries(props.on ?? {})) el.addEventListener(k, v);
}

/**
 * @param {Node} parent
 * @param {(Child | Child[])[]} children
 */
export function append(parent, children) {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

/**
 * Replaces every child of `parent`.
 * @param {Element} parent
 * @param {...(Child | Child[])} children
 */
export function replaceChildren(parent, ...children) {
  parent.replaceChildren();
  append(parent, children);
}

/**
 * An icon from the sprite (icons.svg). Unknown names fall back to `config.fallbackIcon`.
 * Decorative unless a label is given.
 * @param {string | null | undefined} name
 * @param {{label?: string, class?: string}} [opts]
 * @returns {SVGSVGElement}
 */
export function icon(name, opts = {}) {
  const known = name && config.icons.includes(name) ? name : config.fallbackIcon;
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", ["icon", opts.class].filter(Boolean).join(" "));
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("data-icon", known);
  if (opts.label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", opts.label);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", `${config.iconSprite}#${known}`);
  svg.appendChild(use);
  return svg;
}

/**
 * An indeterminate progress indicator. It becomes visible only after `delayMs`
 * (the CSS reads --reveal-delay), so a fast load never flashes it.
 * @param {string} label accessible name
 * @param {number} delayMs
 * @param {{testid?: string, class?: string}} [opts]
 */
export function spinner(label, delayMs, opts = {}) {
  return h("span", {
    class: ["spinner", "reveal", opts.class],
    attrs: { role: "progressbar", "aria-label": label },
    data: { testid: opts.testid ?? "spinner" },
    vars: { "--reveal-delay": `${Math.max(0, Math.round(delayMs))}ms` },
  });
}

/**
 * A button. `key` identifies it across re-renders so that focus can be restored; `needs`, the
 * action it takes, disables it with the reason when the role does not allow it (access.js).
 * @param {{label: string, onClick: (ev: MouseEvent) => void, key?: string, class?: string | string[],
 *   testid?: string, icon?: string, ariaLabel?: string, title?: string, iconOnly?: boolean,
 *   needs?: import('./access.js').Permission}} opts
 */
export function button(opts) {
  const content = [];
  if (opts.icon) content.push(icon(opts.icon));
  if (!opts.iconOnly) content.push(h("span", { class: "btn-label", text: opts.label }));
  const btn = /** @type {HTMLButtonElement} */ (h(
    "button",
    {
      class: ["btn", ...(Array.isArray(opts.class) ? opts.class : [opts.class])],
      attrs: {
        type: "button",
        "aria-label": opts.ariaLabel ?? (opts.iconOnly ? opts.label : undefined),
        title: opts.title ?? (opts.iconOnly ? opts.label : undefined),
      },
      data: { key: opts.key, testid: opts.testid },
      on: { click: /** @type {EventListener} */ (opts.onClick) },
    },
    content,
  ));
  return opts.needs ? gate(btn, opts.needs) : btn;
}

/**
 * Marks a button busy while its HTTP call runs (it stays focusable; repeated clicks are ignored).
 * @param {HTMLButtonElement} btn
 * @param {() => Promise<unknown>} work
 */
export async function whileBusy(btn, work) {
  if (btn.getAttribute("aria-busy") === "true") return;
  btn.setAttribute("aria-busy", "true");
  btn.setAttribute("aria-disabled", "true");
  try {
    await work();
  } finally {
    btn.removeAttribute("aria-busy");
    btn.removeAttribute("aria-disabled");
  }
}

/**
 * "in 4 s", "in 2 min": a short duration for countdowns.
 * @param {number} ms
 */
export function shortDuration(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.ceil(s / 60);
  if (m < 60) return `${m} min`;
  return `${Math.ceil(m / 60)} h`;
}

/** Made once: `toLocaleTimeString` with options builds a formatter on every call, which was the
 * page's most expensive function under load (6 % of the main thread at 200 changes/s). */
const clockFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

/**
 * A local wall-clock time ("14:03:22") for an ISO timestamp, or "" when unparsable.
 * @param {string | null | undefined} iso
 */
export function clockTime(iso) {
  if (!iso) return "";
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  return clockFormat.format(t);
}

/**
 * A focus trap on top of a modal dialog's own inertness: Tab and Shift+Tab never leave the dialog
 * (from its last control Tab goes to its first, not to the browser's own controls).
 * @param {HTMLDialogElement} dialog
 */
export function trapFocus(dialog) {
  dialog.addEventListener("keydown", (ev) => {
    if (ev.key !== "Tab") return;
    const focusables = /** @type {HTMLElement[]} */ ([...dialog.querySelectorAll("button, select, textarea, input, summary, [tabindex]")]).filter(
      (el) => el.tabIndex >= 0 && (el.offsetParent !== null || el === document.activeElement),
    );
    if (!focusables.length) return;
    const first = /** @type {HTMLElement} */ (focusables[0]);
    const last = /** @type {HTMLElement} */ (focusables[focusables.length - 1]);
    if (ev.shiftKey && (document.activeElement === first || !dialog.contains(document.activeElement))) {
      ev.preventDefault();
      last.focus();
    } else if (!ev.shiftKey && (document.activeElement === last || !dialog.contains(document.activeElement))) {
      ev.preventDefault();
      first.focus();
    }
  });
}
