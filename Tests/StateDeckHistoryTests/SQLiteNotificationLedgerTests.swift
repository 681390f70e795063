import FoundationEssentials
import SQLite
import StateDeck
import HistoryStoreTestSupport
import StateDeckHistory
import StateDeckNotifications
@testable import StateDeckSQLite
import Testing

/// The notifications' ledger in the history file: what was told and what is still to deliver.
@Suite struct SQLiteNotificationLedgerTests {
    /// The rows of `table` as another connection sees them: what a process killed now leaves.
    static func rows(_ table: String, in fixture: StoreFixture) throws -> Int64? {
        try Database(path: fixture.path, mode: .readOnly).integer("SELECT count(*) FROM \(table)")
    }

    @Test func outagesAndDeliveriesNotDoneComeBackAfterAReopenOnce() throws {
        try StoreFixture().contract.outagesAndDeliveriesNotDoneComeBackAfterAReopenOnce()
    }

    @Test func aWindowOpenAtAStopIsToldGatheredAfterItOnce() async throws {
        try await StoreFixture().contract.aWindowOpenAtAStopIsToldGatheredAfterItOnce()
    }

    @Test func undeliveredComeInTheOrderTheyWereDecidedAndThisRunsOwnAreNeverHandedOut() throws {
        let fixture = StoreFixture()
        // The wall clock was set back between the two: the second decided has the earlier time.
        let first = LedgerSamples.delivery(.reminder, at: fixture.now.addingTimeInterval(3_600))
        let second = LedgerSamples.delivery(.failure, at: fixture.now)
        do {
            let store = try fixture.open()
            store.keep(LedgerSamples.toldOutage(at: fixture.now), for: "api#0", delivering: first)
            store.keep(LedgerSamples.toldOutage(at: fixture.now), for: "api#0", delivering: second)
            store.close()
        }
        let store = try fixture.open()
        let underWay = LedgerSamples.delivery(.recovery, at: fixture.now.addingTimeInterval(7_200))
        store.keep(nil, for: "api#0", delivering: underWay)
        #expect(store.takeUndelivered().map(\.id) == [first.id, second.id])
        store.close()
    }

    @Test func aKeepWithADeliveryAndAFinishAreOnDiskBeforeTheyReturn() throws {
        let fixture = StoreFixture()
        let store = try fixture.open()
        var counting = OutageWatch()
        _ = counting.failed(with: .init(kind: "timeout", title: "Timed out", message: ""), at: fixture.now,
                            rule: NotifyRule(failures: 3))
        store.keep(counting, for: "api#0", delivering: nil)
        #expect(try Self.rows("notify_outages", in: fixture) == 0, "a failed load without a notification waits for the batch")
        let failure = LedgerSamples.delivery(.failure, at: fixture.now)
        store.keep(LedgerSamples.toldOutage(at: fixture.now), for: "api#0", delivering: failure)
        #expect(try Self.rows("notify_outbox", in: fixture) == 1, "on disk as it is sent")
        #expect(try Self.rows("notify_outages", in: fixture) == 1, "with the outage that told it")
        store.finished(failure.id)
        #expect(try Self.rows("notify_outbox", in: fixture) == 0, "done: not sent again after a stop")
        store.close()
    }

    @Test func aDeliveryTheFileCouldNotTakeIsSavedWithTheNextBatch() throws {
        let fixture = StoreFixture()
        let store = try fixture.open()
        store.flush()
        let blocker = try Database(path: fixture.path, mode: .readWrite(create: false), busyTimeout: .zero)
        try blocker.execute("BEGIN EXCLUSIVE")
        let failure = LedgerSamples.delivery(.failure, at: fixture.now)
        store.keep(LedgerSamples.toldOutage(at: fixture.now), for: "api#0", delivering: failure)
        #expect(store.outages()["api#0"]?.isTold == true, "kept in memory meanwhile")
        store.flush()
        #expect(store.trouble != nil)
        try blocker.execute("ROLLBACK")
        store.flush()
        #expect(store.trouble == nil)
        #expect(try Self.rows("notify_outbox", in: fixture) == 1)
        #expect(try Self.rows("notify_outages", in: fixture) == 1)
        store.close()
    }

    @Test func theFirstSchemaGainsTheLedgerAndKeepsItsHistory() throws {
        let fixture = StoreFixture()
        try FileManager.default.createDirectory(atPath: fixture.folder, withIntermediateDirectories: true)
        do {
            let first = try Database(path: fixture.path, mode: .readWrite(create: true))
            try first.execute(HistorySchema.migrations[0])
            try first.execute("""
                PRAGMA application_id = \(HistorySchema.applicationID); PRAGMA user_version = 1;
                INSERT INTO panels (id, name) VALUES (1, 'api');
                INSERT INTO changes (panel, at, state, summary) VALUES (1, \(fixture.now.millisecondsSince1970), 2, 'fine');
                """)
        }
        let store = try fixture.open()
        #expect(try store.changes(of: "api", HistoryQuery()).entries.map(\.summary) == ["fine"])
        #expect(store.outages().isEmpty)
        #expect(store.takeUndelivered().isEmpty)
        let failure = LedgerSamples.delivery(.failure, at: fixture.now)
        store.keep(LedgerSamples.toldOutage(at: fixture.now), for: "api#0", delivering: failure)
        store.close()
        let database = try Database(path: fixture.path, mode: .readOnly)
        #expect(try database.integer("PRAGMA user_version") == Int64(HistorySchema.currentVersion))
        #expect(try database.integer("SELECT count(*) FROM notify_outbox WHERE key = 'api#0'") == 1)
    }
}
