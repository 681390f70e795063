import DeckTestSupport
import Foundation
import Glibc
import Locking
import TestSupport
import Testing

extension Live {
    /// A pattern that backtracks catastrophically on its panel's answer (`^(a+)+$` against 25 a's
    /// and a b: 2^25 ways to try) costs that panel a failed condition, nothing more: in a deck of
    /// 1,000 panels, every other panel keeps its schedule, and pings and retries answer at once.
    @Suite("Catastrophic patterns") struct CatastrophicPatternTests {
        /// How often the healthy panels load.
        static let refresh = Duration.seconds(4)
        static let heartbeats = 10
        static let ticks = 989

        static func deck(port: UInt16) -> String {
            let ticks = (0..<Self.ticks).map {
                "  - { id: tick-\($0), http: { url: \"http://127.0.0.1:\(port)/tick\", expect: [{ body: { matches: \"^tick [0-9]+$\" } }] } }"
            }
            let heartbeats = (0..<Self.heartbeats).map {
                "  - { id: beat-\($0), heartbeat: { period: 1h, grace: 10m, key: catastrophic-beat-\($0) } }"
            }
            return """
                title: Catastrophic pattern
                defaults: { refresh: \(Self.refresh.components.seconds)s, retry: none, minimumLoading: 0ms }
                panels:
                  - id: catastrophic
                    refresh: 1s
                    http: { url: "http://127.0.0.1:\(port)/backtrack", timeout: 2s, expect: [{ body: { matches: "^(a+)+$" } }] }
                \((ticks + heartbeats).joined(separator: "\n"))
                """
        }

        @Test("One panel's catastrophic pattern gives up; 989 others keep their schedule, pings and retries answer within 100 ms",
              .timeLimit(.minutes(2)))
        func aCatastrophicPatternStallsNothing() async throws {
            let answers = try TestHTTPServer(routes: [
                "/tick": .init(status: 200, body: "tick", numbered: true),
                "/backtrack": .init(status: 200, body: String(repeating: "a", count: 25) + "b"),
            ])
            let folder = try DeckFolder(yaml: Self.deck(port: answers.port))
            defer { folder.remove() }
            let server = try StatedeckProcess(serving: folder)
            defer { server.kill() }
            let port = try #require(await server.port(), "statedeck printed no address")
            let stream = try await AsyncSSEClient.open(port: port, path: "/events")
            defer { stream.close() }

            // When each tick panel's info changed (each of its answers is numbered, so each load is one).
            let loads = Locked([String: [ContinuousClock.Instant]]())
            let reading = Task {
                try await offPool {
                    while let event = try stream.blocking.nextEvent(timeout: .seconds(5)) {
                        guard event.event == "panel", let patch = Self.object(event.data),
                              let id = patch["id"] as? String, id.hasPrefix("tick-"), patch["latestValidInfo"] is [String: Any]
                        else { continue }
                        loads.withLock { $0[id, default: []].append(.now) }
                    }
                }
            }
            defer { reading.cancel() }
            let warmed = await eventually(timeout: .seconds(30)) { loads.withLock { $0.count } == Self.ticks }
            try #require(warmed, "\(loads.withLock { $0.count }) of \(Self.ticks) tick panels loaded")

            // Three of the healthy panels' refreshes long, a ping and a retry every 200 ms.
            let windowStart = ContinuousClock.now
            let backtrackedBefore = answers.requestCount("/backtrack")
            var slowest: (Duration, String) = (.zero, "")
            var round = 0
            while ContinuousClock.now - windowStart < Self.refresh * 3 {
                let target = round % 2 == 0 ? "catastrophic" : "tick-\(round % Self.ticks)"
                for (method, path, expected) in [("POST", "/ping/catastrophic-beat-\(round % Self.heartbeats)", 200),
                                                 ("POST", "/api/panels/\(target)/retry", 202)] {
                    let started = ContinuousClock.now
                    let answer = try await offPool {
                        try HTTPTestClient.request(method, path, port: port, headers: [("Origin", "http://127.0.0.1:\(port)")], body: [])
                    }
                    let took = ContinuousClock.now - started
                    #expect(answer.status == expected, "\(path): \(answer.status) \(answer.text)")
                    if took > slowest.0 { slowest = (took, path) }
                }
                round += 1
                try await Task.sleep(for: .milliseconds(200))
            }
            let windowEnd = ContinuousClock.now
            #expect(slowest.0 < .milliseconds(100), "\(slowest.1) took \(slowest.0)")

            // Every tick panel loaded on time: no gap between its loads, or since the last one, much
            // longer than its refresh.
            let lateness = Self.refresh + .seconds(2)
            let late = loads.withLock { loads in
                loads.compactMap { id, times -> String? in
                    let seen = times.filter { $0 >= windowStart } + [windowEnd]
                    let gaps = zip([times.last { $0 < windowStart } ?? windowStart] + seen, seen).map { $1 - $0 }
                    let longest = gaps.max() ?? .zero
                    return longest > lateness ? "\(id) waited \(longest)" : nil
                }
            }
            #expect(late.isEmpty, "\(late.count) tick panels fell behind, such as \(late.prefix(5))")

            // The catastrophic panel kept refreshing, each time giving up with the limit it reached.
            let backtracked = answers.requestCount("/backtrack") - backtrackedBefore
            #expect(backtracked >= 6, "the catastrophic panel loaded \(backtracked) times in \(windowEnd - windowStart)")
            let card = try await offPool { try HTTPTestClient.request("GET", "/api/panels/catastrophic", port: port).text }
            #expect(card.contains(#"The answer: the pattern \"^(a+)+$\" gave up after 10,000,000 steps."#), "\(card.prefix(600))")
        }

        static func object(_ json: String) -> [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
        }
    }
}
