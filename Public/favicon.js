// @ts-check
// The favicon with the failing count on a red badge, so a tab in the background shows that something
// broke. The badge is drawn onto the page's own favicon.svg, as a data: address (the page's CSP
// allows data: images); no count, the plain icon.

const SVG_END = "</svg>";

/**
 * The favicon's SVG text with a badge for `count` drawn in its top-right corner (32×32 view box).
 * @param {string} svg favicon.svg's text
 * @param {number} count
 */
export function badgedSvg(svg, count) {
  const text = count > 99 ? "99+" : String(count);
  const size = text.length === 1 ? 14 : text.length === 2 ? 12 : 9;
  const badge =
    `<circle cx="23" cy="9" r="9" fill="#dc2626" stroke="#fff" stroke-width="1.5"/>` +
    `<text x="23" y="9" dy="0.36em" text-anchor="middle" font-family="Arial, sans-serif" font-weight="700" font-size="${size}" fill="#fff">${text}</text>`;
  const end = svg.lastIndexOf(SVG_END);
  return end < 0 ? svg : svg.slice(0, end) + badge + svg.slice(end);
}

/**
 * Follows the failing count on the page's `<link rel="icon">`, changing it at most once a second:
 * the browser decodes and draws each new icon on the main thread, and a count changing in every frame
 * (a thousand changes a second) made that a good part of the page's work. The newest count always
 * shows within a second.
 * @param {HTMLLinkElement} link
 */
export function createFaviconBadge(link) {
  const plain = link.getAttribute("href") ?? "favicon.svg";
  /** @type {Promise<string | null> | null} */
  let source = null;
  /** The count asked for last, and the one the icon shows. */
  let wanted = 0;
  let shown = 0;
  let lastChange = -Infinity;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let pending = null;

  async function iconText() {
    try {
      const res = await fetch(plain);
      return res.ok ? await res.text() : null;
    } catch {
      return null;
    }
  }

  async function apply() {
    pending = null;
    const failing = wanted;
    if (failing === shown) return;
    lastChange = performance.now();
    shown = failing;
    if (failing === 0) {
      link.setAttribute("href", plain);
      delete link.dataset.count;
      return;
    }
    source ??= iconText();
    const svg = await source;
    // A newer count meanwhile has its own apply waiting: this one still shows `failing` first.
    if (!svg) return;
    link.href = `data:image/svg+xml,${encodeURIComponent(badgedSvg(svg, failing))}`;
    link.dataset.count = String(failing);
  }

  return {
    /** @param {number} failing */
    show(failing) {
      wanted = failing;
      if (pending !== null || failing === shown) return;
      const wait = lastChange + 1000 - performance.now();
      if (wait <= 0) void apply();
      else pending = setTimeout(() => void apply(), wait);
    },
  };
}
