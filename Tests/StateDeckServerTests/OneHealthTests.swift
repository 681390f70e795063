import Foundation
import StateDeck
import StateDeckSQLite
import TestSupport
import Testing

extension Routed {
    /// Every surface reads the one health the deck decides: the state documents, the badge,
    /// `/metrics` and the history's tallies agree for an error card and, once it is dismissed, for
    /// the stale info shown after it (the notifier's side is in NotifierTests). Asked of the responder.
    @Suite struct OneHealthTests {
        /// Time up and down over the last hour, and the health now, as the uptime route reports them.
        struct Uptime {
            var upMs: Int
            var downMs: Int
            var current: String?
        }

        @Test func everySurfaceSaysDownForAFailedRefreshAndForItsDismissedCard() async throws {
            let fixture = HistoryFolderFixture()
            let store = try fixture.open()
            var options = RoutedServer.Options()
            options.history = store
            try await RoutedServer.run(options) { server in
                server.scripts.api.then(.failure(PanelError(.timeout)))
                #expect(try await server.post("/api/panels/api/retry").status == 202)
                try #require(await eventuallyValue { try await server.deck.panelState("api").phase == .error ? true : nil } == true)
                try await Task.sleep(for: .milliseconds(50))
                let failing = try await Self.expectDown(server, stale: false)

                let dismissed = try await server.post("/api/panels/api/recover", json: #"{"option":"\#(RecoveryOption.dismissId)"}"#)
                #expect(dismissed.status == 202)
                try await Task.sleep(for: .milliseconds(100))
                let afterDismissal = try await Self.expectDown(server, stale: true)
                #expect(afterDismissal.upMs == failing.upMs, "no time up while the dismissed card's info is shown")
                #expect(afterDismissal.downMs >= failing.downMs + 100)
            }
            store.close()
        }

        /// Checks that each surface says panel `api` is down, and returns what the history counted.
        private static func expectDown(_ server: some TestDeckServer, stale: Bool) async throws -> Uptime {
            let document = try await server.get("/api/panels/api").text
            #expect(document.contains(#""health":"down""#))
            #expect(document.contains(#""stale":\#(stale)"#))
            let stateText = try await server.get("/api/state").text
            let state = try #require(try JSONSerialization.jsonObject(with: Data(stateText.utf8)) as? [String: Any])
            let compact = try #require((state["panels"] as? [[String: Any]])?.first { $0["id"] as? String == "api" })
            #expect(compact["health"] as? String == "down")
            #expect(try await server.get("/badge/api.svg").text.contains("<title>API: down</title>"))
            let metrics = try await MetricsRouteTests.metrics(server)
            #expect(metrics["statedeck_panel_up", MetricsRouteTests.Samples.panel("api")] == 0)
            let uptime = try await Self.uptime(server)
            #expect(uptime.current == "down")
            #expect(uptime.downMs > 0)
            return uptime
        }

        private static func uptime(_ server: some TestDeckServer) async throws -> Uptime {
            let text = try await server.get("/api/panels/api/uptime?span=1h&slots=1").text
            let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let slot = try #require((report["slots"] as? [[String: Any]])?.last)
            return Uptime(upMs: try #require(slot["upMs"] as? Int), downMs: try #require(slot["downMs"] as? Int),
                          current: (report["current"] as? [String: Any])?["state"] as? String)
        }
    }
}
