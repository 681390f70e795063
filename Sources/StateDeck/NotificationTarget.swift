/// Where notifications go: a webhook, a command, the page. Delivers one notification, retrying as
/// it sees fit; throws when it gave up, with a message for the log and an error toast.
public protocol NotificationTarget: Sendable {
    /// Names the target in messages: "webhook hooks.example", "command apprise".
    var name: String { get }
    func deliver(_ notification: DeckNotification) async throws
}
