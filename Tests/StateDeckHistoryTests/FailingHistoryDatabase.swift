import Locking
import StateDeck
import StateDeckHistory
import StateDeckNotifications

/// A database whose commits fail while `failing` is set, as a full or read-only disk refuses them,
/// counting those refused; everything else is `inner`'s.
final class FailingHistoryDatabase: HistoryDatabase {
    let inner: any HistoryDatabase
    let failing = Locked(false)
    /// The commits refused so far.
    let refused = Locked(0)

    init(_ inner: any HistoryDatabase) {
        self.inner = inner
    }

    private func refuseWhileFailing() throws(HistoryDatabaseError) {
        guard failing.current else { return }
        refused.withLock { $0 += 1 }
        throw HistoryDatabaseError(.outOfSpace, title: "Out of space", notSaved: ": there is no room for it",
                                   resumesOnce: "there is space", detail: "database or disk is full")
    }

    func commit(_ batch: HistoryBatch) throws(HistoryDatabaseError) -> CommitOutcome {
        try refuseWhileFailing()
        return try inner.commit(batch)
    }

    func commit(_ writes: [NotificationRecords.Write]) throws(HistoryDatabaseError) {
        try refuseWhileFailing()
        try inner.commit(writes)
    }

    func load(following: Bool) throws(HistoryDatabaseError) -> StoredHistory {
        try inner.load(following: following)
    }

    func readyToCommit(placing: Bool) throws(HistoryDatabaseError) -> StoredPositions? {
        try inner.readyToCommit(placing: placing)
    }

    func changes(of panel: String, in range: ChangeRange) throws(HistoryDatabaseError) -> [PositionedEntry] {
        try inner.changes(of: panel, in: range)
    }

    func tallies(of panel: String, _ resolution: Resolution, from: Int64) throws(HistoryDatabaseError) -> [TallyRow] {
        try inner.tallies(of: panel, resolution, from: from)
    }

    func newestEntries(of panel: String, limit: Int) throws(HistoryDatabaseError) -> [ViewStateHistory.Entry] {
        try inner.newestEntries(of: panel, limit: limit)
    }

    func auditEntries(_ query: AuditQuery) throws(HistoryDatabaseError) -> [AuditEntry] {
        try inner.auditEntries(query)
    }

    func forms(at: Int64) throws(HistoryDatabaseError) -> [MomentForm] {
        try inner.forms(at: at)
    }

    func oldestForm() throws(HistoryDatabaseError) -> Int64? {
        try inner.oldestForm()
    }

    func formChanges(in range: FormChangeRange) throws(HistoryDatabaseError) -> [MomentForm] {
        try inner.formChanges(in: range)
    }

    func healthChange(of panel: String, atOrBefore at: Int64) throws(HistoryDatabaseError) -> MomentForm? {
        try inner.healthChange(of: panel, atOrBefore: at)
    }

    func close() {
        inner.close()
    }
}
