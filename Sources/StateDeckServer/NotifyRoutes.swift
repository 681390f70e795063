import FoundationEssentials
import MicroHTTP
import StateDeck
import StateDeckNotifications

/// The notifications' routes: `GET /api/notify/log`, the last decisions for `notify:` targets and
/// what became of them, newest first (PROTOCOL.md, "Notifications").
struct NotifyRoutes: Sendable {
    let log: NotificationLog
    /// Reads the log here, or where the deck runs and its notifier decides (a host's process).
    let read: @Sendable (HTTPRequest, @escaping @Sendable () async throws -> HTTPResponse) -> HTTPReply

    /// `{"entries": [...]}`.
    private struct LogDocument: Encodable {
        var entries: [NotificationLog.Entry]
    }

    func register(on router: inout Router) {
        router.on(.get, "/api/notify/log") { request, _ in
            read(request) {
                do {
                    return .api(.ok, try DeckJSON.makeEncoder().encode(LogDocument(entries: log.entries)))
                } catch {
                    return .apiError(.internalServerError, code: "internal", message: "the log could not be written: \(error)")
                }
            }
        }
    }
}
