import FoundationEssentials

/// The deck's maintenance windows: those it declares, those started through the API, the
/// stretches ended early, and the alarm set for the next time any of it changes.
///
/// | window | holds |
/// | --- | --- |
/// | declared once | from `from` until `until`, or until ended early |
/// | declared recurring | from each time its schedule names, for its duration, or until that stretch is ended early |
/// | started through the API | from its start, for its minutes, or until ended early |
///
/// A panel under several windows carries the one that ends last. The windows started through the
/// API and the stretches ended early are what a history store keeps (``kept``).
struct MaintenanceBook {
    /// How far ahead ``status(at:)`` lists the next stretch of each declared window.
    static let horizon: Duration = .seconds(7 * 86_400)

    let declared: [MaintenanceWindow]
    /// Windows started through the API, each with its end (moved up when ended early).
    private(set) var started: [MaintenanceSpan] = []
    /// Stretches of declared windows ended early, each with the end it was given.
    private(set) var endedEarly: [MaintenanceSpan] = []
    /// The highest number of a window started through the API (`api-4`: 4), of those started and
    /// those kept: the next is one more, so no id is taken again once its window is forgotten.
    private var highestStarted = 0
    /// What observers last heard; nil until the deck first looks, which it always tells: those
    /// following it may hold another deck's windows (a cluster's replicas, the last leader's).
    var told: MaintenanceStatus?
    /// When the alarm rings: the next time a window begins or ends, or comes within the horizon.
    var nextChange: Date?
    var alarm: DeckClock.Alarm?

    init(declared: [MaintenanceWindow]) {
        let ids = declared.map(\.id)
        precondition(Set(ids).count == ids.count, "Maintenance window ids must be unique within a deck: \(ids)")
        self.declared = declared
    }

    /// The windows started through the API and the stretches ended early: what a history keeps.
    var kept: [MaintenanceSpan] { started + endedEarly }

    /// Takes up what a history kept (or the deck this one replaces): windows started through the
    /// API, and stretches of this deck's windows ended early; those of windows it no longer
    /// declares are dropped.
    mutating func restore(_ spans: [MaintenanceSpan]) {
        for span in spans {
            switch span.source {
            case .api:
                started.removeAll { $0.id == span.id && $0.from == span.from }
                started.append(span)
                highestStarted = max(highestStarted, Self.number(of: span.id) ?? 0)
            case .deck where declared.contains(where: { $0.id == span.id }):
                endedEarly.removeAll { $0.id == span.id && $0.from == span.from }
                endedEarly.append(span)
            case .deck:
                break
            }
        }
    }

    /// The windows holding at `date`, by start then id.
    func active(at date: Date) -> [MaintenanceSpan] {
        let declaredSpans = declared.compactMap { window -> MaintenanceSpan? in
            guard var span = window.span(holding: date) else { return nil }
            if let ended = endedEarly.first(where: { $0.id == span.id && $0.from == span.from }) { span.until = ended.until }
            return span.holds(at: date) ? span : nil
        }
        return (declaredSpans + started.filter { $0.holds(at: date) }).sorted(by: Self.byStart)
    }

    /// What holds at `date`, and the next stretch of each declared window within the horizon.
    func status(at date: Date) -> MaintenanceStatus {
        let horizonEnd = date.addingTimeInterval(Self.horizon / .seconds(1))
        let next = declared.compactMap { $0.span(after: date) }.filter { $0.from <= horizonEnd }
        return MaintenanceStatus(active: active(at: date), next: next.sorted(by: Self.byStart))
    }

    /// The first time after `date` that `status` changes: a window holding ends, a declared one
    /// begins, or its next stretch comes within the horizon.
    func nextChange(after date: Date, from status: MaintenanceStatus) -> Date? {
        var times = status.active.map(\.until)
        for window in declared {
            guard let next = window.span(after: date) else { continue }
            times += [next.from, next.from.addingTimeInterval(-(Self.horizon / .seconds(1)))]
        }
        return times.filter { $0 > date }.min()
    }

    /// Each covered panel's mark, given the windows holding.
    static func marks(of active: [MaintenanceSpan]) -> [String: MaintenanceMark] {
        var marks: [String: MaintenanceMark] = [:]
        for span in active {
            for panel in span.panels where marks[panel].map({ span.until > $0.until }) ?? true {
                marks[panel] = span.mark
            }
        }
        return marks
    }

    /// Starts a window through the API over `panels` from `date` for `duration`: its id is
    /// `api-` and the number after the highest taken. Past ``CountLimit/startedMaintenance``
    /// holding at `date`, none starts.
    mutating func start(panels: [String], reason: String, at date: Date,
                        for duration: Duration) throws(DeckError) -> MaintenanceSpan {
        guard started.count(where: { $0.holds(at: date) }) < CountLimit.startedMaintenance.count else {
            throw .tooMany(.startedMaintenance)
        }
        let taken = Set(declared.map(\.id))
        highestStarted = ((highestStarted + 1)...).first { !taken.contains("api-\($0)") }!
        let id = "api-\(highestStarted)"
        let span = MaintenanceSpan(id: id, reason: reason, panels: panels, from: date,
                                   until: date.addingTimeInterval(duration / .seconds(1)), source: .api)
        started.append(span)
        return span
    }

    /// Forgets the windows started through the API that ended by `date`, and the stretches ended
    /// early whose window holds another stretch or none at `date`: neither can hold again. The
    /// history keeps them for its days' retention; the deck (and the deck that replaces it)
    /// keeps only what still matters, however many windows were started and ended.
    mutating func prune(at date: Date) {
        started.removeAll { $0.until <= date }
        endedEarly.removeAll { span in
            declared.first { $0.id == span.id }?.span(holding: date)?.from != span.from
        }
    }

    /// Ends window `id` at `date` if it holds then (a recurring one: its stretch holding), and
    /// returns the stretch as ended; nil when it does not hold.
    mutating func end(_ id: String, at date: Date) -> MaintenanceSpan? {
        guard var span = active(at: date).first(where: { $0.id == id }) else { return nil }
        span.until = date
        switch span.source {
        case .api:
            started = started.map { ($0.id, $0.from) == (id, span.from) ? span : $0 }
        case .deck:
            endedEarly.removeAll { $0.id == id && $0.from == span.from }
            endedEarly.append(span)
        }
        return span
    }

    /// `4` of `api-4`; nil for an id of another form.
    private static func number(of id: String) -> Int? {
        id.hasPrefix("api-") ? Int(id.dropFirst(4)) : nil
    }

    private static func byStart(_ first: MaintenanceSpan, _ second: MaintenanceSpan) -> Bool {
        (first.from, first.id) < (second.from, second.id)
    }
}
