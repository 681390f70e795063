// @ts-check
// The history view's dialog, built once: the range controls, the chart (timeline, health now, up
// ratios) and the list of stored changes with its "Older" button; and one stored change drawn as an
// item of that list. history.js and history-load.js decide what they show.
import { config } from "./config.js";
import { h, icon, button, trapFocus } from "./dom.js";
import { createTimeline } from "./timeline.js";
import { currentLine } from "./timeline-figures.js";
import { fullTimeText, loadTimeText } from "./timeline-text.js";
import { localInputValue } from "./history-range.js";

/** @typedef {import('./types.js').StoredChange} StoredChange */
/** @typedef {import('./types.js').UptimeSlot} UptimeSlot */

const STATE_LABEL = /** @type {Record<string, string>} */ ({
  loaded: "Loaded",
  error: "Failed",
  loading: "Loading",
  initial: "Reset",
});

/**
 * The range select and the custom range's fieldset; Enter in either input applies it.
 * @param {() => void} onApply
 */
function rangeControls(onApply) {
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
    onClick: () => onApply(),
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
  for (const input of [fromInput, toInput]) {
    input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") {
        ev.preventDefault();
        onApply();
      }
    });
  }
  return { rangeSelect, fromInput, toInput, customError, custom };
}

/**
 * The chart: its heading, the health now and up ratios, the timeline and its status line.
 * @param {(slot: UptimeSlot) => void} onSlot
 */
function chartSection(onSlot) {
  const current = currentLine(null, "history-current");
  const ratios = h("div", { class: "uptime-slot" });
  const timeline = createTimeline({
    testid: "history-timeline",
    onSlot: (slot) => onSlot(slot),
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
  return { current, ratios, timeline, chartStatus, chartHeading, chart };
}

/**
 * The list of changes, its status line and the "Older" button.
 * @param {() => void} onOlder
 */
function changesSection(onOlder) {
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
    onClick: () => onOlder(),
  });
  olderButton.hidden = true;
  const changes = h(
    "section",
    { class: "history-changes", attrs: { "aria-labelledby": "history-list-heading" } },
    h("h3", { class: "history-subhead", attrs: { id: "history-list-heading" }, text: "Changes, newest first" }),
    listStatus,
    list,
    h("div", { class: "history-more" }, olderButton),
  );
  return { list, listStatus, olderButton, changes };
}

/**
 * @param {{onApply: () => void, onOlder: () => void, onSlot: (slot: UptimeSlot) => void}} on
 */
export function createHistoryDialog(on) {
  const title = h("h2", { attrs: { id: "history-title" }, data: { testid: "history-title" } });
  const controls = rangeControls(on.onApply);
  const chart = chartSection(on.onSlot);
  const changes = changesSection(on.onOlder);
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
      controls.rangeSelect,
      controls.custom,
    ),
    chart.chart,
    changes.changes,
  );
  trapFocus(dialog);
  return { dialog, title, ...controls, ...chart, ...changes };
}

/** @typedef {ReturnType<typeof createHistoryDialog>} HistoryDialog */

/**
 * Shows the custom range's inputs, set to a range.
 * @param {HistoryDialog} d
 * @param {number} from epoch ms
 * @param {number} to epoch ms
 */
export function showCustomInputs(d, from, to) {
  d.custom.hidden = false;
  d.fromInput.value = localInputValue(from);
  d.toInput.value = localInputValue(to);
  d.customError.textContent = "";
}

/**
 * Says what is wrong with the custom range, and marks its inputs invalid; "" clears both.
 * @param {HistoryDialog} d
 * @param {string} problem
 */
export function showCustomProblem(d, problem) {
  d.customError.textContent = problem;
  for (const input of [d.fromInput, d.toInput]) {
    if (problem) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", "history-custom-error");
    } else {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    }
  }
}

/** @param {StoredChange} entry */
export function entryItem(entry) {
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
