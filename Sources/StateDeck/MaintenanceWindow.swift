import FoundationEssentials

/// A stretch of time some panels are under maintenance, as a deck declares it (a deck file's
/// `maintenance:`): once, or again at each time a schedule names. Its panels keep being checked;
/// the time counts in no uptime ratio, and each panel's state says so (``MaintenanceMark``).
/// One stretch of it, or a window started through the API, is a ``MaintenanceSpan``.
public struct MaintenanceWindow: Sendable {
    /// When the window holds.
    public enum Timing: Sendable {
        /// From `from` until `until`.
        case once(from: Date, until: Date)
        /// For `duration` from each time a schedule names.
        case recurring(Recurrence)
    }

    /// A window that comes back: its schedule, in the zone it names, and how long each lasts.
    public struct Recurrence: Sendable {
        /// How the schedule reads in the window's documents: "0 3 * * 0 (Europe/Paris)".
        public var schedule: String
        public var duration: Duration
        /// The newest time the schedule names at or before a date, if any.
        public var latestStart: @Sendable (Date) -> Date?
        /// The first time the schedule names after a date, if any.
        public var nextStart: @Sendable (Date) -> Date?

        public init(schedule: String, duration: Duration, latestStart: @escaping @Sendable (Date) -> Date?,
                    nextStart: @escaping @Sendable (Date) -> Date?) {
            self.schedule = schedule
            self.duration = duration
            self.latestStart = latestStart
            self.nextStart = nextStart
        }
    }

    /// Unique among the deck's windows; what `DELETE /api/maintenance/{id}` names.
    public var id: String
    /// What the page shows: "Database upgrade".
    public var reason: String
    /// The ids of the panels it covers, groups already spelled out as their panels.
    public var panels: [String]
    public var timing: Timing

    public init(id: String, reason: String, panels: [String], timing: Timing) {
        self.id = id
        self.reason = reason
        self.panels = panels
        self.timing = timing
    }

    /// The stretch of this window that holds `date`, if one does: `from...` up to its end.
    func span(holding date: Date) -> MaintenanceSpan? {
        switch timing {
        case .once(let from, let until):
            return from <= date && date < until ? span(from: from, until: until) : nil
        case .recurring(let recurrence):
            guard let start = recurrence.latestStart(date) else { return nil }
            let end = start.addingTimeInterval(recurrence.duration / .seconds(1))
            return date < end ? span(from: start, until: end) : nil
        }
    }

    /// The first stretch of this window that begins after `date`, if any.
    func span(after date: Date) -> MaintenanceSpan? {
        switch timing {
        case .once(let from, let until):
            return from > date ? span(from: from, until: until) : nil
        case .recurring(let recurrence):
            return recurrence.nextStart(date).map { span(from: $0, until: $0.addingTimeInterval(recurrence.duration / .seconds(1))) }
        }
    }

    private func span(from: Date, until: Date) -> MaintenanceSpan {
        let schedule: String? = if case .recurring(let recurrence) = timing { recurrence.schedule } else { nil }
        return MaintenanceSpan(id: id, reason: reason, panels: panels, from: from, until: until, source: .deck,
                               schedule: schedule)
    }
}
