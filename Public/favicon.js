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
 * Follows the failing count on the page's `<link rel="icon">`.
 * @param {HTMLLinkElement} link
 */
export function createFaviconBadge(link) {
  const plain = link.getAttribute("href") ?? "favicon.svg";
  /** @type {Promise<string | null> | null} */
  let source = null;
  let wanted = 0;

  async function iconText() {
    try {
      const res = await fetch(plain);
      return res.ok ? await res.text() : null;
    } catch {
      return null;
    }
  }

  return {
    /** @param {number} failing */
    async show(failing) {
      if (failing === wanted) return;
      wanted = failing;
      if (failing === 0) {
        link.setAttribute("href", plain);
        delete link.dataset.count;
        return;
      }
      source ??= iconText();
      const svg = await source;
      if (!svg || wanted !== failing) return;
      link.href = `data:image/svg+xml,${encodeURIComponent(badgedSvg(svg, failing))}`;
      link.dataset.count = String(failing);
    },
  };
}
