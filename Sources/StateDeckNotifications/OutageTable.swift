import Locking

/// Outages in memory, for a server without a ledger of its own: carried from one notifier to the
/// next as the deck served is replaced, forgotten when the process ends.
public final class OutageTable: NotificationLedger {
    private let table = Locked<[String: OutageWatch]>([:])

    public init() {}

    public func outages() -> [String: OutageWatch] { table.current }

    public func keep(_ watch: OutageWatch?, for key: String) {
        table.withLock { $0[key] = watch }
    }
}
