// @ts-check
// A heartbeat panel's section, under its body: what it expects of its job, where it stands (the
// server's times, written as the page writes clock times), and the URL the job pings with a ready
// curl line, each in a read-only field with a Copy button. The server decides all of it; this only
// words it. Built once per card and updated in place, so that a state arriving while someone copies
// keeps the focus, the selection and the "Copied" announcement. The URL holds the ping's key, with
// which anyone could forge the job's results: no state carries it, and the section asks for it
// once (GET /api/panels/{id}/ping), which only an operator may; others see a note instead.
import { h, button, clockTime } from "./dom.js";
import { roleRefusal } from "./access.js";

/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./types.js').HeartbeatStatus} HeartbeatStatus */

/** @typedef {(text: string, copied: boolean) => void} Say tells the copy's outcome in the live region */

/** How long "Copied" stays, then the live region is emptied for the next copy to be heard. */
const COPY_STATUS_MS = 4_000;

/**
 * "Expected every 1 h, 10 min grace": the expectation and its grace as the server wrote them.
 * @param {HeartbeatStatus} hb
 */
export function expectationText(hb) {
  return `Expected ${hb.expects}`;
}

/**
 * Where the panel stands, each a short line: the run in progress or the newest ping (or that none
 * came yet), then when it is late unless a ping comes first.
 * @param {HeartbeatStatus} hb
 * @returns {string[]}
 */
export function standingLines(hb) {
  const running = clockTime(hb.runningSince);
  const last = clockTime(hb.lastPing);
  const late = clockTime(hb.lateAt);
  return [
    running ? `Running since ${running}` : last ? `Last ping ${last}` : "Waiting for the first ping",
    late ? `Late after ${late}` : "",
  ].filter(Boolean);
}

/** What a caller whose role may not read the ping URL sees in its place. */
export const OPERATOR_NOTE = "An operator sees the ping URL here.";

/**
 * A ready line a cron job can run: fails loudly, never hangs, retries a network hiccup.
 * @param {string} url
 */
export function curlLine(url) {
  return `curl -fsS -m 10 --retry 3 ${url}`;
}

/**
 * Puts a field's text on the clipboard; when the browser refuses (no permission, not a secure
 * context), selects it instead so that Ctrl+C copies it. Says which in `say`.
 * @param {HTMLInputElement} input @param {Say} say
 */
async function copyField(input, say) {
  try {
    if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
    await navigator.clipboard.writeText(input.value);
    say("Copied", true);
  } catch {
    input.focus();
    input.select();
    say("Copying was refused: the text is selected, press Ctrl+C", false);
  }
}

/**
 * A labelled read-only field and its Copy button.
 * @param {{id: string, label: string, name: string, key: string, say: Say}} opts
 *   name: what the button copies, for its accessible name
 */
function copyableField(opts) {
  const input = h("input", {
    class: "heartbeat-input",
    attrs: { id: opts.id, type: "text", readonly: true, spellcheck: "false", autocomplete: "off" },
    data: { key: `${opts.key}-field`, testid: `${opts.key}-field` },
    // Clicking the field selects it whole: a URL is copied whole or not at all.
    on: { focus: (ev) => /** @type {HTMLInputElement} */ (ev.currentTarget).select() },
  });
  const copy = button({
    label: "Copy",
    key: `${opts.key}-copy`,
    testid: `${opts.key}-copy`,
    class: ["btn-small", "btn-secondary"],
    ariaLabel: `Copy ${opts.name}`,
    onClick: () => copyField(input, opts.say),
  });
  const el = h(
    "div",
    { class: "heartbeat-field" },
    h("label", { class: "heartbeat-label", attrs: { for: opts.id }, text: opts.label }),
    h("div", { class: "heartbeat-field-row" }, input, copy),
  );
  return { el, input };
}

/**
 * @param {string} panelId
 * @param {() => Promise<import('./api.js').ReadResult<{pingPath: string}>>} readPingPath
 */
export function createHeartbeatView(panelId, readPingPath) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let clearTimer;
  const copyStatus = h("p", {
    class: "heartbeat-copy-status",
    attrs: { role: "status", "aria-live": "polite" },
    data: { testid: "heartbeat-copy-status" },
  });
  /** @type {Say} */
  const say = (text, copied) => {
    clearTimeout(clearTimer);
    copyStatus.textContent = text;
    copyStatus.dataset.copied = String(copied);
    clearTimer = setTimeout(() => {
      copyStatus.textContent = "";
    }, COPY_STATUS_MS);
  };
  const expects = h("p", { class: "heartbeat-expects", data: { testid: "heartbeat-expects" } });
  const standing = h("p", { class: "heartbeat-standing", data: { testid: "heartbeat-standing" } });
  const url = copyableField({ id: `ping-url-${panelId}`, label: "Ping URL", name: "the ping URL", key: "heartbeat-url", say });
  const curl = copyableField({ id: `ping-curl-${panelId}`, label: "curl command", name: "the curl command", key: "heartbeat-curl", say });
  const fields = h("div", { class: "heartbeat-fields" }, url.el, curl.el, copyStatus);
  fields.hidden = true;
  const note = h("p", { class: "heartbeat-note", data: { testid: "heartbeat-url-note" } });
  note.hidden = true;
  // A group, not a region: a deck of heartbeats would otherwise list one landmark per card.
  const el = h("div", { class: "panel-heartbeat", data: { testid: "panel-heartbeat" }, attrs: { role: "group", "aria-label": "Heartbeat" } }, expects, standing, fields, note);
  let asked = false;

  /** Asks for the ping path once; shows it with its curl line, or says why it is not shown. */
  async function showPingUrl() {
    asked = true;
    const refusal = roleRefusal("pingURL");
    const answer = refusal ? null : await readPingPath();
    if (answer?.ok) {
      const address = location.origin + answer.data.pingPath;
      url.input.value = address;
      curl.input.value = curlLine(address);
      fields.hidden = false;
      return;
    }
    // No URL to show: a replay's deck, or a deck file reloaded without it.
    if (answer?.failure.status === 404) return;
    // A 403 is the role's refusal when the page did not know the caller; another failure says itself.
    note.textContent = !answer || answer.failure.status === 403 ? OPERATOR_NOTE : `The ping URL could not be read: ${answer.failure.message}`;
    note.hidden = false;
  }

  return {
    el,
    /**
     * Draws a heartbeat's status. `waitingShown`: the body already says the panel waits for its
     * first ping, so the standing line does not repeat it.
     * @param {PanelState} s @param {HeartbeatStatus} hb @param {boolean} waitingShown
     */
    update(s, hb, waitingShown) {
      el.setAttribute("aria-label", `Heartbeat of ${s.title}`);
      expects.textContent = expectationText(hb);
      const lines = standingLines(hb).slice(waitingShown && !hb.lastPing ? 1 : 0);
      standing.textContent = lines.join(" · ");
      standing.hidden = !lines.length;
      // Written once, when it comes: rewriting it would drop a selection being copied.
      if (hb.hasPingURL && !asked) void showPingUrl();
    },
  };
}

/** @typedef {ReturnType<typeof createHeartbeatView>} HeartbeatView */
