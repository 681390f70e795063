import DeckTestSupport
import StateDeck
import StateDeckServer
import Testing

/// An address in front of the server (a load balancer) that the gate takes as the server's own.
@Suite struct PublicAddressTests {
    @Test(arguments: [
        ("https://status.example", "status.example", "https://status.example"),
        ("https://Status.Example:443/", "status.example", "https://status.example"),
        ("http://127.0.0.1:8080", "127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://[::1]:80", "[::1]", "http://[::1]"),
        ("http://[::1]", "[::1]", "http://[::1]"),
    ])
    func hostAndOriginAreSpelledAsABrowserSendsThem(url: String, host: String, origin: String) throws {
        let address = try PublicAddress(parsing: url)
        #expect(address.host == host)
        #expect(address.origin == origin)
    }

    @Test(arguments: ["status.example", "ftp://status.example", "https://", "https://status.example/board",
                      "https://user@status.example", "https://status.example:0", "https://status.example:http"])
    func anythingButSchemeHostAndPortIsRefusedNamingTheOption(url: String) {
        let error = #expect(throws: PublicAddress.Invalid.self) { try PublicAddress(parsing: url) }
        #expect(error?.description.hasPrefix("--public-url \(url): ") == true)
    }

    @Test func theGateAcceptsThePublicAddressAsItsOwnAndStillRefusesOthers() async throws {
        var options = LiveDeckServer.Options()
        options.debug = true
        options.publicAddresses = [try PublicAddress(parsing: "https://status.example")]
        let deck = Deck("Behind a balancer") { Panel("api", title: "API") { Info(summary: "ok") } }
        try await RoutedDeckServer.run(deck, options) { server in
            let read = try await server.request("GET", "/api/state", headers: [("Host", "status.example")])
            #expect(read.status == 200)
            let forced = try await server.request(
                "POST", "/api/debug/panels/api/state",
                headers: [("Host", "status.example"), ("Origin", "https://status.example"), ("Content-Type", "application/json")],
                body: Array(#"{"state":"loading"}"#.utf8))
            #expect(forced.status == 200)
            let foreign = try await server.request(
                "POST", "/api/debug/panels/api/state",
                headers: [("Host", "status.example"), ("Origin", "http://status.example"), ("Content-Type", "application/json")],
                body: Array(#"{"state":"loading"}"#.utf8))
            #expect(foreign.status == 403)
            #expect(try await server.request("GET", "/api/state", headers: [("Host", "other.example")]).status == 403)
        }
    }
}
