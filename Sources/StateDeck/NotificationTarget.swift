/// Where notifications go: a webhook, a command, the page. Delivers one notification, or several
/// gathered in one message, retrying as it sees fit; throws when it gave up, with a message for
/// the log and an error toast.
public protocol NotificationTarget: Sendable {
    /// Names the target in messages: "webhook hooks.example", "command apprise".
    var name: String { get }
    /// What the target is: entries with the same address (of any panels) have their notifications
    /// gathered into one message. ``name`` unless the target says more (a webhook: its method, URL
    /// and headers; a command: what it runs).
    var address: String { get }
    func deliver(_ notification: DeckNotification) async throws
    func deliver(_ gathered: GatheredNotification) async throws
    /// Delivers `notification` in one attempt, without the retries of ``deliver(_:)``: a test
    /// send, whose answer a person waits for. Throws what the attempt met.
    func attempt(_ notification: DeckNotification) async throws
}

extension NotificationTarget {
    public var address: String { name }

    /// A target that does not retry attempts as it delivers.
    public func attempt(_ notification: DeckNotification) async throws {
        try await deliver(notification)
    }
}
