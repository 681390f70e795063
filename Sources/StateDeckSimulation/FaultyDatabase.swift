import Locking
import StateDeck
import StateDeckHistory
import StateDeckNotifications

/// A history database with a disk that can fill and a process that can die: it passes every call
/// to the real one, but refuses commits while the disk is full, and everything after a kill (the
/// process is gone; its last save never happens), until it is closed.
final class FaultyDatabase: HistoryDatabase {
    /// What the simulated machine does to writes.
    final class Faults: Sendable {
        let diskFull = Locked(false)
        let killed = Locked(false)
    }

    private let database: any HistoryDatabase
    private let faults: Faults

    init(_ database: any HistoryDatabase, faults: Faults) {
        self.database = database
        self.faults = faults
    }

    private func refusingWrites() throws(HistoryDatabaseError) {
        if faults.killed.current {
            throw HistoryDatabaseError(.unknown, title: "Process killed", notSaved: "", resumesOnce: "never",
                                       detail: "the simulated process was killed")
        }
        if faults.diskFull.current {
            throw HistoryDatabaseError(.outOfSpace, title: "Disk full", notSaved: " (the disk is full)",
                                       resumesOnce: "the disk has room", detail: "database or disk is full")
        }
    }

    func load(following: Bool) throws(HistoryDatabaseError) -> StoredHistory {
        try database.load(following: following)
    }

    func readyToCommit(placing: Bool) throws(HistoryDatabaseError) -> StoredPositions? {
        try refusingWrites()
        return try database.readyToCommit(placing: placing)
    }

    func commit(_ batch: HistoryBatch) throws(HistoryDatabaseError) -> CommitOutcome {
        try refusingWrites()
        return try database.commit(batch)
    }

    func commit(_ writes: [NotificationRecords.Write]) throws(HistoryDatabaseError) {
        try refusingWrites()
        try database.commit(writes)
    }

    func changes(of panel: String, in range: ChangeRange) throws(HistoryDatabaseError) -> [PositionedEntry] {
        try database.changes(of: panel, in: range)
    }

    func tallies(of panel: String, _ resolution: Resolution, from: Int64) throws(HistoryDatabaseError) -> [TallyRow] {
        try database.tallies(of: panel, resolution, from: from)
    }

    func newestEntries(of panel: String, limit: Int) throws(HistoryDatabaseError) -> [ViewStateHistory.Entry] {
        try database.newestEntries(of: panel, limit: limit)
    }

    func auditEntries(_ query: AuditQuery) throws(HistoryDatabaseError) -> [AuditEntry] {
        try database.auditEntries(query)
    }

    func forms(at: Int64) throws(HistoryDatabaseError) -> [MomentForm] {
        try database.forms(at: at)
    }

    func oldestForm() throws(HistoryDatabaseError) -> Int64? {
        try database.oldestForm()
    }

    func formChanges(in range: FormChangeRange) throws(HistoryDatabaseError) -> [MomentForm] {
        try database.formChanges(in: range)
    }

    func healthChange(of panel: String, atOrBefore at: Int64) throws(HistoryDatabaseError) -> MomentForm? {
        try database.healthChange(of: panel, atOrBefore: at)
    }

    func close() {
        database.close()
    }
}
