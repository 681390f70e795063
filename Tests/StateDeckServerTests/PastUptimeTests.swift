import DeckTestSupport
import Foundation
import StateDeck
import StateDeckHistory
@testable import StateDeckServer
import TestSupport
import Testing

/// `GET /api/panels/{id}/uptime?to=` with `to` in the past: the health it answers is the one the
/// panel had then, since when, and since when it was watched then, as the live answer said at that
/// instant; on the virtual wall clock of ``MomentsTests``.
@Suite(.serialized) struct PastUptimeTests {
    /// `current` of the uptime of "api" with `query`.
    static func current(_ day: MomentsTests.Day, _ query: String) async throws -> [String: String]? {
        let response = try await MomentsTests.get(day.server, "/api/panels/api/uptime?\(query)")
        #expect(response.status == 200, "\(query): \(response.text)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        return report["current"] as? [String: String]
    }

    /// The `current` member for `health` since `since` (seconds after `start`), watched since
    /// `watched`.
    static func health(_ health: String, since: Int, watched: Int, after start: Date) -> [String: String] {
        ["state": health, "since": DeckJSON.timestamp(start.addingTimeInterval(TimeInterval(since))),
         "watchedSince": DeckJSON.timestamp(start.addingTimeInterval(TimeInterval(watched)))]
    }

    @Test func aPastToAnswersTheHealthOfThenSinceWhenAndWatchedSinceWhen() async throws {
        let folder = FileManager.default.temporaryDirectory.path + "/statedeck-past-uptime-\(UUID().uuidString)"
        defer {
            for suffix in ["", "-1"] { try? FileManager.default.removeItem(atPath: folder + suffix) }
        }
        let wall = MomentsTests.VirtualWall()
        let start = wall.now
        let day = try await MomentsTests.Day(wall: wall, folder: folder)
        // Up from the start; down at 600 s (saved), up again at 900 s; stopped at 1200 s and
        // started again at 1500 s (its first load up again); asked at 1800 s.
        wall.advance(by: 600)
        try await day.push("api", .error(PanelError(.serverError)))
        day.store.flush()
        wall.advance(by: 300)
        try await day.push("api", .loaded(Info(summary: "API OK")))
        wall.advance(by: 300)
        day.store.close()
        try await day.restart(after: 300)
        wall.advance(by: 300)

        func at(_ seconds: Int) -> Int64 { start.addingTimeInterval(TimeInterval(seconds)).millisecondsSince1970 }
        #expect(try await Self.current(day, "to=\(at(-60))") == nil, "before its first result")
        #expect(try await Self.current(day, "to=\(at(300))") == Self.health("up", since: 0, watched: 0, after: start))
        #expect(try await Self.current(day, "to=\(at(600))") == Self.health("down", since: 600, watched: 600, after: start),
                "`to` holds the change made at it")
        #expect(try await Self.current(day, "to=\(at(899))") == Self.health("down", since: 600, watched: 600, after: start))
        #expect(try await Self.current(day, "to=\(at(1600))") == Self.health("up", since: 900, watched: 1500, after: start),
                "up since before the stop, known only since the start after it")
        let live = Self.health("up", since: 900, watched: 1500, after: start)
        #expect(try await Self.current(day, "span=1h") == live)
        #expect(try await Self.current(day, "to=\(at(1800))") == live, "a `to` of now is the live answer")
        await day.server.stop()
        for store in day.stopped + [day.store] { store.close() }
    }
}
