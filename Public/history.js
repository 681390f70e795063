// @ts-check
// The history view of one panel: a modal <dialog> whose address is its own (`#history=<panelId>`):
// opening that address opens it, closing it takes the address back. It draws, for a chosen range
// (1 h, 24 h, 7 d, 30 d, or two datetime-local inputs), the panel's timeline and load-time chart from
// GET /api/panels/{id}/uptime, and lists its stored changes, newest first, from
// GET /api/panels/{id}/history, a page at a time ("Older" follows the page's `next` cursor).
import { config } from "./config.js";
import { h, icon, button, replaceChildren, trapFocus } from "./dom.js";
import { createTimeline } from "./timeline.js";
import { currentLine, setCurrentLine, ratioList } from "./timeline-figures.js";
import { spanParam, fullTimeText, loadTimeText } from "./timeline-text.js";

/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./store.js').Store} Store */
/** @typedef {import('./types.js').StoredChange} StoredChange */
/** @typedef {import('./types.js').UptimeSlot} UptimeSlot */

const HASH_KEY = "history";

const STATE_LABEL = /** @type {Record<string, string>} */ ({
  loaded: "Loaded",
  error: "Failed",
  loading: "Loading",
  initial: "Reset",
});

/**
 * The panel id a location hash names, or null: "#history=api" → "api".
 * @param {string} hash
 */
export function panelInHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const id = params.get(HASH_KEY);
  return id ? id : null;
}

/**
 * The value of a datetime-local input for a moment, in local time, to the minute.
 * @param {number} t epoch ms
 */
function localInputValue(t) {
  const d = new Date(t);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * @typedef {object} Range
 * @property {number} from epoch ms
 * @property {number} to epoch ms
 * @property {boolean} live the range ends now (a preset): the timeline is asked without `to`
 * @property {string} label
 */

/**
 * @param {{api: Api, store: Store, onDialogOpen: (dialog: HTMLDialogElement) => void, onDialogClose: () => void,
 *   openerFor: (panelId: string) => HTMLElement | null}} opts openerFor: the element to focus when the
 *   dialog closes and no element opened it (it was opened by its address)
 */
export function installHistory(opts) {
  const { api, store } = opts;
  /** @type {string | null} */
  let panelId = null;
  /** @type {HTMLElement | null} */
  let opener = null;
  /** @type {string | null} */
  let cursor = null;
  /** Counts requests, so an answer for an earlier panel or range is dropped. */
  let generation = 0;
  /** @type {Range} */
  let range = presetRange(config.historyView.defaultRange);

  // ---- the dialog ---------------------------------------------------------------------------------
  const title = h("h2", { attrs: { id: "history-title" }, data: { testid: "history-title" } });
  const rangeSelect = h(
    "select",
    { attrs: { id: "history-range" }, data: { testid: "history-range" } },
    config.historyView.ranges.map((r) => h("option", { attrs: { value: r.id }, text: r.label })),
    h("option", { attrs: { value: "custom" }, text: "Custom…" }),
  );
  const fromInput = h("input", { attrs: { id: "history-start", type: "datetime-local", required: true }, data: { testid: "history-start" } });
  const toInput = h("input", { attrs: { id: "history-end", type: "datetime-local", required: true }, data: { testid: "history-end" } });
  const customError = h("p", { class: "history-custom-error", attrs: { id: "history-custom-error" }, data: { testid: "history-custom-error" } });
  const applyButton = button({
    label: "Show",
    class: ["btn-small", "btn-secondary"],
    testid: "history-apply",
    onClick: () => applyCustom(),
  });
  const custom = h(
    "fieldset",
    { class: "history-custom", data: { testid: "history-custom" }, attrs: { hidden: true } },
    h("legend", { class: "sr-only", text: "Custom range" }),
    h("label", { attrs: { for: "history-start" }, text: "From" }),
    fromInput,
    h("label", { attrs: { for: "history-end" }, text: "To" }),
    toInput,
    applyButton,
    customError,
  );
  const current = currentLine(null, "history-current");
  const ratios = h("div", { class: "uptime-slot" });
  const timeline = createTimeline({
    testid: "history-timeline",
    onSlot: (slot) => showSlot(slot),
  });
  const chartStatus = h("p", { class: "history-chart-status", data: { testid: "history-chart-status" } });
  const chartHeading = h("h3", { class: "history-subhead", attrs: { id: "history-chart-heading" } });
  const chart = h(
    "section",
    { class: "history-chart", attrs: { "aria-labelledby": "history-chart-heading" } },
    chartHeading,
    h("div", { class: "panel-history-head" }, current, ratios),
    timeline.el,
    chartStatus,
  );
  const list = h("ol", { class: "history-list", data: { testid: "history-list" }, attrs: { "aria-labelledby": "history-list-heading" } });
  const listStatus = h("p", {
    class: "history-status",
    attrs: { role: "status" },
    data: { testid: "history-status" },
  });
  const olderButton = button({
    label: "Older",
    class: ["btn-small", "btn-secondary"],
    testid: "history-older",
    onClick: () => void loadPage(true),
  });
  olderButton.hidden = true;
  const closeButton = button({
    label: "Close",
    icon: "x",
    iconOnly: true,
    class: ["btn-icon"],
    testid: "history-close",
    onClick: () => dialog.close(),
  });

  const dialog = h(
    "dialog",
    { class: "history-dialog", data: { testid: "history-dialog" }, attrs: { "aria-labelledby": "history-title" } },
    h("header", { class: "history-head" }, h("div", { class: "history-heading" }, icon("history"), title), closeButton),
    h(
      "div",
      { class: "history-range" },
      h("label", { attrs: { for: "history-range" }, text: "Range" }),
      rangeSelect,
      custom,
    ),
    chart,
    h(
      "section",
      { class: "history-changes", attrs: { "aria-labelledby": "history-list-heading" } },
      h("h3", { class: "history-subhead", attrs: { id: "history-list-heading" }, text: "Changes, newest first" }),
      listStatus,
      list,
      h("div", { class: "history-more" }, olderButton),
    ),
  );
  trapFocus(dialog);

  // ---- ranges -------------------------------------------------------------------------------------

  /** @param {string} id */
  function presetRange(id) {
    const preset = config.historyView.ranges.find((r) => r.id === id) ?? config.historyView.ranges[0];
    const to = Date.now();
    return { from: to - preset.spanMs, to, live: true, label: `Last ${preset.label}` };
  }

  rangeSelect.addEventListener("change", () => {
    if (rangeSelect.value === "custom") {
      custom.hidden = false;
      fromInput.value = localInputValue(range.from);
      toInput.value = localInputValue(range.to);
      customError.textContent = "";
      fromInput.focus();
      return;
    }
    custom.hidden = true;
    range = presetRange(rangeSelect.value);
    void loadAll();
  });

  for (const input of [fromInput, toInput]) {
    input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") {
        ev.preventDefault();
        applyCustom();
      }
    });
  }

  function applyCustom() {
    const from = fromInput.value ? new Date(fromInput.value).getTime() : NaN;
    const to = toInput.value ? new Date(toInput.value).getTime() : NaN;
    let problem = "";
    if (Number.isNaN(from) || Number.isNaN(to)) problem = "Choose both a start and an end.";
    else if (from >= to) problem = "The start must come before the end.";
    customError.textContent = problem;
    for (const input of [fromInput, toInput]) {
      if (problem) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", "history-custom-error");
      } else {
        input.removeAttribute("aria-invalid");
        input.removeAttribute("aria-describedby");
      }
    }
    if (problem) return;
    range = { from, to, live: false, label: `${fullTimeText(new Date(from).toISOString())} to ${fullTimeText(new Date(to).toISOString())}` };
    void loadAll();
  }

  /**
   * A slot of the dialog's timeline was activated: list what happened in it.
   * @param {UptimeSlot} slot
   */
  function showSlot(slot) {
    const from = Date.parse(slot.from);
    const to = Date.parse(slot.to);
    if (Number.isNaN(from) || Number.isNaN(to)) return;
    rangeSelect.value = "custom";
    custom.hidden = false;
    fromInput.value = localInputValue(from);
    toInput.value = localInputValue(Math.max(to, from + 60_000));
    customError.textContent = "";
    range = { from, to: Math.max(to, from + 1), live: false, label: `${fullTimeText(slot.from)} to ${fullTimeText(slot.to)}` };
    void loadAll();
  }

  // ---- loading --------------------------------------------------------------------------------------

  async function loadAll() {
    generation++;
    cursor = null;
    replaceChildren(list);
    olderButton.hidden = true;
    await Promise.all([loadChart(), loadPage(false)]);
  }

  async function loadChart() {
    if (!panelId) return;
    const id = panelId;
    const mine = generation;
    const spanMs = range.to - range.from;
    chartHeading.textContent = range.label;
    chartStatus.textContent = "Loading the timeline…";
    chart.setAttribute("aria-busy", "true");
    const res = await api.uptime(id, {
      span: spanParam(spanMs),
      slots: config.historyView.timelineSlots,
      to: range.live ? undefined : new Date(range.to).toISOString(),
    });
    if (mine !== generation || id !== panelId) return;
    chart.removeAttribute("aria-busy");
    if (!res.ok) {
      chartStatus.textContent = `Could not load the timeline: ${res.failure.message}`;
      timeline.el.hidden = true;
      return;
    }
    chartStatus.textContent = "";
    timeline.el.hidden = false;
    replaceChildren(ratios, ratioList(res.data));
    setCurrentLine(current, res.data.current);
    timeline.render(res.data, { spanMs });
  }

  /** @param {boolean} older */
  async function loadPage(older) {
    if (!panelId) return;
    if (older && !cursor) return;
    const id = panelId;
    const mine = generation;
    listStatus.textContent = older ? "Loading older changes…" : "Loading changes…";
    list.setAttribute("aria-busy", "true");
    olderButton.setAttribute("aria-disabled", "true");
    const res = await api.history(id, {
      from: new Date(range.from).toISOString(),
      to: range.live ? undefined : new Date(range.to).toISOString(),
      limit: config.historyView.pageSize,
      cursor: older ? cursor : null,
    });
    if (mine !== generation || id !== panelId) return;
    list.removeAttribute("aria-busy");
    olderButton.removeAttribute("aria-disabled");
    if (!res.ok) {
      listStatus.textContent = `Could not load the changes: ${res.failure.message}`;
      return;
    }
    const entries = Array.isArray(res.data.entries) ? res.data.entries : [];
    const hadFocus = olderButton === document.activeElement;
    const added = entries.map(entryItem);
    for (const item of added) list.appendChild(item);
    cursor = typeof res.data.next === "string" && res.data.next ? res.data.next : null;
    olderButton.hidden = cursor === null;
    const shown = list.children.length;
    listStatus.textContent = shown
      ? `${shown === 1 ? "1 change" : `${shown} changes`} shown${cursor ? "; older ones with “Older”" : ""}.`
      : "No changes in this range.";
    // "Older" gone: focus goes to the first change it brought, not to the page behind the dialog.
    if (hadFocus && olderButton.hidden && added.length) added[0].focus();
  }

  /** @param {StoredChange} entry */
  function entryItem(entry) {
    const state = STATE_LABEL[entry.state] ? entry.state : "initial";
    const facts = [];
    if (typeof entry.durationMs === "number") facts.push(`took ${loadTimeText(entry.durationMs)}`);
    if (entry.errorKind) facts.push(entry.errorKind);
    return h(
      "li",
      { class: "history-entry", data: { testid: "history-entry", state, at: entry.at }, attrs: { tabindex: -1 } },
      h(
        "div",
        { class: "history-entry-head" },
        h("span", { class: ["history-state", `is-${state}`], data: { testid: "history-entry-state" }, text: STATE_LABEL[state] }),
        h("time", { attrs: { datetime: entry.at }, data: { testid: "history-entry-time" }, text: fullTimeText(entry.at) }),
        facts.length ? h("span", { class: "history-facts", data: { testid: "history-entry-facts" }, text: facts.join(" · ") }) : null,
        entry.debug ? h("span", { class: ["badge", "badge-debug"], text: "debug", attrs: { title: "Forced by a debug state: counted in no uptime" } }) : null,
      ),
      entry.title ? h("p", { class: "history-entry-title", data: { testid: "history-entry-title" }, text: entry.title }) : null,
      entry.summary ? h("p", { class: "history-entry-summary", data: { testid: "history-entry-summary" }, text: entry.summary }) : null,
      entry.detail
        ? h(
            "details",
            { class: "error-details", data: { testid: "history-entry-details" } },
            h("summary", {}, icon("chevron-down", { class: "chevron" }), "Details"),
            h("pre", { class: "error-detail", attrs: { tabindex: 0 } }, entry.detail),
          )
        : null,
    );
  }

  // ---- opening, closing and the address -------------------------------------------------------------

  function renderTitle() {
    const name = panelId ? store.panel(panelId)?.title ?? panelId : "";
    title.textContent = `History of ${name}`;
  }

  /**
   * @param {string} id
   * @param {HTMLElement | null} from
   * @param {UptimeSlot | null} [slot]
   */
  function show(id, from, slot = null) {
    const same = dialog.open && panelId === id;
    opener = from ?? opener;
    if (same && !slot) return;
    panelId = id;
    renderTitle();
    // The dialog joins the page the first time it is opened.
    if (!dialog.isConnected) document.body.appendChild(dialog);
    if (!dialog.open) {
      dialog.showModal();
      opts.onDialogOpen(dialog);
    }
    rangeSelect.focus();
    if (slot) {
      showSlot(slot);
      return;
    }
    rangeSelect.value = config.historyView.defaultRange;
    custom.hidden = true;
    customError.textContent = "";
    range = presetRange(config.historyView.defaultRange);
    void loadAll();
  }

  dialog.addEventListener("close", () => {
    generation++;
    timeline.hideTip();
    opts.onDialogClose();
    const id = panelId;
    panelId = null;
    if (id && panelInHash(location.hash) === id) {
      if (history.state && history.state.statedeckHistory === id) history.back();
      else history.replaceState(history.state, "", location.pathname + location.search);
    }
    const back = opener?.isConnected ? opener : id ? opts.openerFor(id) : null;
    back?.focus({ preventScroll: true });
    opener = null;
  });

  /** Opens or closes the dialog to match the address. */
  function syncWithAddress() {
    const id = panelInHash(location.hash);
    if (id) show(id, null);
    else if (dialog.open) dialog.close();
  }
  window.addEventListener("hashchange", syncWithAddress);
  window.addEventListener("popstate", syncWithAddress);

  const unsubscribe = store.subscribe((c) => {
    if (!dialog.open) return;
    if (c.kind === "snapshot" || (c.kind === "panel" && c.id === panelId)) renderTitle();
  });

  return {
    /**
     * Opens the history of a panel, giving it its own address.
     * @param {string} id
     * @param {HTMLElement | null} from the element to focus again on close
     * @param {UptimeSlot} [slot] the time to show; the default range without it
     */
    open(id, from, slot) {
      if (panelInHash(location.hash) !== id) {
        history.pushState({ ...(history.state ?? {}), statedeckHistory: id }, "", `#${HASH_KEY}=${encodeURIComponent(id)}`);
      }
      show(id, from, slot ?? null);
    },
    /** Opens the dialog when the page's address names it. */
    syncWithAddress,
    dispose() {
      unsubscribe();
      window.removeEventListener("hashchange", syncWithAddress);
      window.removeEventListener("popstate", syncWithAddress);
    },
  };
}

/** @typedef {ReturnType<typeof installHistory>} HistoryView */
