import DeckTestSupport
import Locking
import MicroHTTP
import StateDeck
import StateDeckHistory
import StateDeckServer
import TestSupport
import Testing

extension Routed {
    /// The middlewares a host puts in front of the routes, asked of the responder without a socket:
    /// an action goes to the server that runs the deck while this one does not, is refused while
    /// what it changed may not outlive this server, and is signed with the caller of its context.
    /// The host is the test's hand.
    @Suite struct ActionMiddlewareTests {
        /// A host whose running of the deck, answer to a forwarded action and refusal the test sets.
        final class ScriptedHost: DeckHost, EventRelay {
            let running = Locked(false)
            let refusal = Locked<ForwardedAction.Answer?>(nil)
            let forwarded = Locked<[ForwardedAction]>([])
            static let answer = ForwardedAction.Answer(status: 202, body: Array(#"{"accepted":true,"where":"elsewhere"}"#.utf8))

            var relay: any EventRelay { self }
            func relay(event: String, data: @autoclosure () -> String, panel: String?) {}
            func join(_ server: HostedServer) async throws {}
            var isRunningDeck: Bool { running.current }
            func forward(_ action: ForwardedAction) async -> ForwardedAction.Answer {
                forwarded.withLock { $0.append(action) }
                return Self.answer
            }
            func settled() async -> ForwardedAction.Answer? { refusal.current }
            func leave() async {}
        }

        static let aliceToken = AccessToken.generate()
        static let alice = Caller(name: "alice", role: .operator)
        static let notSettled = ForwardedAction.Answer.error(503, code: "no_leader", message: "not kept in time")

        static func deck() -> Deck {
            Deck("Hosted") {
                Panel("p", title: "P") { Info(summary: "up") }.refresh(.manual)
            }
        }

        /// Serves `deck()` for `host`, asking for alice's token, and runs `body`.
        static func run(_ host: ScriptedHost, _ body: (RoutedDeckServer) async throws -> Void) async throws {
            var options = LiveDeckServer.Options()
            options.access = AccessList([AccessList.Entry(name: alice.name, role: alice.role, digest: TokenDigest(of: "\(aliceToken)"))])
            options.deckHost = host
            try await RoutedDeckServer.run(deck(), options, body)
        }

        /// `method path` as alice sends it.
        static func alices(_ server: RoutedDeckServer, _ method: String, _ path: String) async throws -> HTTPTestResponse {
            try await server.request(method, path, headers: [("Host", server.hostHeader), ("Authorization", "Bearer \(aliceToken)")],
                                     body: [])
        }

        @Test func anActionGoesWithItsCallerToTheServerThatRunsTheDeckAndIsSignedThere() async throws {
            let host = ScriptedHost()
            try await Self.run(host) { server in
                let response = try await Self.alices(server, "POST", "/api/panels/p/retry")
                #expect(response.status == 202)
                #expect(response.body == ScriptedHost.answer.body, "the answer where the deck runs")
                #expect(host.forwarded.current == [ForwardedAction(method: "POST", target: "/api/panels/p/retry", body: [],
                                                                   caller: Self.alice)])
                #expect(try server.server.audit.entries(AuditQuery()).isEmpty, "signed where it runs")
            }
        }

        @Test func anActionTakenHereIsAnsweredWithTheHostsRefusalWhileNotSettledButAFailedOneWithItsError() async throws {
            let host = ScriptedHost()
            host.running.withLock { $0 = true }
            host.refusal.withLock { $0 = Self.notSettled }
            try await Self.run(host) { server in
                let refused = try await Self.alices(server, "POST", "/api/panels/p/retry")
                #expect(refused.status == 503)
                #expect(refused.body == Self.notSettled.body)
                #expect(try server.server.audit.entries(AuditQuery()).map(\.text) == ["Retried by alice"],
                        "taken, so signed: it may have happened")

                let unknown = try await Self.alices(server, "POST", "/api/panels/nope/retry")
                #expect(unknown.status == 404, "nothing changed, so nothing to lose")
                #expect(host.forwarded.current.isEmpty)

                let read = try await Self.alices(server, "GET", "/api/notify/log")
                #expect(read.status == 200, "a read changes nothing")
            }
        }

        /// A job's ping runs through the host's middlewares as every action does: carried to the
        /// server that runs the deck while this one does not, and answered with the host's refusal
        /// while what it changed may not outlive this server.
        @Test func aPingGoesThroughTheHostAsEveryAction() async throws {
            let host = ScriptedHost()
            var options = LiveDeckServer.Options()
            options.deckHost = host
            let path = "/ping/ping-key-of-the-hosted-job"
            let deck = Deck("Hosted", panels: [
                Panel("job", title: "Job", heartbeat: .every(.seconds(3_600), grace: .seconds(600), pingPath: path)),
            ])
            try await RoutedDeckServer.run(deck, options) { server in
                let ping = { try await server.request("POST", path, headers: [("Host", "cron.example")], body: Array("ok".utf8)) }
                let forwarded = try await ping()
                #expect(forwarded.status == 202)
                #expect(forwarded.body == ScriptedHost.answer.body, "the answer where the deck runs")
                #expect(host.forwarded.current.map(\.target) == [path])
                #expect(try await server.deck.panelState("job").heartbeat?.lastPing == nil, "taken elsewhere")

                host.running.withLock { $0 = true }
                host.refusal.withLock { $0 = Self.notSettled }
                let refused = try await ping()
                #expect(refused.status == 503)
                #expect(refused.body == Self.notSettled.body)
                #expect(try await server.deck.panelState("job").heartbeat?.lastPing != nil, "taken here; it may have happened")

                host.refusal.withLock { $0 = nil }
                let taken = try await ping()
                #expect(taken.status == 200)
                #expect(taken.text == #"{"ok":true}"#)
            }
        }

        @Test func anActionAnotherServerVouchedForIsSignedAndForwardedWithItsCaller() async throws {
            let host = ScriptedHost()
            host.running.withLock { $0 = true }
            let bob = Caller(name: "bob", role: .designer)
            try await Self.run(host) { server in
                let taken = try await ForwardedAction.$performedFor.withValue(bob) {
                    try await server.request("POST", "/api/panels/p/retry", headers: [("Host", server.hostHeader),
                                                                                    ("Authorization", "Bearer \(Self.aliceToken)")])
                }
                #expect(taken.status == 202)
                #expect(try server.server.audit.entries(AuditQuery()).map { "\($0.text) (\($0.role))" } == ["Retried by bob (designer)"])

                host.running.withLock { $0 = false }
                let passed = try await ForwardedAction.$performedFor.withValue(bob) {
                    try await Self.alices(server, "GET", "/api/incidents")
                }
                #expect(passed.status == 202)
                #expect(host.forwarded.current.map(\.caller) == [bob], "the caller vouched for, not the token's")
            }
        }
    }
}
