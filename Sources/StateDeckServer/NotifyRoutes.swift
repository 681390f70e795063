import FoundationEssentials
import MicroHTTP
import StateDeck
import StateDeckNotifications

/// The notifications' routes: `GET /api/notify/log`, the last decisions for `notify:` targets and
/// what became of them, newest first (PROTOCOL.md, "Notifications").
struct NotifyRoutes: Sendable {
    let log: NotificationLog
    /// The answer of the server that runs the deck, whose notifier decides, when this one does not
    /// (a host's process); nil when this one does.
    let forward: @Sendable (HTTPRequest) async -> HTTPResponse?

    /// `{"entries": [...]}`.
    private struct LogDocument: Encodable {
        var entries: [NotificationLog.Entry]
    }

    func register(on router: inout Router) {
        router.on(.get, "/api/notify/log") { request, _ in
            .deferred {
                if let answer = await forward(request) { return answer }
                do {
                    return .api(.ok, try DeckJSON.makeEncoder().encode(LogDocument(entries: log.entries)))
                } catch {
                    return .apiError(.internalServerError, code: "internal", message: "the log could not be written: \(error)")
                }
            }
        }
    }
}
