import DeckTestSupport
import Foundation
import StateDeck
import StateDeckSQLite
import StateDeckSources
import TestSupport
import Testing

/// A check whose result shows the same as before is a measurement, not a change: an http panel
/// checked every 100 ms against a local server, served with its history kept in SQLite.
@Suite struct MeasurementTests {
    /// Checks made before counting: what a steady panel refreshed every 15 s makes in 10 minutes.
    static let checks = 40

    /// A deck of one http panel, `api`, checking `url` every 100 ms without retries, served with a
    /// history store of its own; the body gets the server, the store and an open event stream.
    private static func serving(
        _ url: URL, _ body: (LiveDeckServer, SQLiteHistoryStore, AsyncSSEClient) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.path + "/statedeck-measurement-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = SQLiteHistoryStore.Configuration()
        configuration.startsWriter = false
        let store = try SQLiteHistoryStore(folder: folder, configuration: configuration)
        let source = HTTPSource(url: url, timeout: .seconds(2))
        let panel = Panel("api", title: "API") { try await source.load() }
            .refresh(every: .milliseconds(100)).retry(.none)
        var options = LiveDeckServer.Options()
        options.history = store
        try await LiveDeckServer.run(Deck("Measurements", panels: [panel]), options) { server in
            let stream = try await server.events()
            #expect(try await stream.opening().first?.event == "snapshot")
            try await body(server, store, stream)
            stream.close()
        }
        store.close()
    }

    /// Waits until `service` has answered `count` more requests than `after`.
    private static func waitForChecks(of service: TestHTTPServer, after: Int = 0, count: Int = checks) async throws {
        try #require(await eventually { service.requests.count >= after + count })
    }

    /// The `panel` events that arrive on `stream` until it has been quiet for 500 ms.
    private static func panelEvents(on stream: AsyncSSEClient) async -> [SSEEvent] {
        var events: [SSEEvent] = []
        while let event = try? await stream.nextEvent(timeout: .milliseconds(500)) {
            if event.event == "panel" { events.append(event) }
        }
        return events
    }

    /// The next `panel` event's data, skipping toasts.
    private static func nextPanelPatch(on stream: AsyncSSEClient) async throws -> [String: Any] {
        while let event = try await stream.nextEvent() {
            if event.event == "panel" { return try json(event.data) }
        }
        throw TestClientError.closed
    }

    private static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The panel's recorded changes, newest first.
    private static func history(_ server: LiveDeckServer, _ store: SQLiteHistoryStore) async throws -> [[String: Any]] {
        store.flush()
        let page = try json(try await server.get("/api/panels/api/history?limit=500").text)
        return try #require(page["entries"] as? [[String: Any]])
    }

    @Test func aSteadyHTTPPanelRecordsAHandfulOfChangesWhileItsTalliesCountEveryCheck() async throws {
        let service = try TestHTTPServer(routes: ["/health": .init(status: 200, body: "ok")])
        try await Self.serving(service.url("/health")) { server, store, stream in
            try await Self.waitForChecks(of: service)
            let events = await Self.panelEvents(on: stream)
            let checks = service.requests.count
            #expect(events.count <= 3, "the first load's loading and result at most, not one per check: \(events.count) in \(checks) checks")
            let entries = try await Self.history(server, store)
            #expect(entries.map { $0["state"] as? String } == ["loaded", "loading"], "\(checks) checks")
            #expect((entries.first?["summary"] as? String) == "HTTP 200")

            let uptime = try Self.json(try await server.get("/api/panels/api/uptime?span=1h&slots=1").text)
            let slot = try #require((uptime["slots"] as? [[String: Any]])?.first)
            let loads = try #require(slot["loads"] as? Int)
            #expect(loads >= Self.checks, "every check counts: \(loads) loads of \(checks) checks")
            #expect(slot["avgMs"] is Double || slot["avgMs"] is Int, "and its duration")
            #expect(slot["maxMs"] is Double || slot["maxMs"] is Int)

            let panel = try Self.json(try await server.get("/api/panels/api").text)
            #expect(panel["loadMs"] is Int, "the newest load time has a field of its own")
            #expect((panel["latestValidInfo"] as? [String: Any])?["summary"] as? String == "HTTP 200")
        }
    }

    @Test func aChangedResultIsStillAChangeAndItsPatchCarriesTheLoadTime() async throws {
        let service = try TestHTTPServer(routes: ["/health": .init(status: 200, body: "ok")])
        try await Self.serving(service.url("/health")) { server, store, stream in
            try await Self.waitForChecks(of: service, count: 5)
            _ = await Self.panelEvents(on: stream)

            service.answer("/health", with: .init(status: 200, body: "degraded"))
            let patch = try await Self.nextPanelPatch(on: stream)
            #expect((patch["latestValidInfo"] as? [String: Any])?["text"] as? String == "degraded")
            #expect(patch["loadMs"] is Int, "every patch sent carries the newest load time")

            service.answer("/health", with: .init(status: 500, body: "stack trace"))
            let failed = try await Self.nextPanelPatch(on: stream)
            #expect((failed["latestValidError"] as? [String: Any])?["kind"] as? String == "serverError")

            let before = service.requests.count
            try await Self.waitForChecks(of: service, after: before, count: 10)
            #expect(await Self.panelEvents(on: stream).isEmpty, "the same error card again is a measurement too")
            let states = try await Self.history(server, store).map { $0["state"] as? String }
            #expect(states == ["error", "loaded", "loaded", "loading"], "each changed result recorded once")
        }
    }
}
