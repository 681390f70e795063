/// Where notifications go: a webhook, a command. Delivers one notification, retrying as it sees
/// fit; throws when it gave up, with a message for the "StateDeck itself" panel.
public protocol NotificationTarget: Sendable {
    /// Names the target in messages: "webhook hooks.example", "command apprise".
    var name: String { get }
    func deliver(_ notification: DeckNotification) async throws
}

/// Keeps each rule's outage across restarts (the history store does).
public protocol NotificationLedger: Sendable {
    /// Every outage kept, by key (``Notifier/Subscription/key``).
    func outages() -> [String: OutageWatch]
    /// Keeps `watch` under `key`, or forgets the key when nil.
    func keep(_ watch: OutageWatch?, for key: String)
}
