import Clocks
import DeckTestSupport
import Foundation
import StateDeck
import StateDeckSQLite
@testable import StateDeckServer
import TestSupport
import Testing

/// A flapping panel goes on flapping after a stop or a `kill -9` of the server: a deck on a
/// virtual clock kept in an SQLite history flaps, and the deck of the next run, continued from
/// what the history saved, flaps from the same `since` and calms when the first would have.
@Suite(.serialized) struct FlappingRestartTests {
    /// 2026-11-22T10:00:00Z, the wall time when the clock reads zero.
    static let origin = Date(timeIntervalSince1970: 1_795_341_600)

    static func date(at offset: Duration) -> Date {
        origin.addingTimeInterval(offset / .seconds(1))
    }

    /// One run of the server: its store, saving only when told, on `clock`'s wall time.
    struct Run {
        let store: SQLiteHistoryStore
        let server: RoutedDeckServer

        init(folder: String, clock: TestClock<Duration>) async throws {
            let now: @Sendable () -> Date = { FlappingRestartTests.date(at: TestClock<Duration>.Instant().duration(to: clock.now)) }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var storeConfiguration = SQLiteHistoryStore.Configuration()
            storeConfiguration.startsWriter = false
            storeConfiguration.now = now
            store = try SQLiteHistoryStore(folder: folder, configuration: storeConfiguration)
            let deck = Deck("Flaps", configuration: Deck.Configuration(clock: clock, now: now), panels: [
                Panel("api", title: "API") { Info(summary: "Up") }.retry(.none).minimumLoadingTime(.zero),
            ])
            var options = LiveDeckServer.Options()
            options.history = store
            server = try await RoutedDeckServer(deck: deck, options: options)
        }

        func flapping() async throws -> FlappingStatus? {
            try await server.deck.panelState("api").flapping
        }
    }

    /// A folder of its own for a test's runs, one folder each.
    static func folder() -> String {
        FileManager.default.temporaryDirectory.path + "/statedeck-flaps-\(UUID().uuidString)"
    }

    /// Copies the history file and its log to a folder of its own, as they are now: a store holds
    /// its folder's lock while this process keeps it, so the next run opens the copy.
    static func copy(_ store: SQLiteHistoryStore, to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: store.path + suffix) {
            try FileManager.default.copyItem(atPath: store.path + suffix, toPath: folder + "/" + SQLiteHistoryStore.fileName + suffix)
        }
    }

    /// Starts a run, waits for its first load (up), then pushes down and up in turn once a minute
    /// from 1 to 6 min: the sixth change, at 6 min, begins flapping.
    static func flappingRun(in folder: String, clock: TestClock<Duration>) async throws -> Run {
        let run = try await Run(folder: folder, clock: clock)
        let loaded = await eventually { (try? await run.server.deck.panelState("api").health) == .up }
        try #require(loaded, "the first load did not end")
        for minute in 1...6 {
            await clock.advance(to: TestClock<Duration>.Instant(offset: .seconds(60 * minute)))
            try await run.server.deck.push(minute.isMultiple(of: 2) ? .loaded(Info(summary: "Up")) : .error(PanelError(.serverError)),
                                           panel: "api")
        }
        #expect(try await run.flapping() == FlappingStatus(since: date(at: .seconds(360)), changes: 6, within: "10 min"))
        return run
    }

    /// The next run flaps as the first did, and calms exactly 10 min after 6 min, the newest change.
    static func expectFlapsOnAndCalmsOnTime(_ next: Run, clock: TestClock<Duration>) async throws {
        #expect(try await next.flapping() == FlappingStatus(since: date(at: .seconds(360)), changes: 6, within: "10 min"))
        await clock.advance(to: TestClock<Duration>.Instant(offset: .seconds(960) - .milliseconds(1)))
        try await Task.sleep(for: .milliseconds(50))
        #expect(try await next.flapping() != nil, "a millisecond before the window passed")
        await clock.advance(to: TestClock<Duration>.Instant(offset: .seconds(960)))
        let calmed = await eventually { (try? await next.flapping()) == nil }
        #expect(calmed, "flapping ends when the window passed since 6 min")
    }

    /// A stop as the server makes it: the deck stops, then the history saves what waits and closes.
    @Test func aStoppedServersFlappingPanelFlapsOnAfterTheRestart() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = TestClock<Duration>()
        let first = try await Self.flappingRun(in: folder + "/1", clock: clock)
        await clock.advance(to: TestClock<Duration>.Instant(offset: .seconds(400)))
        await first.server.stop()
        first.store.close()
        try Self.copy(first.store, to: folder + "/2")
        let next = try await Run(folder: folder + "/2", clock: clock)
        try await Self.expectFlapsOnAndCalmsOnTime(next, clock: clock)
        await next.server.stop()
        next.store.close()
    }

    /// A `kill -9`: the history file as the last save left it, without the change after it.
    @Test func aKilledServersFlappingPanelFlapsOnWithWhatWasSaved() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = TestClock<Duration>()
        let first = try await Self.flappingRun(in: folder + "/1", clock: clock)
        first.store.flush()
        await clock.advance(to: TestClock<Duration>.Instant(offset: .seconds(420)))
        try await first.server.deck.push(.error(PanelError(.serverError)), panel: "api")
        #expect(try await first.flapping()?.changes == 7, "a change the kill loses")
        try Self.copy(first.store, to: folder + "/2")
        await first.server.stop()
        let next = try await Run(folder: folder + "/2", clock: clock)
        try await Self.expectFlapsOnAndCalmsOnTime(next, clock: clock)
        await next.server.stop()
        next.store.close()
        first.store.close()
    }
}
