import FoundationEssentials

/// The deck's incidents: those open, and those resolved within ``keptFor`` (the newest
/// ``keptResolved`` of them), newest first, with the alarm that drops a resolved one from what
/// the state shows.
///
/// | incident | listed (`GET /api/incidents`) | in the state document (``recent(at:)``) |
/// | --- | --- | --- |
/// | open | yes | yes |
/// | resolved less than ``shownFor`` (24 h) ago | yes | yes |
/// | resolved within ``keptFor`` (90 days), among the newest ``keptResolved`` (200) resolved | yes | no |
/// | resolved earlier | no: forgotten | no |
///
/// An id is the UTC day it opened and a number that day: `20261127-1`, `20261127-2`.
struct IncidentBook {
    static let keptFor = Incident.keptFor
    static let keptResolved = 200
    static let shownFor: Duration = .seconds(86_400)

    /// Newest opened first.
    private(set) var all: [Incident] = []
    /// What observers last heard of ``recent(at:)``; nil until the deck first looks, which it
    /// always tells: those following it may hold another deck's incidents (the last leader's).
    var told: [Incident]?
    /// When the alarm rings: the next time a resolved incident leaves the state document.
    var nextChange: Date?
    var alarm: DeckClock.Alarm?

    /// Opens an incident at `date`; its first update carries `status`, `message` and `author`.
    /// Past ``CountLimit/openIncidents`` open, none opens.
    mutating func open(title: String, panels: [String], status: Incident.Status, message: String, author: String,
                       at date: Date) throws(DeckError) -> Incident {
        guard all.count(where: { $0.resolvedAt == nil }) < CountLimit.openIncidents.count else {
            throw .tooMany(.openIncidents)
        }
        let incident = Incident(id: nextId(at: date), title: title, panels: panels,
                                updates: [Incident.Update(at: date, status: status, message: message, author: author)])
        all.insert(incident, at: 0)
        prune(at: date)
        return incident
    }

    /// Adds an update to open incident `id`: a resolved one takes no more, and one at
    /// ``CountLimit/incidentUpdates`` less one, or whose messages would pass
    /// ``CountLimit/incidentText``, takes only the update that resolves it, so that every incident
    /// can be resolved.
    mutating func update(_ id: String, with update: Incident.Update) throws(DeckError) -> Incident {
        guard let index = all.firstIndex(where: { $0.id == id }) else { throw .unknownIncident(id) }
        guard all[index].resolvedAt == nil else { throw .conflict("Incident '\(id)' is resolved: open a new one.") }
        let room = CountLimit.incidentUpdates.count - all[index].updates.count
        guard room > 1 || (room == 1 && update.status == .resolved) else { throw .tooMany(.incidentUpdates) }
        let text = all[index].updates.reduce(update.message.utf8.count) { $0 + $1.message.utf8.count }
        guard text <= CountLimit.incidentText.count || update.status == .resolved else { throw .tooMany(.incidentText) }
        all[index].updates.append(update)
        prune(at: update.at)
        return all[index]
    }

    /// Incident `id`, or nil.
    func incident(_ id: String) -> Incident? {
        all.first { $0.id == id }
    }

    /// Takes up what a history kept (or the deck this one replaces had), over incidents of the
    /// same id.
    mutating func restore(_ kept: [Incident], at date: Date) {
        let ids = Set(kept.map(\.id))
        all = (all.filter { !ids.contains($0.id) } + kept).sorted(by: Self.newestFirst)
        prune(at: date)
    }

    /// Those open and those resolved less than ``shownFor`` before `date`: the state document's.
    func recent(at date: Date) -> [Incident] {
        let since = date.addingTimeInterval(-(Self.shownFor / .seconds(1)))
        return all.filter { $0.resolvedAt.map { $0 > since } ?? true }
    }

    /// The first time after `date` that a resolved incident leaves ``recent(at:)``.
    func nextChange(after date: Date) -> Date? {
        recent(at: date).compactMap { $0.resolvedAt?.addingTimeInterval(Self.shownFor / .seconds(1)) }
            .filter { $0 > date }.min()
    }

    /// Forgets the resolved incidents past ``keptFor`` or beyond the newest ``keptResolved``.
    private mutating func prune(at date: Date) {
        let since = date.addingTimeInterval(-(Self.keptFor / .seconds(1)))
        var resolved = 0
        all.removeAll { incident in
            guard let resolvedAt = incident.resolvedAt else { return false }
            resolved += 1
            return resolvedAt < since || resolved > Self.keptResolved
        }
    }

    /// `yyyyMMdd-n` of `date`'s UTC day, `n` one past the highest that day has.
    private func nextId(at date: Date) -> String {
        let day = String(DeckJSON.timestamp(date).prefix(10).filter { $0 != "-" })
        let taken = all.compactMap { incident -> Int? in
            let parts = incident.id.split(separator: "-")
            guard parts.count == 2, parts[0] == day else { return nil }
            return Int(parts[1])
        }
        return "\(day)-\((taken.max() ?? 0) + 1)"
    }

    private static func newestFirst(_ first: Incident, _ second: Incident) -> Bool {
        (first.openedAt, first.id) > (second.openedAt, second.id)
    }
}

extension Incident {
    /// How long a resolved incident is kept (90 days): listed, and kept by a history store.
    public static let keptFor: Duration = .seconds(90 * 86_400)
}
