import Locking

/// Outages in memory, for a server without a history (`--data none`, or a program embedding
/// StateDeck without one): carried from one notifier to the next as the deck served is replaced.
/// Nothing outlives the process, so no run is ever left a delivery to finish, and one under way
/// needs no record: its task carries it.
public final class OutageTable: NotificationLedger {
    private let table = Locked<[String: OutageWatch]>([:])

    public init() {}

    public func outages() -> [String: OutageWatch] { table.current }

    public func keep(_ watch: OutageWatch?, for key: String, delivering delivery: PendingDelivery?,
                     replacing replaced: PendingDelivery.ID?) {
        table.withLock { $0[key] = watch }
    }

    public func finished(_ deliveries: [PendingDelivery.ID]) {}

    public func forget(keysOutside keys: Set<String>) {
        table.withLock { $0 = $0.filter { keys.contains($0.key) } }
    }

    public func takeUndelivered() -> [PendingDelivery] { [] }

    /// Nothing is written: no run after this one reads a delivery.
    public func hasKept(_ deliveries: [PendingDelivery.ID]) -> Bool { true }

    /// One notifier at a time: the deck served replaces the last, and nothing is handed over.
    public func claim(_ deliveries: [PendingDelivery.ID]) -> Set<PendingDelivery.ID>? { Set(deliveries) }
}
