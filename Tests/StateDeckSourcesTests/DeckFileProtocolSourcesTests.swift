import Foundation
import StateDeck
import Testing
@testable import StateDeckSources

/// The smtp, websocket and grpc sources in a deck file: every key read, defaults, and each bad
/// value refused with a problem naming its key and line.
@Suite("DeckFileProtocolSources")
struct DeckFileProtocolSourcesTests {
    func parse(_ yaml: String) throws -> DeckFile {
        try DeckFile.parse(yaml, file: "deck.yaml", folder: "/stack", environment: [:])
    }

    @Test func everySMTPKeyIsRead() throws {
        let deck = try parse("""
            defaults: { timeout: 7s }
            panels:
              - id: mail
                smtp: { host: mail.example.com, port: 587, starttls: true, validFor: 21d, timeout: 4s, trustedRoots: ca.pem }
              - id: relay
                smtp: { host: relay.example.com, starttls: false }
            """)
        #expect(try #require(deck.panels[0].source.smtp) == SMTPSource(
            host: "mail.example.com", port: 587, startsTLS: true, validFor: .seconds(21 * 86_400), timeout: .seconds(4),
            trustedRoots: "/stack/ca.pem"))
        #expect(try #require(deck.panels[1].source.smtp) == SMTPSource(host: "relay.example.com", startsTLS: false,
                                                                        timeout: .seconds(7)))
        #expect(deck.panels[0].source.kind == "smtp")
    }

    @Test func everyWebSocketKeyIsRead() throws {
        let deck = try parse("""
            panels:
              - id: live
                websocket:
                  url: "wss://example.com/live?room=1"
                  send: ping
                  expect: [{ message: { contains: pong } }, { message: { matches: "^po" } }, { under: 200ms }]
                  timeout: 3s
                  trustedRoots: /etc/ca.pem
              - id: feed
                websocket: { url: "ws://localhost:8080/feed" }
            """)
        let live = try #require(deck.panels[0].source.websocket)
        #expect(live.url.absoluteString == "wss://example.com/live?room=1")
        #expect(live.message == "ping")
        #expect(live.conditions == [.message(.contains("pong")), .message(.matches(try TextPattern("^po"))), .under(.milliseconds(200))])
        #expect(live.timeout == .seconds(3))
        #expect(live.trustedRoots == "/etc/ca.pem")
        #expect(live.port == 443 && live.isSecure)
        let feed = try #require(deck.panels[1].source.websocket)
        #expect(feed.message == nil && feed.conditions.isEmpty && feed.port == 8080 && !feed.isSecure)
        #expect(deck.panels[1].source.kind == "websocket")
    }

    @Test func everyGRPCKeyIsRead() throws {
        let deck = try parse("""
            panels:
              - id: orders
                grpc: { target: "orders.internal:50051", service: deck.Orders, tls: true, timeout: 2s, trustedRoots: ca.pem }
              - id: local
                grpc: { target: "[::1]:9090" }
            """)
        #expect(try #require(deck.panels[0].source.grpc) == GRPCSource(
            host: "orders.internal", port: 50051, service: "deck.Orders", tls: true, timeout: .seconds(2),
            trustedRoots: "/stack/ca.pem"))
        #expect(try #require(deck.panels[1].source.grpc) == GRPCSource(host: "::1", port: 9090, timeout: .seconds(10)))
        #expect(deck.panels[1].source.kind == "grpc")
    }

    @Test(arguments: [
        ("smtp: { port: 25 }", "deck.yaml:3: panels[0].smtp.host: is required"),
        ("smtp: { host: mail.example.com, port: 0 }", "deck.yaml:3: panels[0].smtp.port: must be a whole number from 1 to 65535, not 0"),
        ("smtp: { host: mail.example.com, starttls: maybe }", "deck.yaml:3: panels[0].smtp.starttls: must be true or false, not maybe"),
        ("smtp: { host: mail.example.com, starttls: false, validFor: 14d }",
         "deck.yaml:3: panels[0].smtp.validFor: is the certificate's, which only starttls: true reads"),
        ("smtp: { host: mail.example.com, starttl: true }", "deck.yaml:3: panels[0].smtp.starttl: unknown key; did you mean starttls?"),
        ("websocket: { send: ping }", "deck.yaml:3: panels[0].websocket.url: is required"),
        (#"websocket: { url: "http://example.com/" }"#, "deck.yaml:3: panels[0].websocket.url: must be a ws or wss URL"),
        (#"websocket: { url: "ws://example.com/", expect: [{ message: { contains: pong } }] }"#,
         "deck.yaml:3: panels[0].websocket.expect: a condition on the message needs one to answer: give send"),
        (#"websocket: { url: "ws://example.com/", send: ping, expect: [{ message: pong }] }"#,
         "deck.yaml:3: panels[0].websocket.expect[0].message: must be a mapping of keys to values"),
        (#"websocket: { url: "ws://example.com/", send: ping, expect: [{ answer: { contains: pong } }] }"#,
         "deck.yaml:3: panels[0].websocket.expect[0].answer: unknown key (expected message, under)"),
        (#"websocket: { url: "ws://example.com/", timeout: 1s, expect: [{ under: 2s }] }"#,
         "deck.yaml:3: panels[0].websocket.expect[0].under: must be shorter than the timeout, 1 s, which ends the check first"),
        ("grpc: { service: deck.Orders }", "deck.yaml:3: panels[0].grpc.target: is required"),
        ("grpc: { target: orders.internal }",
         "deck.yaml:3: panels[0].grpc.target: must be host:port, like localhost:50051 ([::1]:50051 for an IPv6 address), not orders.internal"),
        (#"grpc: { target: "::1:50051" }"#,
         "deck.yaml:3: panels[0].grpc.target: must be host:port, like localhost:50051 ([::1]:50051 for an IPv6 address), not ::1:50051"),
        (#"grpc: { target: "localhost:50051", tls: yes please }"#, "deck.yaml:3: panels[0].grpc.tls: must be true or false, not yes please"),
    ])
    func aBadValueNamesItsKeyAndLine(_ source: String, _ problem: String) {
        let problems = deckFileProblems("""
            panels:
              - id: probe
                \(source)
            """)
        #expect(problems == [problem])
    }
}
