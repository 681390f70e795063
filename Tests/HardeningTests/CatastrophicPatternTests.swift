import DeckTestSupport
import Foundation
import Glibc
import Locking
import TestSupport
import Testing

extension Live {
    /// A pattern that backtracks catastrophically on its panel's answer (`^(a+)+$` against 30 a's
    /// and a b: 2^30 ways to try, minutes of a core without a limit, so that each refresh would
    /// start another) costs that panel a failed condition, nothing more: in a deck of 1,000
    /// panels, every other panel keeps its schedule, and pings and retries answer at once.
    @Suite("Catastrophic patterns") struct CatastrophicPatternTests {
        /// How often the healthy panels load: about 125 loads a second, which leaves a debug build
        /// room to spare on two cores.
        static let refresh = Duration.seconds(8)
        /// How late a load may start after its panel's previous one ended and its refresh passed.
        static let lateness = Duration.seconds(1)
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

        /// When a tick panel's loads ended (the patches' `since`, by the server's clock) and how
        /// long each took (their `loadMs`).
        struct Loads {
            var loads: [(end: Date, took: Double)] = []

            /// How late each load ending after `from` started: its start after the previous one's
            /// end and the refresh.
            func lateness(from: Date) -> [Duration] {
                zip(loads, loads.dropFirst()).filter { $1.end > from }.map { previous, load in
                    .seconds(load.end.timeIntervalSince(previous.end) - load.took) - CatastrophicPatternTests.refresh
                }
            }
        }

        @Test("One panel's catastrophic pattern gives up; 989 others keep their schedule, pings and retries answer within 100 ms (19 in 20, every one within 500 ms)",
              .timeLimit(.minutes(2)))
        func aCatastrophicPatternStallsNothing() async throws {
            let answers = try TestHTTPServer(routes: [
                "/tick": .init(status: 200, body: "tick", numbered: true),
                "/backtrack": .init(status: 200, body: String(repeating: "a", count: 30) + "b"),
            ])
            let folder = try DeckFolder(yaml: Self.deck(port: answers.port))
            defer { folder.remove() }
            // The history in memory: what is measured is the deck and its routes, not the disk.
            let server = try StatedeckProcess(arguments: ["--config", folder.path("deck.yaml"), "--port", "0",
                                                          "--data", "none"])
            defer { server.kill() }
            let port = try #require(await server.port(), "statedeck printed no address")
            let stream = try await AsyncSSEClient.open(port: port, path: "/events")
            defer { stream.close() }

            // Each answer of /tick is numbered, so each load of a tick panel is a change, sent.
            let loads = Locked([String: Loads]())
            let reading = Task {
                try await offPool {
                    while let event = try stream.blocking.nextEvent(timeout: .seconds(5)) {
                        guard event.event == "panel", let patch = Self.object(event.data),
                              let id = patch["id"] as? String, id.hasPrefix("tick-"), patch["latestValidInfo"] is [String: Any],
                              let end = (patch["since"] as? String).flatMap(Self.date), let took = patch["loadMs"] as? Double
                        else { continue }
                        loads.withLock { $0[id, default: Loads()].loads.append((end, took / 1_000)) }
                    }
                }
            }
            defer { reading.cancel() }
            // Past its first refresh, which the deck spreads over half an interval to one and a half,
            // each panel loads on its interval.
            let warmed = await eventually(timeout: .seconds(40)) {
                loads.withLock { $0.count == Self.ticks && $0.values.allSatisfy { $0.loads.count >= 2 } }
            }
            try #require(warmed, "\(loads.withLock { $0.values.filter { $0.loads.count >= 2 }.count }) of \(Self.ticks) tick panels loaded twice")

            // Two of the healthy panels' refreshes long, a ping and a retry every 200 ms.
            let windowStart = Date()
            let backtrackedBefore = answers.requestCount("/backtrack")
            var answered: [(took: Duration, path: String)] = []
            var round = 0
            while Date().timeIntervalSince(windowStart) < Double(Self.refresh.components.seconds * 2) {
                let target = round % 2 == 0 ? "catastrophic" : "tick-\(round % Self.ticks)"
                for (method, path, expected) in [("POST", "/ping/catastrophic-beat-\(round % Self.heartbeats)", 200),
                                                 ("POST", "/api/panels/\(target)/retry", 202)] {
                    let started = ContinuousClock.now
                    let answer = try await offPool {
                        try HTTPTestClient.request(method, path, port: port, headers: [("Origin", "http://127.0.0.1:\(port)")], body: [])
                    }
                    let took = ContinuousClock.now - started
                    #expect(answer.status == expected, "\(path): \(answer.status) \(answer.text)")
                    answered.append((took, path))
                }
                round += 1
                try await Task.sleep(for: .milliseconds(200))
            }
            let windowEnd = Date()
            // Within 100 ms: on a machine whose cores other work shares too, a few answers may wait
            // for one, but never as long as a stalled deck would make them (seconds, or no answer).
            let slow = answered.filter { $0.took >= .milliseconds(100) }.sorted { $0.took > $1.took }
            #expect(slow.count * 20 <= answered.count, "\(slow.count) of \(answered.count) answers took 100 ms or more: \(slow.prefix(5))")
            #expect(slow.allSatisfy { $0.took < .milliseconds(500) }, "\(slow.prefix(5))")

            // Every tick panel loaded in the window, each load on time.
            let late = loads.withLock { loads in
                loads.compactMap { id, loads -> String? in
                    let lateness = loads.lateness(from: windowStart)
                    guard let latest = lateness.max() else { return "\(id) did not load" }
                    return latest > Self.lateness ? "\(id) \(latest) late" : nil
                }
            }
            #expect(late.isEmpty, "\(late.count) tick panels fell behind their schedule, such as \(late.prefix(5))")

            // The catastrophic panel kept refreshing, each time giving up with the limit it reached.
            let backtracked = answers.requestCount("/backtrack") - backtrackedBefore
            #expect(backtracked >= 8, "the catastrophic panel loaded \(backtracked) times in \(windowEnd.timeIntervalSince(windowStart)) s")
            let card = try await offPool { try HTTPTestClient.request("GET", "/api/panels/catastrophic", port: port).text }
            #expect(card.contains(#"The answer: the pattern \"^(a+)+$\" gave up after 10,000,000 steps."#), "\(card.prefix(600))")
        }

        static func object(_ json: String) -> [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
        }

        /// `2026-12-06T19:11:47.399Z`, as the server writes times.
        static func date(_ text: String) -> Date? {
            let format = ISO8601DateFormatter()
            format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return format.date(from: text)
        }
    }
}
