import DeckTestSupport
import Foundation
import StateDeck
import StateDeckServer
import TestSupport
import Testing

extension Live {
    /// The event stream is the same bytes for every subscriber, so it carries no ping key to
    /// anyone: its snapshot and the change a ping makes say `hasPingURL` alone.
    @Suite struct PingKeyStreamLiveTests {
        static let key = "stream-never-holds-0123456789"

        @Test func aViewersStreamCarriesNoPingKeyThroughAPing() async throws {
            let viewer = AccessToken.generate()
            var options = LiveDeckServer.Options()
            options.access = AccessList([AccessList.Entry(name: "vic", role: .viewer, digest: TokenDigest(of: "\(viewer)"))])
            let deck = Deck("Stream", panels: [
                Panel("backup", title: "Backup", heartbeat: .every(.seconds(3_600), grace: .seconds(600), pingPath: "/ping/\(Self.key)")),
            ])
            try await LiveDeckServer.run(deck, options) { server in
                let stream = try await AsyncSSEClient.open(port: server.port, path: "/events",
                                                           headers: [("Authorization", "Bearer \(viewer)")])
                defer { stream.close() }
                let first = try #require(try await stream.opening().first)
                #expect(first.data.contains(#""hasPingURL":true"#), "\(first.data)")
                #expect(!first.data.contains(Self.key))
                let ping = try await offPool {
                    try HTTPTestClient.request("POST", "/ping/\(Self.key)", port: server.port, body: Array("copied 4 GB".utf8))
                }
                #expect(ping.status == 200)
                var pinged: SSEEvent?
                while pinged == nil, let event = try await stream.nextEvent() {
                    #expect(!event.data.contains(Self.key), "\(event.data)")
                    if event.data.contains("copied 4 GB") { pinged = event }
                }
                #expect(pinged != nil, "the ping's change never came")
            }
        }
    }
}
