// @ts-check
// When the open strip reads its marks again (travel.js reads them; the server decides what they are):
//
// | when                                  | it reads                                                 |
// |---------------------------------------|----------------------------------------------------------|
// | the strip opens, or changes span      | at once                                                  |
// | the deck changed (a panel, incidents) | `reloadMs` after the last read ended: a burst reads once |
// | nothing changed                       | `idleReloadMs` after the last read ended, so now moves   |
// | a read is in flight                   | never: once it ends, the one asked meanwhile             |
// | the strip is closed                   | never                                                    |
import { config } from "./config.js";

/**
 * @param {() => Promise<unknown>} read reads the marks and draws them
 * @param {{reloadMs: number, idleReloadMs: number}} [timing]
 */
export function createMarksReloader(read, timing = config.travel) {
  let open = false;
  let reading = false;
  /** @type {"now" | "changed" | null} a read asked for while none may start */
  let asked = null;
  let lastEnded = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  function schedule() {
    clearTimeout(timer);
    if (!open || reading) return;
    const wait = asked === "now" ? 0 : asked === "changed" ? timing.reloadMs : timing.idleReloadMs;
    timer = setTimeout(run, Math.max(0, lastEnded + wait - Date.now()));
  }

  async function run() {
    reading = true;
    asked = null;
    try {
      await read();
    } finally {
      reading = false;
      lastEnded = Date.now();
      schedule();
    }
  }

  /** @param {"now" | "changed"} why */
  function ask(why) {
    if (asked !== "now") asked = why;
    schedule();
  }

  return {
    /** The strip opened: read at once, then keep it fresh. */
    open() {
      open = true;
      ask("now");
    },
    /** The strip closed: no more reads (one in flight still draws, unseen). */
    close() {
      open = false;
      asked = null;
      clearTimeout(timer);
    },
    /** The span changed: read at once (or once the read in flight ends). */
    now: () => ask("now"),
    /** The deck changed: read soon, once however many changes come. */
    changed() {
      if (open) ask("changed");
    },
  };
}
