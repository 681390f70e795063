import StateDeck
import StateDeckServer
import Testing

/// A dashboard reachable from other machines needs a token, whoever assembles the server: the
/// command line or a program embedding it.
@Suite struct ExposedServerTests {
    static func deck() -> Deck {
        Deck("Exposed") { Panel("p", title: "P") { Info(summary: "ok") } }
    }

    @Test(arguments: ["0.0.0.0", "::", "192.0.2.10", "statedeck.example"])
    func listeningBeyondLoopbackWithoutATokenIsRefused(host: String) async {
        let configuration = ServerConfiguration(host: host, port: 0)
        await #expect(throws: DeckServerError.tokenRequired(host: host)) {
            _ = try await DeckServer(deck: Self.deck(), configuration: configuration)
        }
    }

    @Test func theRefusalSaysHowToGiveAToken() {
        let message = DeckServerError.tokenRequired(host: "0.0.0.0").description
        #expect(message.contains("0.0.0.0") && message.contains("ServerConfiguration.token"))
    }

    @Test func withATokenOrOnLoopbackTheServerIsPrepared() async throws {
        var exposed = ServerConfiguration(host: "0.0.0.0", port: 0)
        exposed.token = AccessToken.generate()
        _ = try await DeckServer(deck: Self.deck(), configuration: exposed)
        for host in ["127.0.0.1", "localhost", "::1"] {
            _ = try await DeckServer(deck: Self.deck(), configuration: ServerConfiguration(host: host, port: 0))
        }
    }
}
