import FoundationEssentials
import Locking
import StateDeckHistory

/// Where a server keeps the audit: in its history store, which saves each entry before the action
/// is answered, so that it outlives the process; without one, the newest ``memoryLimit`` entries
/// in memory, lost at exit.
public final class AuditTrail: Sendable {
    /// The entries kept without a history store.
    public static let memoryLimit = 1_000

    /// Nil keeps the entries in memory.
    private let history: (any HistoryStore)?
    /// Oldest first; only without a history store.
    private let memory = Locked<[AuditEntry]>([])

    init(history: (any HistoryStore)?) {
        self.history = history
    }

    /// Keeps `entry`; returns once the history store saved it.
    public func record(_ entry: AuditEntry) async {
        guard let history else {
            memory.withLock { entries in
                entries.append(entry)
                if entries.count > Self.memoryLimit { entries.removeFirst(entries.count - Self.memoryLimit) }
            }
            return
        }
        history.audit(entry)
        await history.saved()
    }

    /// The entries `query` reads, newest first.
    public func entries(_ query: AuditQuery) throws(HistoryStoreError) -> [AuditEntry] {
        guard let history else { return query.select(from: memory.current) }
        return try history.auditEntries(query)
    }
}
