import FoundationEssentials
import StateDeck

/// A notification decided for one `notify:` entry and not done yet: neither delivered nor given
/// up. The ledger keeps it from before it is sent until it is done, so that a stop in between
/// leaves it to the next run instead of losing it.
public struct PendingDelivery: Sendable, Hashable, Codable, Identifiable {
    public var id: UUID
    /// The entry's key (``Notifier/Subscription/key``): whose target it goes to.
    public var key: String
    public var notification: DeckNotification
    /// Its place among the deliveries a ledger kept, in the order they were decided, across runs
    /// (``NotificationRecords`` numbers each as it keeps it); nil for one no ledger kept, or an
    /// older StateDeck did. A wall clock set back gives a later decision an earlier `at`.
    public var sequence: Int64?

    public init(id: UUID = UUID(), key: String, notification: DeckNotification) {
        self.id = id
        self.key = key
        self.notification = notification
    }
}
