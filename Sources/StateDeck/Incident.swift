import FoundationEssentials

/// What people are told about a problem or planned work, written by an operator: a title, the
/// public panels it affects (none for an announcement), and updates in order, each with the status
/// it moved to. Resolved when its last update says so.
public struct Incident: Sendable, Equatable, Identifiable {
    public enum Status: String, Sendable, Equatable, Codable, CaseIterable {
        case investigating
        case identified
        case monitoring
        case resolved
    }

    /// One step of an incident: when it was written, the status it moved to, and its text (plain
    /// text; links are written as URLs).
    public struct Update: Sendable, Equatable {
        public var at: Date
        public var status: Status
        public var message: String
        /// Who wrote it, as the server's access list names them.
        public var author: String

        public init(at: Date, status: Status, message: String, author: String) {
            self.at = at
            self.status = status
            self.message = message
            self.author = author
        }
    }

    public var id: String
    public var title: String
    /// The panels it affects, by id: empty for an announcement.
    public var panels: [String]
    /// Oldest first; never empty: the first is the opening.
    public var updates: [Update]

    public init(id: String, title: String, panels: [String], updates: [Update]) {
        precondition(!updates.isEmpty, "an incident opens with its first update")
        self.id = id
        self.title = title
        self.panels = panels
        self.updates = updates
    }

    /// The status of the last update.
    public var status: Status { updates[updates.count - 1].status }
    public var openedAt: Date { updates[0].at }
    /// When the last update resolved it, or nil while it is open.
    public var resolvedAt: Date? { status == .resolved ? updates[updates.count - 1].at : nil }
    /// Without affected panels: planned work or news rather than a problem.
    public var isAnnouncement: Bool { panels.isEmpty }
}
