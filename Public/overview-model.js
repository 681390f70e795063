// @ts-check
// What the overview shows, as data: each panel's health (from the state the server sent, never
// recomputed beyond naming it), the deck's counts, and the sections to draw (one per group, the
// ungrouped panels first without a heading) for a view: search text, state filter, order and
// collapsed groups. No DOM here, so it answers for 10,000 panels in a few milliseconds.

/** @typedef {import('./types.js').PanelState} PanelState */
/** @typedef {import('./types.js').PanelHealth} PanelHealth */
/** @typedef {import('./types.js').PanelGroup} Group */
/** @typedef {import('./view-url.js').View} View */

/**
 * @typedef {"up" | "failing" | "loading" | "unknown"} Health
 * @typedef {Health | "pinned"} StateFilter
 */

/** In "problems first" order; also the order of the summary's counts. */
export const HEALTHS = /** @type {const} */ (["failing", "loading", "unknown", "up"]);
/** Every state a count (and the `state` filter) can name. */
export const STATE_FILTERS = /** @type {const} */ (["up", "failing", "loading", "unknown", "pinned"]);

const RANK = /** @type {Record<Health, number>} */ ({ failing: 0, loading: 1, unknown: 2, up: 3 });

/**
 * Where a panel goes in "problems first" order: by health, and among the failing ones the root causes
 * before their consequences (those that fail with a dependency down).
 * @param {Entry} e
 */
const rank = (e) => RANK[e.health] * 2 + (e.consequence ? 1 : 0);

/** The page's name of each health the server sends: a source down is drawn as failing. */
const PAGE_HEALTH = /** @type {Record<PanelHealth, Health>} */ ({
  up: "up", down: "failing", loading: "loading", unknown: "unknown",
});

/**
 * A panel's health as the server decided it (`health`), by the page's name: failing from an error
 * until a result says otherwise, its dismissed card and the stale info shown after it included.
 * @param {PanelState} s
 * @returns {Health}
 */
export function healthOf(s) {
  return PAGE_HEALTH[s.health];
}

/**
 * @typedef {object} Entry
 * @property {string} id
 * @property {string} title
 * @property {Health} health
 * @property {boolean} pinned
 * @property {boolean} consequence failing with a dependency down (`probableCauses`): not a root cause
 * @property {boolean} flapping
 * @property {string | null} group
 * @property {string | null} text lower-case title, id and group, what the search looks in; made by the
 *   first search that needs it (searchText), not for every panel of a new state document
 */

/**
 * The panels of each state, and of the failing ones how many are consequences of another (the rest are
 * root causes), and how many panels flap.
 * @typedef {Record<StateFilter, number> & {consequences: number, flapping: number}} Counts
 */

/** @returns {Counts} */
export function zeroCounts() {
  return { up: 0, failing: 0, loading: 0, unknown: 0, pinned: 0, consequences: 0, flapping: 0 };
}

/**
 * @typedef {object} Section
 * @property {string} key the group id, "" for the panels in no group
 * @property {Group | null} group null for the panels in no group (drawn without a heading)
 * @property {Counts} counts of every panel of the group, whatever the view filters
 * @property {boolean} collapsed
 * @property {string[]} ids the panels to draw, in the view's order: all that match, or when collapsed
 *   only the failing ones that match
 * @property {number} matching how many of the group's panels match the view's filters
 */

/**
 * Whether a view lists by state (filters to one, orders problems first, or collapses a group to its
 * failing panels): then a panel's new health or pin can change what it lists.
 * @param {View} view
 */
export function listsByState(view) {
  return view.state !== null || view.sort === "problems" || view.collapsed.length > 0;
}

/**
 * The search's terms: every one must be found (in any order) for a panel to match.
 * @param {string} q
 */
export function searchTerms(q) {
  return q.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * What the model holds.
 * @typedef {object} OverviewData
 * @property {Map<string, Entry>} entries by panel id
 * @property {string[]} order the panels' ids, declared order
 * @property {Group[]} groups
 * @property {Map<string, Group>} groupById
 * @property {Counts} counts the deck's
 * @property {Map<string, Counts>} groupCounts each group's ("" for the panels in none), kept as
 *   changes come, like the deck's
 */

/**
 * Adds a panel's entry to the deck's and its group's counts (sign 1), or takes it off (sign -1).
 * @param {OverviewData} data
 * @param {Entry} e
 * @param {number} sign
 */
function count(data, e, sign) {
  const key = e.group ?? "";
  let inGroup = data.groupCounts.get(key);
  if (!inGroup) data.groupCounts.set(key, (inGroup = zeroCounts()));
  for (const c of [data.counts, inGroup]) {
    c[e.health] += sign;
    if (e.pinned) c.pinned += sign;
    if (e.consequence) c.consequences += sign;
    if (e.flapping) c.flapping += sign;
  }
}

/**
 * @param {OverviewData} data
 * @param {Entry} e
 */
function searchText(data, e) {
  if (e.text === null) {
    const g = e.group ? data.groupById.get(e.group) : null;
    e.text = `${e.title}\n${e.id}\n${e.group ?? ""}\n${g?.title ?? ""}`.toLowerCase();
  }
  return e.text;
}

/**
 * @param {PanelState} s
 * @param {Entry} [before] the panel's entry until now, whose search text is kept when it still holds
 * @returns {Entry}
 */
function entryOf(s, before) {
  const group = typeof s.group === "string" && s.group ? s.group : null;
  const title = typeof s.title === "string" ? s.title : s.id;
  const text = before && before.title === title && before.group === group ? before.text : null;
  const health = healthOf(s);
  const consequence = health === "failing" && Array.isArray(s.probableCauses) && s.probableCauses.length > 0;
  return { id: s.id, title, health, pinned: Boolean(s.debugPinned), consequence, flapping: Boolean(s.flapping), group, text };
}

/**
 * Whether two entries of a panel count the same and rank the same.
 * @param {Entry} a @param {Entry} b
 */
function countedAlike(a, b) {
  return a.health === b.health && a.pinned === b.pinned && a.consequence === b.consequence && a.flapping === b.flapping;
}

/**
 * The sections a view draws (see the model's sections).
 * @param {OverviewData} data
 * @param {View} view
 * @returns {Section[]}
 */
function sectionsOf(data, view) {
  const terms = searchTerms(view.q);
  const collapsed = new Set(view.collapsed);
  /** @type {Map<string, Section>} */
  const byKey = new Map();
  /** @param {string} key */
  const sectionOf = (key) => {
    let section = byKey.get(key);
    if (!section) {
      const group = key ? data.groupById.get(key) ?? { id: key, title: key } : null;
      section = { key, group, counts: data.groupCounts.get(key) ?? zeroCounts(), collapsed: Boolean(key) && collapsed.has(key), ids: [], matching: 0 };
      byKey.set(key, section);
    }
    return section;
  };
  sectionOf("");
  for (const g of data.groups) sectionOf(g.id);
  for (const id of data.order) {
    const e = /** @type {Entry} */ (data.entries.get(id));
    const section = sectionOf(e.group ?? "");
    if (view.state && (view.state === "pinned" ? !e.pinned : e.health !== view.state)) continue;
    if (terms.length && !terms.every((t) => searchText(data, e).includes(t))) continue;
    section.matching++;
    if (!section.collapsed || e.health === "failing") section.ids.push(id);
  }
  const result = [...byKey.values()].filter((s) => s.matching > 0);
  if (view.sort === "problems") {
    for (const s of result) {
      // Array.prototype.sort is stable: declared order within each rank.
      s.ids.sort((a, b) => rank(/** @type {Entry} */ (data.entries.get(a))) - rank(/** @type {Entry} */ (data.entries.get(b))));
    }
  }
  return result;
}

export function createOverviewModel() {
  /** @type {OverviewData} */
  const data = { entries: new Map(), order: [], groups: [], groupById: new Map(), counts: zeroCounts(), groupCounts: new Map() };
  const { entries, groupCounts } = data;

  return {
    /**
     * The deck's groups, in the state document's order.
     * @param {Group[] | null | undefined} list
     */
    setGroups(list) {
      data.groups = Array.isArray(list) ? list.filter((g) => g && typeof g.id === "string" && g.id) : [];
      data.groupById = new Map(data.groups.map((g) => [g.id, g]));
      for (const e of entries.values()) e.text = null;
    },

    /**
     * Starts again from a state document's panels.
     * @param {string[]} ids in deck order
     * @param {(id: string) => PanelState | undefined} stateOf
     */
    reset(ids, stateOf) {
      entries.clear();
      data.counts = zeroCounts();
      groupCounts.clear();
      data.order = [];
      for (const id of ids) {
        const s = stateOf(id);
        if (!s) continue;
        const e = entryOf(s);
        entries.set(id, e);
        data.order.push(id);
        count(data, e, 1);
      }
    },

    /**
     * Follows one panel's new state.
     * @param {PanelState} s
     * @returns {"list" | "state" | "none"} what changed for the overview: "list", what any view
     *   lists (a new panel, its title or group); "state", its health, pin, being a consequence or
     *   flapping, which changes the counts and what a view filtering or ordering by state lists;
     *   "none", only its own drawing
     */
    update(s) {
      const before = entries.get(s.id);
      const e = entryOf(s, before);
      if (!before) data.order.push(s.id);
      else count(data, before, -1);
      entries.set(s.id, e);
      count(data, e, 1);
      if (!before || before.title !== e.title || before.group !== e.group) return "list";
      return countedAlike(before, e) ? "none" : "state";
    },

    /**
     * A group's counts, whatever the view filters.
     * @param {string} key the group's id, "" for the panels in none
     */
    countsOf: (key) => groupCounts.get(key) ?? zeroCounts(),

    /** @param {string} id */
    entry: (id) => entries.get(id),
    /** The deck's counts, whatever the view filters. */
    get counts() {
      return data.counts;
    },
    get size() {
      return data.order.length;
    },

    /**
     * The sections a view draws, declared groups in their order, then groups panels name that the
     * deck did not declare (titled by their id); sections with nothing to draw are left out.
     * @param {View} view
     * @returns {Section[]}
     */
    sections: (view) => sectionsOf(data, view),
  };
}

/** @typedef {ReturnType<typeof createOverviewModel>} OverviewModel */
