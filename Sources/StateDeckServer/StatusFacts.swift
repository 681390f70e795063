import FoundationEssentials
import StateDeck
import StateDeckHistory

/// Everything the public status page, its JSON and its feed say, and nothing else: built field by
/// field from the deck's ``StatusPage``, the mirror's healths and marks, the incidents and the
/// days' tallies, never by filtering a fuller document. A panel's id, title, info, error,
/// source, recovery options, toasts and the deck's notices have no field here to go into.
struct StatusFacts: Sendable {
    /// A line's state in the public's words. The order is severity: the worst of several wins.
    enum State: Int, Sendable, Comparable, CaseIterable {
        case unknown, up, maintenance, degraded, down

        var name: String {
            switch self {
            case .unknown: "unknown"
            case .up: "up"
            case .maintenance: "maintenance"
            case .degraded: "degraded"
            case .down: "down"
            }
        }

        /// What a line says.
        var words: String {
            switch self {
            case .unknown: "No data yet"
            case .up: "Operational"
            case .maintenance: "Under maintenance"
            case .degraded: "Degraded"
            case .down: "Down"
            }
        }

        static func < (lhs: State, rhs: State) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What the page is told of one panel.
    struct Reading: Sendable, Equatable {
        var health: Health
        var inMaintenance = false
        var flapping = false

        /// up, down; degraded while flapping; maintenance under a window; unknown before a result.
        var state: State {
            if inMaintenance { return .maintenance }
            if flapping { return .degraded }
            return switch health {
            case .up: .up
            case .down: .down
            case .loading, .unknown: .unknown
            }
        }
    }

    /// One line: a panel or a group under its public name.
    struct Line: Sendable {
        var name: String
        var state: State
        /// The last 90 days' tallies, oldest first, today last; nil without a history.
        var days: [Tally]?

        /// Time up out of time up or down over the days (maintenance is neither); nil with no data.
        var uptime: Double? {
            guard let days else { return nil }
            let up = days.reduce(0) { $0 + $1.upMs }
            let known = up + days.reduce(0) { $0 + $1.downMs }
            return known > 0 ? Double(up) / Double(known) : nil
        }
    }

    /// An incident as the public reads it: its title, status, the public lines it affects and its
    /// updates' times, statuses and messages (not who wrote them).
    struct PublicIncident: Sendable {
        struct Update: Sendable {
            var at: Date
            var status: Incident.Status
            var message: String
        }

        /// A key the feed's entry ids are made from; never shown.
        var key: String
        var title: String
        var status: Incident.Status
        var affects: [String]
        var updates: [Update]
        var openedAt: Date
        var resolvedAt: Date?
        var isAnnouncement: Bool
    }

    static let days = 90

    var title: String
    var description: String?
    var logo: String?
    var links: [StatusPage.Link]
    var lines: [Line]
    /// Open ones first, then those resolved within 90 days; newest first in each.
    var incidents: [PublicIncident]
    /// The first of the 90 days (UTC midnight); nil without a history.
    var firstDay: Date?
    /// Why the lines have no days, when they have none: no history is kept, or it cannot be read.
    var historyNote: String?
    var generatedAt: Date

    /// The worst of the lines' states, unknown lines aside unless all are.
    var overall: State {
        let known = lines.map(\.state).filter { $0 != .unknown }
        return known.max() ?? .unknown
    }

    /// The sentence at the top of the page.
    var summary: String {
        let states = lines.map(\.state)
        switch overall {
        case .down: return states.allSatisfy { $0 == .down } ? "All systems are down" : "Some systems are down"
        case .degraded: return "Some systems are degraded"
        case .maintenance: return "Maintenance in progress"
        case .up: return "All systems operational"
        case .unknown: return "Status not known yet"
        }
    }

    var openIncidents: [PublicIncident] { incidents.filter { $0.resolvedAt == nil } }
    var pastIncidents: [PublicIncident] { incidents.filter { $0.resolvedAt != nil } }
}

extension StatusFacts {
    /// The facts of `page` now: each line's state from `readings` (by panel id), its days from
    /// `days` (by panel id; nil without a history), and the incidents that are open or were
    /// resolved within 90 days of `now`: announcements, and those that affect a line of the page (an
    /// incident of panels the page does not show is not the public's).
    init(page: StatusPage, readings: [String: Reading], days: [String: [Tally]]?, firstDay: Date?,
         incidents: [Incident], now: Date) {
        title = page.title
        description = page.description
        logo = page.logo
        links = page.links
        self.firstDay = firstDay
        generatedAt = now
        lines = page.components.map { component in
            let states = component.panels.compactMap { readings[$0]?.state }
            let days = days.map { days in Self.summed(component.panels.compactMap { days[$0] }) }
            return Line(name: component.name, state: Self.combined(states), days: days)
        }
        let horizon = now.addingTimeInterval(-Double(Self.days) * 86_400)
        let shown = incidents.filter { incident in
            (incident.resolvedAt ?? now) >= horizon
                && (incident.isAnnouncement || incident.panels.contains { !page.components(showing: $0).isEmpty })
        }
        let open = shown.filter { $0.resolvedAt == nil }.sorted { $0.openedAt > $1.openedAt }
        let past = shown.filter { $0.resolvedAt != nil }.sorted { $0.resolvedAt! > $1.resolvedAt! }
        self.incidents = (open + past).map { Self.publicIncident($0, page: page) }
    }

    /// A group's state from its panels': panels without a result yet are left out while others
    /// have one, and panels under maintenance while others are not; then the one state the rest
    /// share, else degraded when some are up and others down, else the worst.
    static func combined(_ states: [State]) -> State {
        let known = states.filter { $0 != .unknown }
        guard !known.isEmpty else { return .unknown }
        let working = known.filter { $0 != .maintenance }
        guard let first = working.first else { return .maintenance }
        if working.allSatisfy({ $0 == first }) { return first }
        return working.contains(.up) && working.contains(.down) ? .degraded : working.max() ?? first
    }

    /// Day by day, the sum of the panels' tallies.
    private static func summed(_ panels: [[Tally]]) -> [Tally] {
        if panels.count == 1 { return panels[0] }
        var days = [Tally](repeating: Tally(), count: Self.days)
        for panel in panels {
            for (index, tally) in panel.suffix(Self.days).enumerated() { days[index].merge(tally) }
        }
        return days
    }

    /// `incident` with the public names of the lines showing the panels it affects.
    private static func publicIncident(_ incident: Incident, page: StatusPage) -> PublicIncident {
        var affects: [String] = []
        for id in incident.panels {
            for component in page.components(showing: id) where !affects.contains(component.name) {
                affects.append(component.name)
            }
        }
        return PublicIncident(
            key: incident.id, title: incident.title, status: incident.status, affects: affects,
            updates: incident.updates.map { PublicIncident.Update(at: $0.at, status: $0.status, message: $0.message) },
            openedAt: incident.openedAt, resolvedAt: incident.resolvedAt, isAnnouncement: incident.isAnnouncement)
    }
}
