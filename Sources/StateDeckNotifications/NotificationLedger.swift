import StateDeck

/// Keeps each rule's outage across restarts (the history store does).
public protocol NotificationLedger: Sendable {
    /// Every outage kept, by key (``Notifier/Subscription/key``).
    func outages() -> [String: OutageWatch]
    /// Keeps `watch` under `key`, or forgets the key when nil.
    func keep(_ watch: OutageWatch?, for key: String)
}
