// @ts-check
/**
 * The public status page, kept live: the server renders the whole page, and this module only
 * fetches it again every few seconds (the `data-refresh` of `<main>`, while the tab is visible)
 * and puts the new `<main>` in place of the old one. Without JavaScript the page reads the same,
 * as of its load. What the page shows is the server's to decide: nothing is drawn here.
 */

/** Fetches `/status` and swaps its `<main>` in; a failed fetch keeps the page as it is. */
async function refresh() {
  try {
    const response = await fetch("/status", { cache: "no-cache", credentials: "omit" });
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    const main = fresh.querySelector("main#status");
    const current = document.querySelector("main#status");
    if (main && current) current.replaceWith(document.adoptNode(main));
    document.title = fresh.title;
  } catch {
    // Offline or the server restarting: the next turn tries again.
  }
}

/** Refreshes every `data-refresh` seconds while the page is visible, and at once when it shows again. */
function start() {
  const main = document.querySelector("main#status");
  const seconds = Number(main instanceof HTMLElement ? main.dataset.refresh : "") || 10;
  document.documentElement.dataset.live = "on";
  setInterval(() => {
    if (document.visibilityState === "visible") refresh();
  }, seconds * 1000);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
}

start();
