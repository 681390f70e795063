import SQLite
import StateDeck
import TestSupport
import Testing

extension Live {
    /// The `notice` a store that cannot save puts above the panels, as a stream tells it.
    @Suite struct HistoryNoticeTests {
        @Test func theSettingsNameTheTimelineAndTheStateCarriesTheNotice() async throws {
            try await Routed.HistoryRoutesTests.withHistory(LiveServer.self) { server, store in
                let state = try await server.get("/api/state").text
                #expect(state.contains(#""history":{"timelineSpanMs":86400000,"timelineSlots":90}"#))
                #expect(state.contains(#""notice":null"#))
                let client = try await server.events()
                defer { client.close() }
                _ = try await client.nextEvent()
                let blocker = try Database(path: store.path, mode: .readWrite(create: false), busyTimeout: .zero)
                try blocker.execute("BEGIN EXCLUSIVE")
                try await server.deck.push(.loaded(Info(summary: "pushed")), panel: "api")
                store.flush()
                let notice = try #require(try await client.next(named: "notice"))
                #expect(notice.data.contains(#""title":"Can't save history""#))
                #expect(try await server.get("/api/state").text.contains(#""notice":{"#))
                try blocker.execute("ROLLBACK")
                store.flush()
                #expect(try #require(try await client.next(named: "notice")).data == "null")
            }
        }
    }
}

extension AsyncSSEClient {
    /// The next event named `name`, skipping others.
    fileprivate func next(named name: String) async throws -> SSEEvent? {
        while let event = try await nextEvent() {
            if event.event == name { return event }
        }
        return nil
    }
}
