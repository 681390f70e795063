import StateDeck
import StateDeckNotifications

/// A history database whose commits are refused while `refusal` gives a reason, as a full or
/// read-only disk refuses them, or a process gone commits nothing more, and whose whole reads
/// (`load`) fail while `unreadable` gives one: the simulator's faults and the tests'. Everything
/// else is the wrapped database's.
public final class RefusingHistoryDatabase: HistoryDatabase {
    private let database: any HistoryDatabase
    private let refusal: @Sendable () -> HistoryDatabaseError?
    private let unreadable: @Sendable () -> HistoryDatabaseError?

    public init(_ database: any HistoryDatabase, refusal: @escaping @Sendable () -> HistoryDatabaseError?,
                unreadable: @escaping @Sendable () -> HistoryDatabaseError? = { nil }) {
        self.database = database
        self.refusal = refusal
        self.unreadable = unreadable
    }

    private func refusingWrites() throws(HistoryDatabaseError) {
        if let refusal = refusal() { throw refusal }
    }

    public func load(following: Bool) throws(HistoryDatabaseError) -> StoredHistory {
        if let unreadable = unreadable() { throw unreadable }
        return try database.load(following: following)
    }

    public func claim(deliveries ids: [String]) throws(HistoryDatabaseError) -> Set<String> {
        try refusingWrites()
        return try database.claim(deliveries: ids)
    }

    public func takeWriting() throws(HistoryDatabaseError) {
        try refusingWrites()
        try database.takeWriting()
    }

    public func readyToCommit(placing: Bool) throws(HistoryDatabaseError) -> StoredPositions? {
        try refusingWrites()
        return try database.readyToCommit(placing: placing)
    }

    public func commit(_ batch: HistoryBatch) throws(HistoryDatabaseError) -> CommitOutcome {
        try refusingWrites()
        return try database.commit(batch)
    }

    public func commit(_ writes: [NotificationRecords.Write]) throws(HistoryDatabaseError) {
        try refusingWrites()
        try database.commit(writes)
    }

    public func changes(of panel: String, in range: ChangeRange) throws(HistoryDatabaseError) -> [PositionedEntry] {
        try database.changes(of: panel, in: range)
    }

    public func tallies(of panel: String, _ resolution: Resolution, from: Int64) throws(HistoryDatabaseError) -> [TallyRow] {
        try database.tallies(of: panel, resolution, from: from)
    }

    public func newestEntries(of panel: String, limit: Int) throws(HistoryDatabaseError) -> [ViewStateHistory.Entry] {
        try database.newestEntries(of: panel, limit: limit)
    }

    public func auditEntries(_ query: AuditQuery) throws(HistoryDatabaseError) -> [AuditEntry] {
        try database.auditEntries(query)
    }

    public func forms(at: Int64) throws(HistoryDatabaseError) -> [MomentForm] {
        try database.forms(at: at)
    }

    public func oldestForm() throws(HistoryDatabaseError) -> Int64? {
        try database.oldestForm()
    }

    public func formChanges(in range: FormChangeRange) throws(HistoryDatabaseError) -> [MomentForm] {
        try database.formChanges(in: range)
    }

    public func panelForm(of panel: String, atOrBefore at: Int64, changingHealthTo health: String?)
        throws(HistoryDatabaseError) -> MomentForm? {
        try database.panelForm(of: panel, atOrBefore: at, changingHealthTo: health)
    }

    public func close() {
        database.close()
    }
}
