import FoundationEssentials

/// What a history store keeps of a panel's ``FlappingRule`` count with every change of the panel,
/// and a cluster's replica with what it was handed of the panel: its changes of health between up
/// and down within the rule's window, and when flapping began. A deck continued from either
/// (after a stop, a crash or a failover) counts on from it, so flapping keeps its `since` and ends
/// `within` after the newest change, as it would have.
///
/// The count itself is kept rather than rebuilt from the stored changes: those do not carry the
/// health, and flapping's `since` may lie further back than any window (it lasts while changes
/// keep coming), so only the count as the deck had it is exact.
public struct FlapRecord: Sendable, Equatable {
    /// When the health changed, oldest first: those within the window of the newest.
    public var changes: [Date]
    /// When flapping began; nil while the panel is not flapping.
    public var since: Date?

    public init(changes: [Date] = [], since: Date? = nil) {
        self.changes = changes
        self.since = since
    }

    /// The record as a deck continues it at `now` under `rule`: nothing with flapping turned off
    /// or once `within` has passed since the newest change (the count would have ended, and a
    /// change now starts afresh); else the changes within `within` of the newest.
    func continued(under rule: FlappingRule?, at now: Date) -> FlapRecord {
        guard let rule, let newest = changes.last, now < newest.addingTimeInterval(rule.within / .seconds(1)) else {
            return FlapRecord()
        }
        let windowStart = newest.addingTimeInterval(-(rule.within / .seconds(1)))
        return FlapRecord(changes: changes.filter { $0 > windowStart }, since: since)
    }
}
