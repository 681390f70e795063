import StateDeck

/// What must be true of a simulated world, kept apart from the code it checks: for every panel,
/// the stretches of wall time it was watched and its health in each, the health it had at each
/// instant, and which of it a history must still hold. It shares no aggregation with StateDeck:
/// it is fed the deck's decisions (each change of health) and the faults, and counts time itself.
///
/// The rules it holds StateDeck to:
/// - Time is counted on the wall clock, in the health the deck last decided, while the panel is
///   in the deck and the process runs; each wall instant at most once (a jump back counts
///   nothing again), a jump's gap never.
/// - What a save committed survives; a `kill -9` (or a stop that cannot save) loses what came
///   after the last commit, and the next process goes on from the health that commit kept.
/// - A panel removed counts nothing more; added again, it starts with no health.
/// - Time under a maintenance window is neither up nor down.
struct TruthModel {
    /// Time one panel spent in one health, in milliseconds of wall time since 1970.
    struct Span: Equatable {
        var from: Int64
        var to: Int64
        var health: Health
    }

    /// A change of health the deck decided, at a wall time.
    struct Change: Equatable {
        var at: Int64
        var health: Health
    }

    /// What a moment shows of a panel from a wall time on: its health and title; `health` nil
    /// when the panel left the deck.
    struct Form: Equatable {
        var at: Int64
        var health: Health?
        var title: String
    }

    struct Panel {
        var present: Bool
        var title: String
        var health: Health = .unknown
        /// When its health began (wall time), nil without one.
        var since: Int64?
        /// The maintenance window that covers it, by id.
        var window: String?
        var maintenance: Bool { window != nil }
        /// Counted and committed.
        var durable: [Span] = []
        /// Counted since the last commit.
        var pending: [Span] = []
        var changes: [Change] = []
        var pendingChanges: [Change] = []
        /// What a moment shows of it, from when: each change, and what each start showed (the
        /// whole state document is kept then), and its leaving the deck.
        var forms: [Form] = []
        var pendingForms: [Form] = []
        /// The health the last commit kept, resumed by the next process.
        var savedHealth: Health = .unknown
        var savedSince: Int64?
    }

    private(set) var panels: [Panel]
    /// Whether every panel but the first depends on the first, as the deck last followed.
    var dependent = false
    /// The wall time counted to.
    private(set) var wall: Int64
    /// Each wall instant counted, for the rule that none is counted twice: stretches, sorted.
    private var counted: [Span] = []
    private var pendingCounted: [Span] = []

    init(panelCount: Int, wall: Int64) {
        panels = (0..<panelCount).map { Panel(present: true, title: "P\($0)") }
        self.wall = wall
    }

    /// Time passes to `now` on the wall clock without a jump: each panel present and not under
    /// maintenance is counted in its health, on the instants not counted before.
    mutating func pass(to now: Int64) {
        guard now > wall else { return }
        for fresh in Self.uncovered(wall, now, by: counted + pendingCounted) {
            for index in panels.indices where panels[index].present && !panels[index].maintenance {
                let health = panels[index].health
                guard health == .up || health == .down else { continue }
                panels[index].pending.append(Span(from: fresh.from, to: fresh.to, health: health))
            }
            pendingCounted.append(fresh)
        }
        wall = now
    }

    /// The wall clock jumped to `now`; nothing is counted across.
    mutating func jump(to now: Int64) {
        wall = now
    }

    /// The deck decided `health` for `panel` at `at` (the wall time now), under the maintenance
    /// window `window` or none.
    mutating func change(_ panel: Int, to health: Health, window: String?, at: Int64) {
        pass(to: at)
        let marked = panels[panel].window != window
        panels[panel].window = window
        let changed = panels[panel].health != health
        // A panel down names its dependencies that are down as probable causes: its state is kept
        // anew when one goes down or comes back.
        if panel == 0, dependent, (health == .down) != (panels[panel].health == .down) {
            for other in panels.indices.dropFirst() where panels[other].present && panels[other].health == .down {
                panels[other].pendingForms.append(Form(at: at, health: .down, title: panels[other].title))
            }
        }
        panels[panel].health = health
        if changed {
            panels[panel].pendingChanges.append(Change(at: at, health: health))
            panels[panel].since = at
        }
        // A window's mark (which window, until when) is part of what a moment shows: the panel's
        // state is kept anew.
        if changed || marked { panels[panel].pendingForms.append(Form(at: at, health: health, title: panels[panel].title)) }
    }

    /// A save committed everything up to now.
    mutating func committed() {
        for index in panels.indices {
            panels[index].durable += panels[index].pending
            panels[index].pending = []
            panels[index].changes += panels[index].pendingChanges
            panels[index].pendingChanges = []
            panels[index].forms += panels[index].pendingForms
            panels[index].pendingForms = []
            panels[index].savedHealth = panels[index].present ? panels[index].health : .unknown
            panels[index].savedSince = panels[index].present ? panels[index].since : nil
        }
        counted = Self.merged(counted + pendingCounted)
        pendingCounted = []
    }

    /// The process died: what was not committed is gone, and the next process resumes each panel
    /// present in the health the last commit kept.
    mutating func killed() {
        for index in panels.indices {
            panels[index].pending = []
            panels[index].pendingChanges = []
            panels[index].pendingForms = []
        }
        pendingCounted = []
        opened()
    }

    /// A process started (after a clean stop, everything was committed first); it marks the
    /// panels under maintenance anew.
    mutating func opened() {
        for index in panels.indices {
            panels[index].health = panels[index].present ? panels[index].savedHealth : .unknown
            panels[index].since = panels[index].present ? panels[index].savedSince : nil
            panels[index].window = nil
        }
        followed()
    }

    /// A deck was followed anew (a start, an edit of the deck file): the whole state document is
    /// kept, so each panel present shows from now on the health it has, and each panel absent
    /// that a moment may still show by its newest form (its removal was lost with a kill, or came
    /// before an older form after the wall clock was set back) is gone from now on.
    mutating func followed() {
        for index in panels.indices {
            if panels[index].present {
                panels[index].pendingForms.append(Form(at: wall, health: panels[index].health, title: panels[index].title))
            } else if let newest = newestForm(of: index), newest.health != nil {
                panels[index].pendingForms.append(Form(at: wall, health: nil, title: panels[index].title))
            }
        }
    }

    mutating func remove(_ panel: Int) {
        panels[panel].present = false
        panels[panel].health = .unknown
        panels[panel].since = nil
        panels[panel].window = nil
        panels[panel].pendingForms.append(Form(at: wall, health: nil, title: panels[panel].title))
    }

    /// The deck file gave `panel` the title `title`; a moment shows it once the deck follows it.
    mutating func rename(_ panel: Int, to title: String) {
        panels[panel].title = title
    }

    mutating func add(_ panel: Int) {
        panels[panel].present = true
        panels[panel].health = .unknown
        panels[panel].since = nil
    }

    // MARK: Reading

    /// Milliseconds up and down `panel` spent in `from..<to`, counted so far.
    func tally(of panel: Int, from: Int64, to: Int64) -> (up: Int64, down: Int64) {
        var (up, down): (Int64, Int64) = (0, 0)
        for span in panels[panel].durable + panels[panel].pending {
            let overlap = min(span.to, to) - max(span.from, from)
            guard overlap > 0 else { continue }
            if span.health == .up { up += overlap } else { down += overlap }
        }
        return (up, down)
    }

    /// `panel`'s form with the latest wall time (of two at one time, the later kept).
    func newestForm(of panel: Int) -> Form? {
        form(of: panel, at: .max)
    }

    /// What `panel` showed at `at`: its form with the latest wall time at or before it (of two
    /// at one time, the later kept), as a moment is rebuilt whatever order the wall clock went
    /// in; nil before its first.
    func form(of panel: Int, at: Int64) -> Form? {
        var newest: Form?
        for form in panels[panel].forms + panels[panel].pendingForms where form.at <= at {
            if form.at >= newest?.at ?? .min { newest = form }
        }
        return newest
    }

    /// When the stretch of wall time watched without a break that holds `at` began: watches that
    /// touch or overlap (a restart, a jump back) are one stretch; `at` itself when none holds it.
    func watchedSince(at: Int64) -> Int64 {
        Self.merged(counted + pendingCounted).last { $0.from <= at && at <= $0.to }?.from ?? at
    }

    /// Whether some instant after `instant` and before `end` was counted: the wall clock went
    /// back over it.
    func counted(after instant: Int64, before end: Int64) -> Bool {
        (counted + pendingCounted).contains { $0.to > instant + 1 && $0.from < end }
    }

    /// `panel`'s changes of health in `from...to`, by wall time (of two at one time, the earlier
    /// decided first), as the store lists them.
    func changes(of panel: Int, from: Int64, to: Int64) -> [Change] {
        (panels[panel].changes + panels[panel].pendingChanges).enumerated()
            .filter { (from...to).contains($0.element.at) }
            .sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
            .map(\.element)
    }

    /// The parts of `from..<to` that no stretch of `spans` covers.
    static func uncovered(_ from: Int64, _ to: Int64, by spans: [Span]) -> [Span] {
        var parts: [Span] = []
        var start = from
        for span in merged(spans) where span.to > start && span.from < to {
            if span.from > start { parts.append(Span(from: start, to: span.from, health: .unknown)) }
            start = max(start, span.to)
        }
        if start < to { parts.append(Span(from: start, to: to, health: .unknown)) }
        return parts
    }

    /// `spans` sorted, overlapping and touching ones joined.
    static func merged(_ spans: [Span]) -> [Span] {
        var joined: [Span] = []
        for span in spans.sorted(by: { $0.from < $1.from }) {
            if let last = joined.last, span.from <= last.to {
                joined[joined.count - 1].to = max(last.to, span.to)
            } else {
                joined.append(span)
            }
        }
        return joined
    }
}
