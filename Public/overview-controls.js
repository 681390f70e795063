// @ts-check
// The overview's controls: the search field (focused by "/", emptied by Escape), the order, the
// density; and the keys that work anywhere but in a field or a dialog: "/" to search, j and k to go
// to the next and previous panel. Each control reports what a person chose; `sync` shows a view
// (one read from the address, after back or forward).

/** @typedef {import('./view-url.js').View} View */

/**
 * Whether a key pressed in this element is typing (or a choice in a control that takes keys).
 * @param {EventTarget | null} target
 */
function isTyping(target) {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !["button", "checkbox", "radio", "submit", "reset", "range", "color"].includes(target.type);
}

/**
 * @param {{
 *   search: HTMLInputElement,
 *   sort: HTMLSelectElement,
 *   density: HTMLElement,
 *   onSearch: (q: string) => void,
 *   onSort: (sort: View["sort"]) => void,
 *   onDensity: (density: View["density"]) => void,
 *   onStep: (step: number) => void,
 * }} opts onStep: j (1) or k (-1) was pressed
 */
export function createOverviewControls(opts) {
  const { search, sort, density } = opts;

  search.addEventListener("input", () => opts.onSearch(search.value));
  search.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || !search.value) return;
    // The field's own Escape would clear it too, without telling; the view follows here.
    ev.preventDefault();
    search.value = "";
    opts.onSearch("");
  });
  sort.addEventListener("change", () => opts.onSort(sort.value === "problems" ? "problems" : "declared"));
  density.addEventListener("click", (ev) => {
    const btn = /** @type {HTMLElement} */ (ev.target).closest("button[data-density]");
    if (btn instanceof HTMLButtonElement) opts.onDensity(btn.dataset.density === "compact" ? "compact" : "cards");
  });

  document.addEventListener("keydown", (ev) => {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey || isTyping(ev.target)) return;
    if (document.querySelector("dialog[open]")) return;
    if (ev.key === "/") {
      ev.preventDefault();
      search.focus();
      search.select();
    } else if (ev.key === "j" || ev.key === "k") {
      ev.preventDefault();
      opts.onStep(ev.key === "j" ? 1 : -1);
    }
  });

  return {
    /** @param {View} view */
    sync(view) {
      if (search.value !== view.q) search.value = view.q;
      sort.value = view.sort;
      for (const btn of density.querySelectorAll("button[data-density]")) {
        btn.setAttribute("aria-pressed", String(/** @type {HTMLElement} */ (btn).dataset.density === view.density));
      }
    },
  };
}
