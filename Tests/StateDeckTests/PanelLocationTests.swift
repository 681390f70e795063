import Foundation
import Testing
@testable import StateDeck

/// A panel's places: what each one counts, and the one line over all of them.
@Suite struct PanelLocationTests {
    static func places(_ healths: [(String, PanelLocation.Health)]) -> [PanelLocation] {
        healths.map { PanelLocation(name: $0.0, health: $0.1) }
    }

    @Test(arguments: [
        ([("local", .up), ("eu-west", .up), ("us-east", .up)], "Up from all 3 locations"),
        ([("local", .down), ("eu-west", .down)], "Down from all 2 locations"),
        ([("local", .up), ("eu-west", .down)], "Down from eu-west only"),
        ([("local", .down), ("eu-west", .down), ("us-east", .up)], "Down from local and eu-west only"),
        ([("local", .down), ("eu-west", .noData)], "Down from local; no data from eu-west"),
        ([("local", .up), ("eu-west", .up), ("ap-south", .noData)], "Up from local and eu-west; no data from ap-south"),
        ([("local", .loading), ("eu-west", .noData)], "No data from eu-west; still checking from local"),
        ([("a", .noData), ("b", .noData)], "No data from any location"),
        ([("a", .down), ("b", .down), ("c", .down), ("d", .down), ("e", .down), ("f", .up)], "Down from a, b, c and 2 more only"),
    ] as [([(String, PanelLocation.Health)], String)])
    func theSummarySaysWhoDisagrees(_ healths: [(String, PanelLocation.Health)], _ expected: String) {
        #expect(PanelLocation.summary(of: Self.places(healths)) == expected)
    }

    @Test func aRecordCountsTimeUpAndDownFromOneResultToTheNext() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var record = LocationRecord()
        #expect(record.location(named: "x") == PanelLocation(name: "x", health: .loading))
        record.record(.loaded(Info(summary: "ok")), at: start)
        record.record(.loading, at: start.addingTimeInterval(1))
        record.record(.loaded(Info(summary: "still ok")), at: start.addingTimeInterval(6))
        record.record(.error(PanelError(.timeout)), at: start.addingTimeInterval(8))
        record.record(.error(PanelError(.timeout)), at: start.addingTimeInterval(9))
        let location = record.location(named: "x")
        #expect(location.health == .down && location.summary == PanelError(.timeout).title)
        #expect(location.since == start.addingTimeInterval(8), "down since the first error, not the second")
        #expect(record.upTime == .seconds(8) && record.downTime == .seconds(1))
        #expect(location.uptime == 88.89)
        #expect(PanelLocation.uptime(up: .zero, down: .zero) == nil)
    }
}
