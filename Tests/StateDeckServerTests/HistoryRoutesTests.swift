import Foundation
import SQLite
import StateDeck
import StateDeckHistory
import StateDeckSQLite
import TestSupport
import Testing

/// A history store in a folder of its own that saves only when told, removed after.
final class HistoryFolderFixture: Sendable {
    let folder = FileManager.default.temporaryDirectory.path + "/statedeck-routes-\(UUID().uuidString)"

    func open() throws -> SQLiteHistoryStore {
        var configuration = SQLiteHistoryStore.Configuration()
        configuration.startsWriter = false
        return try SQLiteHistoryStore(folder: folder, configuration: configuration)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }
}

extension Routed {
    /// The history and uptime routes and what a store changes in the state, asked of the responder
    /// (HistoryNoticeTests has the `notice` on a stream).
    @Suite struct HistoryRoutesTests {
        /// `Server` over a history store that saves only when told, saved once the first loads ended.
        static func withHistory<Server: TestDeckServer>(
            _: Server.Type, _ body: (Server, SQLiteHistoryStore) async throws -> Void
        ) async throws {
            let fixture = HistoryFolderFixture()
            let store = try fixture.open()
            var options = Server.Options()
            options.history = store
            try await Server.run(options) { server in
                store.flush()
                try await body(server, store)
            }
            store.close()
        }

        @Test func theHistoryRouteListsEachPanelsChangesNewestFirst() async throws {
            try await Self.withHistory(RoutedServer.self) { server, _ in
                let response = try await server.get("/api/panels/jobs/history?limit=1")
                #expect(response.status == 200)
                let page = try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])
                let entries = try #require(page["entries"] as? [[String: Any]])
                #expect(entries.count == 1)
                #expect(entries.first?["state"] as? String == "loaded")
                #expect(entries.first?["summary"] as? String == "2 jobs")
                #expect(entries.first?["durationMs"] is Int)
                let next = try #require(page["next"] as? String)
                let older = try await server.get("/api/panels/jobs/history?cursor=\(next)")
                #expect(older.text.contains(#""state":"loading""#))
                #expect(older.text.contains(#""next":null"#))
            }
        }

        @Test func theUptimeRouteCountsTimeAndDrawsTheAskedSlots() async throws {
            try await Self.withHistory(RoutedServer.self) { server, _ in
                let response = try await server.get("/api/panels/api/uptime?span=2h&slots=4")
                #expect(response.status == 200)
                let report = try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])
                #expect(report["24h"] as? Double == 1, "up since its first load")
                let current = try #require(report["current"] as? [String: Any])
                #expect(current["state"] as? String == "up")
                #expect(report["slotMs"] as? Int == 1_800_000)
                let slots = try #require(report["slots"] as? [[String: Any]])
                #expect(slots.count == 4)
                #expect(slots.last?["state"] as? String == "up")
                #expect(slots.first?["state"] as? String == "none")
                let defaults = try await server.get("/api/panels/api/uptime")
                #expect(defaults.text.contains(#""slotMs":960000"#), "24 hours in 90 slots of 16 minutes")
            }
        }

        @Test func theUptimeRouteCountsNothingAfterToAndNoSlotIsEmptyOfTime() async throws {
            let beforeStart = Date().millisecondsSince1970
            try await Self.withHistory(RoutedServer.self) { server, _ in
                for query in ["to=\(beforeStart)&span=3m&slots=3", "to=\(Resolution.minute.start(of: beforeStart))&span=3m&slots=3",
                              "to=0&span=732d&slots=1"] {
                    let response = try await server.get("/api/panels/api/uptime?\(query)")
                    #expect(response.status == 200)
                    let report = try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])
                    for window in ["24h", "7d", "30d"] { #expect(report[window] is NSNull, "\(query): \(window)") }
                    let slots = try #require(report["slots"] as? [[String: Any]])
                    #expect(slots.map { $0["state"] as? String } == Array(repeating: "none", count: slots.count),
                            "\(query): the server started after `to`")
                    for slot in slots {
                        let (from, to) = (try #require(slot["from"] as? String), try #require(slot["to"] as? String))
                        #expect(from < to, "\(query): a slot holds time")
                    }
                }
            }
        }

        @Test(arguments: [
            ("/api/panels/api/history?limit=0", "limit"),
            ("/api/panels/api/history?limit=many", "limit"),
            ("/api/panels/api/history?from=yesterday", "from"),
            ("/api/panels/api/history?from=2026-11-25T10:00:00Z&to=2026-11-24T10:00:00Z", "from must not be after to"),
            ("/api/panels/api/history?cursor=x", "cursor"),
            ("/api/panels/api/uptime?span=2y", "span"),
            ("/api/panels/api/uptime?span=10s", "span"),
            ("/api/panels/api/uptime?slots=501", "slots"),
            ("/api/panels/api/uptime?to=soon", "to"),
            // Past the end of 9999 a time no longer fits the stores' arithmetic in milliseconds.
            ("/api/panels/api/uptime?to=9223372036854775807", "to"),
            ("/api/panels/api/uptime?to=253402300800000", "to"),
            ("/api/panels/api/history?from=9223372036854775807", "from"),
            ("/api/panels/api/history?to=9223372036854775807", "to"),
        ])
        func badParametersAre400NamingTheParameter(_ target: String, _ named: String) async throws {
            try await Self.withHistory(RoutedServer.self) { server, _ in
                let response = try await server.get(target)
                #expect(response.status == 400)
                let error = try #require(response.apiError)
                #expect(error.code == "bad_request")
                #expect(error.message.hasPrefix(named), "\(error.message)")
            }
        }

        /// Every route's time parameters read through one parser: a time whose fields are out of
        /// range is a 400 naming the parameter, the field and the text, never rolled over into
        /// the next day (25:61:61) or month (30 February).
        @Test(arguments: [
            ("/api/state?at=", "at"), ("/api/changes?from=", "from"), ("/api/changes?to=", "to"),
            ("/api/panels/api/history?from=", "from"), ("/api/panels/api/history?to=", "to"),
            ("/api/panels/api/uptime?to=", "to"), ("/api/audit?since=", "since"), ("/api/audit?until=", "until"),
        ])
        func aTimeOutOfRangeIsA400NamingTheParameterAndTheValue(_ target: String, _ parameter: String) async throws {
            try await Self.withHistory(RoutedServer.self) { server, _ in
                let refused = [
                    ("2026-12-06T25:61:61Z", "hour 25 is out of range (0 to 23)"),
                    ("2026-02-30T10:00:00Z", "February 2026 has no day 30 (it has 28)"),
                    ("2026-12-06T10:00:00.000-18:30", "offset -18:30 is out of range (-18:00 to +18:00)"),
                ]
                for (time, problem) in refused {
                    let response = try await server.get(target + time)
                    #expect(response.status == 400, "\(target)\(time)")
                    let error = try #require(response.apiError)
                    #expect(error.code == "bad_request")
                    #expect(error.message == "\(parameter) must be a time that exists: \(problem) in '\(time)'")
                }
            }
        }

        @Test func theLatestTimeAParameterNamesIsTheEndOf9999() async throws {
            try await Self.withHistory(RoutedServer.self) { server, _ in
                for target in ["/api/panels/api/uptime?to=253402300799999", "/api/panels/api/history?from=0&to=253402300799999",
                               "/api/panels/api/uptime?to=9999-12-31T23:59:59.999Z"] {
                    let response = try await server.get(target)
                    #expect(response.status == 200, "\(target): \(response.text)")
                }
            }
        }

        @Test func anUnknownPanelIs404() async throws {
            try await Self.withHistory(RoutedServer.self) { server, _ in
                for target in ["/api/panels/nope/history", "/api/panels/nope/uptime"] {
                    let response = try await server.get(target)
                    #expect(response.status == 404)
                    #expect(response.apiError?.code == "not_found")
                }
            }
        }

        @Test func withoutAHistoryTheRoutesAre404AndTheSettingsSayNone() async throws {
            try await RoutedServer.run { server in
                let response = try await server.get("/api/panels/api/uptime")
                #expect(response.status == 404)
                #expect(response.apiError?.code == "no_history")
                #expect(try await server.get("/api/state").text.contains(#""history":null"#))
            }
        }

        @Test func eventIdsStartAfterTheNewestTheStoreKept() async throws {
            let fixture = HistoryFolderFixture()
            let later = UInt64(Date().timeIntervalSince1970 * 1_000_000) + 86_400_000_000
            do {
                let store = try fixture.open()
                store.trackEventIDs { later }
                store.close()
            }
            let store = try fixture.open()
            var options = RoutedServer.Options()
            options.history = store
            try await RoutedServer.run(options) { server in
                let state = try await server.get("/api/state").decode(WireState.self)
                #expect(state.lastEventId > later, "a clock set back a day does not reuse ids")
            }
            store.close()
        }
    }
}
