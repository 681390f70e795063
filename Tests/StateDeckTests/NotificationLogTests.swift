import Foundation
import Testing
@testable import StateDeck
@testable import StateDeckNotifications

/// The notifier's log: its last 200 decisions, newest first, each with what became of it.
@Suite(.stopsDecks) struct NotificationLogTests {
    static let origin = Date(timeIntervalSince1970: 1_795_341_600)

    static func entry(_ index: Int, _ outcome: NotificationLog.Outcome = .waiting) -> NotificationLog.Entry {
        NotificationLog.Entry(at: origin.addingTimeInterval(Double(index)), event: .failure, panels: ["p\(index)"],
                              message: "P\(index) is down", target: "hook", outcome: outcome)
    }

    @Test func itKeepsTheNewest200AndSettlesOnlyWhatItStillHas() {
        let log = NotificationLog()
        let ids = (0..<250).map { _ in UUID() }
        for (index, id) in ids.enumerated() { log.record(Self.entry(index), for: id) }
        #expect(log.entries.count == 200)
        #expect(log.entries.first?.panels == ["p249"], "newest first")
        #expect(log.entries.last?.panels == ["p50"])
        log.settle(ids[10], as: .sent)
        log.settle(ids[60], as: .failed("HTTP 500"))
        #expect(!log.entries.contains { $0.outcome == .sent }, "the 11th left the log")
        #expect(log.entries.last(where: { $0.panels == ["p60"] })?.outcome == .failed("HTTP 500"))
        log.record(Self.entry(0, .held("its dependency db is down")))
        #expect(log.entries.first?.outcome.name == "held")
        #expect(log.entries.first?.outcome.why == "its dependency db is down")
        #expect(log.entries.count == 200)
    }

    @Test func aNotifierLogsEachDecisionWaitingThenGatheredOrSentOrDropped() async throws {
        let test = await NotifierGatheringTests.deck(panels: 3)
        let target = NotifierTests.RecordingTarget(name: "hook")
        let log = NotificationLog()
        let notifier = await NotifierGatheringTests.notifier(test, panels: 3, [target], log: log)
        defer { Task { await notifier.stop() } }
        for index in 0..<2 {
            try await NotifierGatheringTests.push(.error(.server), index, at: .seconds(index), test, notifier)
        }
        #expect(log.entries.map(\.outcome) == [.waiting, .waiting])
        #expect(log.entries.map(\.panels) == [["p1"], ["p0"]])
        #expect(log.entries.first?.target == "hook")
        await test.advance(to: .seconds(10))
        await test.eventually { log.entries.allSatisfy { $0.outcome == .gathered(others: 1) } ? true : nil }
        #expect(log.entries.first?.outcome.why == "with 1 other")
        try await NotifierGatheringTests.push(.error(.server), 2, at: .seconds(20), test, notifier)
        await test.advance(to: .seconds(30))
        await test.eventually { log.entries.first?.outcome == .sent ? true : nil }
        #expect(log.entries.first?.message == "P2 is down: \(ErrorKind.serverError.title)")
        #expect(log.entries.count == 3)
    }
}
