import Foundation
import StateDeck
import StateDeckNotifications
import TestSupport
import Testing

extension Routed {
    /// `GET /api/notify/log`: the notifier's last decisions and what became of each, newest first.
    @Suite struct NotifyLogRouteTests {
        static let at = Date(timeIntervalSince1970: 1_795_341_600)

        @Test func theLogIsItsEntriesNewestFirstEachWithItsOutcomeAndWhy() async throws {
            try await RoutedServer.run { server in
                let empty = try await server.get("/api/notify/log")
                #expect(empty.status == 200)
                #expect(empty.text == #"{"entries":[]}"#)
                let log = server.deckServer.notificationLog
                log.record(NotificationLog.Entry(at: Self.at, event: .failure, panels: ["api"], message: "API is down: Timed out",
                                                 target: "webhook hooks.example", outcome: .gathered(others: 13)))
                log.record(NotificationLog.Entry(at: Self.at.addingTimeInterval(60), event: .recovery, panels: ["api"],
                                                 message: "API is up again after 1 min", target: "webhook hooks.example",
                                                 outcome: .sent))
                let response = try await server.get("/api/notify/log")
                #expect(response.status == 200)
                #expect(response.header("Cache-Control") == "no-store")
                let document = try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])
                let entries = try #require(document["entries"] as? [[String: Any]])
                #expect(entries.map { $0["outcome"] as? String } == ["sent", "gathered"])
                #expect(entries.first?["why"] is NSNull, "null, not left out")
                #expect(entries.last?["why"] as? String == "with 13 others")
                #expect(entries.last?["at"] as? String == "2026-11-22T10:00:00.000Z")
                #expect(entries.last?["panels"] as? [String] == ["api"])
                #expect(entries.last?["target"] as? String == "webhook hooks.example")
                #expect(entries.last?["event"] as? String == "failure")
            }
        }
    }
}
