import Foundation
import Locking
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

/// Answers are judged against their conditions on a few threads of their own, and a panel's
/// timeout does not wait for them.
@Suite("ConditionEvaluation")
struct ConditionEvaluationTests {
    @Test func atMostTheLimitRunAtOnceAndEveryOneRuns() async throws {
        let running = Locked((now: 0, most: 0))
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<6 {
                group.addTask {
                    try await ConditionEvaluation.run {
                        running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                        usleep(50_000)
                        running.withLock { $0.now -= 1 }
                        return index
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.sorted() == Array(0..<6))
        // Other suites' answers may hold places in the line meanwhile: these never pass the limit.
        let most = running.withLock { $0.most }
        #expect((1...ConditionEvaluation.limit).contains(most), "\(most) ran at once")
    }

    /// Each condition matches after a good part of its steps (21 a's split every way before `b$`
    /// is tried: 10 to 100 ms, by the machine); forty of them, two at a time, outlast the panel's
    /// timeout of 100 ms several times over, which ends the load on time all the same.
    @Test func aPanelsTimeoutEndsItsConditions() async throws {
        let body = String(repeating: "a", count: 21) + "b"
        let server = try TestHTTPServer(routes: ["/slow-to-judge": .init(status: 200, body: body)])
        let slow = try TextPattern("^(a+)+$|b$")
        #expect(try await offPool { slow.firstMatch(in: body) } == .matched, "within the step limit")
        let source = HTTPSource(url: server.url("/slow-to-judge"), timeout: .seconds(30),
                                conditions: Array(repeating: .body(.matches(slow)), count: 40))
        let deck = Deck("Patterns", panels: [
            Panel("slow", title: "Slow") { try await source.load() }.timeout(.milliseconds(100)).retry(.none),
        ])
        let events = await DeckEvents(observing: deck)
        await deck.start()
        defer { Task { await deck.stop() } }
        let failed = try #require(await events.panel("slow") { $0.latestValidError != nil },
                                  "\(events.panelStates.map { "\($0.phase) \($0.loadMs ?? -1) ms" })")
        #expect(failed.latestValidError?.kind == .timeout)
        let loadMs = try #require(failed.loadMs)
        #expect(loadMs < 1_100, "the timeout is 100 ms, and the load took \(loadMs) ms")
    }
}
