import DeckTestSupport
import Foundation
import Locking
import StateDeck
import StateDeckSQLite
@testable import StateDeckServer
import TestSupport
import Testing

extension Routed {
    /// The ping routes, asked of the responder: the key is the only credential, every signal reaches
    /// the panel, and bad keys, bodies and floods get their answers.
    @Suite struct PingRoutesTests {
        static let key = "ping-key-of-the-backup-panel"

        static func deck() -> Deck {
            Deck("Pings", panels: [
                Panel("backup", title: "Backup", heartbeat: .every(.seconds(3_600), grace: .seconds(600), pingPath: "/ping/\(key)")),
                Panel("api", title: "API") { Info(summary: "up") },
            ])
        }

        /// A token-protected server: pings pass without it, and by any `Host`.
        static var options: LiveDeckServer.Options {
            var options = LiveDeckServer.Options()
            options.token = AccessToken.generate()
            return options
        }

        static func ping(_ server: RoutedDeckServer, _ path: String, method: String = "GET", body: [UInt8]? = nil,
                         host: String = "backup-host.example:8080") async throws -> HTTPTestResponse {
            try await server.request(method, path, headers: [("Host", host)], body: body)
        }

        @Test func eachSignalReachesItsPanelWithoutTheDashboardsToken() async throws {
            try await RoutedDeckServer.run(Self.deck(), Self.options) { server in
                #expect(try await server.request("GET", "/api/state", headers: [("Host", server.hostHeader)]).status == 403,
                        "the dashboard wants its token")
                let started = try await Self.ping(server, "/ping/\(Self.key)/start", method: "HEAD")
                #expect(started.status == 200)
                #expect(try await server.deck.panelState("backup").heartbeat?.runningSince != nil)
                let ended = try await Self.ping(server, "/ping/\(Self.key)", method: "POST", body: Array("copied 4 GB\n".utf8))
                #expect(ended.status == 200)
                #expect(ended.text == #"{"ok":true}"#)
                let shown = try await server.deck.panelState("backup")
                #expect(shown.health == .up)
                #expect(shown.latestValidInfo?.summary == "copied 4 GB")
                #expect(try await Self.ping(server, "/ping/\(Self.key)/3", body: nil).status == 200)
                let failed = try await server.deck.panelState("backup")
                #expect(failed.latestValidError?.kind == .jobFailed)
                #expect(failed.latestValidError?.description.contains("exited with status 3") == true)
                #expect(try await Self.ping(server, "/ping/\(Self.key)/0").status == 200)
                #expect(try await server.deck.panelState("backup").health == .up, "exit status 0 is a run that ended well")
            }
        }

        @Test func aWrongKeyIsNotFoundAsAnUnknownPanelIs() async throws {
            try await RoutedDeckServer.run(Self.deck(), Self.options) { server in
                for path in ["/ping/not-the-key", "/ping/not-the-key/start", "/ping/api", "/ping/\(Self.key)x/fail"] {
                    let refused = try await Self.ping(server, path)
                    #expect(refused.status == 404, "\(path)")
                    #expect(refused.text.contains(#""code":"not_found""#))
                }
                let badSignal = try await Self.ping(server, "/ping/\(Self.key)/256")
                #expect(badSignal.status == 404)
                #expect(badSignal.text.contains("an exit status from 0 to 255"))
                #expect(try await server.deck.panelState("backup").phase == .initial, "nothing reached the panel")
            }
        }

        @Test func onlyTheFirstTenKibibytesOfABodyAreKept() async throws {
            try await RoutedDeckServer.run(Self.deck()) { server in
                let output = String(repeating: "x", count: 20_000)
                #expect(try await Self.ping(server, "/ping/\(Self.key)/fail", method: "POST", body: Array(output.utf8),
                                            host: server.hostHeader).status == 200)
                let detail = try await server.deck.panelState("backup").latestValidError?.detail
                #expect(detail?.utf8.count == 10 * 1024)
            }
        }

        @Test func aFloodFromOneKeyIsHeldBackAndTheOthersGoOn() async throws {
            try await RoutedDeckServer.run(Self.deck()) { server in
                // Forty in a row: the burst of ten goes through, and a token a second comes back,
                // so however slowly this machine sends them (under 30 s), some are refused.
                var answers: [HTTPTestResponse] = []
                for _ in 0..<40 {
                    answers.append(try await Self.ping(server, "/ping/\(Self.key)", host: server.hostHeader))
                }
                let statuses = answers.map(\.status)
                #expect(statuses.prefix(10).allSatisfy { $0 == 200 })
                #expect(statuses.allSatisfy { [200, 429].contains($0) }, "\(statuses)")
                let refused = try #require(answers.first { $0.status == 429 }, "\(statuses)")
                #expect(refused.header("Retry-After") == "1")
                #expect(refused.text.contains(#""code":"too_many_pings""#))
            }
        }

        /// Ten at once, then a token a second, counted on the instants given.
        @Test func aKeysAllowanceIsTenAtOnceThenOneASecond() {
            let start = ContinuousClock.now
            var allowance = PingAllowance(tokens: PingRoutes.burst, counted: start)
            for _ in 0..<10 { #expect(allowance.take(now: start) == nil) }
            #expect(allowance.take(now: start) == 1, "none left: a second until the next")
            #expect(allowance.take(now: start + .milliseconds(500)) == 1, "half a token: the wait rounds up")
            #expect(allowance.take(now: start + .milliseconds(1_000)) == nil)
            #expect(allowance.take(now: start + .seconds(100)) == nil)
            for _ in 0..<9 { #expect(allowance.take(now: start + .seconds(100)) == nil) }
            #expect(allowance.take(now: start + .seconds(100)) == 1, "a long quiet refills ten, not more")
        }

        /// Pings that come together are taken together, each answered once its deck took it.
        @Test func pingsThatComeTogetherAreEachAnsweredOnceTaken() async throws {
            let keys = (0..<5).map { "ping-key-of-job-number-\($0)" }
            let deck = Deck("Pings", panels: keys.enumerated().map { index, key in
                Panel("job-\(index)", title: "Job \(index)", heartbeat: .every(.seconds(3_600), grace: .seconds(600), pingPath: "/ping/\(key)"))
            })
            try await RoutedDeckServer.run(deck) { server in
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for key in keys {
                        for _ in 0..<8 {
                            group.addTask { try await Self.ping(server, "/ping/\(key)", method: "POST", body: Array("ran".utf8)).status }
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(statuses == Array(repeating: 200, count: keys.count * 8))
                for index in keys.indices {
                    #expect(try await server.deck.panelState("job-\(index)").latestValidInfo?.summary == "ran")
                }
            }
        }

        /// A ping that shows what the panel shows moves the times the page reads but keeps no
        /// moment form: a moment after it has the times of the panel's newest change.
        @Test func aPingThatShowsWhatIsShownKeepsNoMomentForm() async throws {
            let wall = Locked(Date(timeIntervalSince1970: 1_793_000_000))
            let deck = Deck("Pings", configuration: Deck.Configuration(now: { wall.current }), panels: [
                Panel("backup", title: "Backup", heartbeat: .every(.seconds(3_600), grace: .seconds(600), pingPath: "/ping/\(Self.key)")),
            ])
            let fixture = HistoryFolderFixture()
            let store = try fixture.open()
            var options = LiveDeckServer.Options()
            options.history = store
            try await RoutedDeckServer.run(deck, options) { server in
                let first = wall.current
                #expect(try await Self.ping(server, "/ping/\(Self.key)").status == 200)
                wall.withLock { $0 = $0.addingTimeInterval(60) }
                #expect(try await Self.ping(server, "/ping/\(Self.key)").status == 200)
                #expect(try await server.deck.panelState("backup").heartbeat?.lastPing == wall.current)
                let moment = try await server.request("GET", "/api/state?at=\(DeckJSON.timestamp(wall.current))",
                                                      headers: [("Host", server.hostHeader)])
                #expect(moment.status == 200, "\(moment.text)")
                #expect(moment.text.contains(#""lastPing":"\#(DeckJSON.timestamp(first))""#), "\(moment.text)")
            }
            store.close()
        }

        @Test func aHeartbeatIsNotRetried() async throws {
            try await RoutedDeckServer.run(Self.deck()) { server in
                let refused = try await server.request("POST", "/api/panels/backup/retry", headers: [("Host", server.hostHeader)])
                #expect(refused.status == 409)
            }
        }
    }
}
