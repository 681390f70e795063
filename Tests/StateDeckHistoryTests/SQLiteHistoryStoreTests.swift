import FoundationEssentials
import Locking
import SQLite
import StateDeck
import HistoryStoreTestSupport
import StateDeckHistory
@testable import StateDeckSQLite
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A history folder of its own and a virtual wall clock; the store saves only when told.
final class StoreFixture: Sendable {
    static let start = Date(millisecondsSince1970: 20_000 * 86_400_000)
    let folder: String
    let clock = Locked(StoreFixture.start)

    init() {
        folder = FileManager.default.temporaryDirectory.path + "/statedeck-history-\(UInt64.random(in: 0...UInt64.max))"
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
        try? FileManager.default.removeItem(atPath: folder + "-crashed")
    }

    var path: String { folder + "/" + SQLiteHistoryStore.fileName }

    func open(_ adjust: (inout SQLiteHistoryStore.Configuration) -> Void = { _ in }) throws -> SQLiteHistoryStore {
        var configuration = SQLiteHistoryStore.Configuration()
        configuration.startsWriter = false
        configuration.now = { [clock] in clock.current }
        adjust(&configuration)
        return try SQLiteHistoryStore(folder: folder, configuration: configuration)
    }

    /// The scenarios every history store runs, against this folder's; a crash leaves the file
    /// and its log as they are, copied to a folder of their own (the store killed holds this one's lock).
    var contract: HistoryStoreContract<SQLiteHistoryStore> {
        HistoryStoreContract(open: { [self] clock in try open { $0.clock = clock } },
                             openAfterCrash: { [self] clock in
            let crashed = folder + "-crashed"
            try FileManager.default.createDirectory(atPath: crashed, withIntermediateDirectories: true)
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: crashed + "/" + SQLiteHistoryStore.fileName + suffix)
            }
            var configuration = SQLiteHistoryStore.Configuration()
            configuration.startsWriter = false
            configuration.clock = clock
            return try SQLiteHistoryStore(folder: crashed, configuration: configuration)
        })
    }

    func advance(by duration: Duration) {
        clock.withLock { $0 = $0.addingTimeInterval(duration / .seconds(1)) }
    }

    var now: Date { clock.current }

    func change(_ panel: String, _ state: ViewState, cause: PanelChange.Cause = .load(.milliseconds(25))) -> PanelChange {
        PanelChange(panel: panel, at: now, state: state, cause: cause, health: Health.unknown.after(state, cause: cause))
    }

    /// Writes `bytes` as the history file of a folder made for it.
    func writeFile(_ bytes: [UInt8]) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func fileBytes() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

@Suite struct SQLiteHistoryStoreTests {
    @Test func changesAreListedNewestFirstInPages() throws {
        try StoreFixture().contract.changesAreListedNewestFirstInPages()
    }

    @Test func queriesAnswerWithChangesNotSavedYet() throws {
        let fixture = StoreFixture()
        let store = try fixture.open()
        store.record(fixture.change("p", .loaded(Info(summary: "up"))))
        fixture.advance(by: .seconds(10))
        store.record(fixture.change("p", .error(PanelError(.timeout))))
        fixture.advance(by: .seconds(5))
        #expect(try store.changes(of: "p", HistoryQuery()).entries.map(\.state) == [.error, .loaded])
        let report = try store.uptime(of: "p", TimelineQuery(span: .seconds(3_600), slots: 4, to: fixture.now))
        #expect(report.current?.health == .down)
        #expect(report.slots.last?.tally.upMs == 10_000)
        #expect(report.slots.last?.tally.downMs == 5_000)
        store.close()
    }

    @Test func pagesRunThroughSavedAndWaitingChangesInOrder() throws {
        let fixture = StoreFixture()
        let store = try fixture.open()
        func record(_ count: Int, from first: Int) {
            for index in first..<first + count {
                store.record(fixture.change("p", .loaded(Info(summary: "\(index)"))))
                fixture.advance(by: .seconds(1))
            }
        }
        record(5, from: 0)
        store.flush()
        let blocker = try Database(path: fixture.path, mode: .readWrite(create: false), busyTimeout: .zero)
        try blocker.execute("BEGIN EXCLUSIVE")
        record(5, from: 5)
        store.flush()
        #expect(store.trouble != nil, "the last five wait in memory")
        var seen: [String] = []
        var cursor: HistoryCursor?
        repeat {
            let page = try store.changes(of: "p", HistoryQuery(limit: 3, cursor: cursor))
            seen += page.entries.compactMap(\.summary)
            cursor = page.next.flatMap(HistoryCursor.init)
        } while cursor != nil
        #expect(seen == (0..<10).reversed().map(String.init))
        try blocker.execute("ROLLBACK")
        store.close()
    }

    @Test func aReopenedStoreRemembersWhatEachPanelShowedItsTalliesAndEventIds() async throws {
        try await StoreFixture().contract.aReopenedStoreRemembersWhatEachPanelShowedItsTalliesAndEventIds()
    }

    @Test func aStopKeepsTheOpenMinuteAndTheTimeStoppedIsNoData() throws {
        try StoreFixture().contract.aStopKeepsTheOpenMinuteAndTheTimeStoppedIsNoData()
    }

    @Test func aCrashLosesOnlyTheTimeSinceTheLastSave() throws {
        try StoreFixture().contract.aCrashLosesOnlyTheTimeSinceTheLastSave()
    }

    @Test func aFlappingCountSurvivesACrash() async throws {
        try await StoreFixture().contract.aFlappingCountSurvivesACrash()
    }

    @Test func aHeartbeatsLastRunSurvivesACrash() async throws {
        try await StoreFixture().contract.aHeartbeatsLastRunSurvivesACrash()
    }

    @Test func auditEntriesAreReadBackOutliveACrashAndExpireWithTheDays() throws {
        try StoreFixture().contract.auditEntriesAreReadBackOutliveACrashAndExpireWithTheDays()
    }

    @Test func aRemovedPanelStopsCountingAndStartsAnewWhenAddedAgain() throws {
        try StoreFixture().contract.aRemovedPanelStopsCountingAndStartsAnewWhenAddedAgain()
    }

    @Test func aPanelGoneFromTheDeckIsInNoLaterMoment() throws {
        try StoreFixture().contract.aPanelGoneFromTheDeckIsInNoLaterMoment()
    }

    @Test func incidentsAndWindowsAreKeptItemByItem() throws {
        try StoreFixture().contract.incidentsAndWindowsAreKeptItemByItem()
    }

    @Test func momentsAreRebuiltFromFormsAndFoldedAtTheCutoff() throws {
        try StoreFixture().contract.momentsAreRebuiltFromFormsAndFoldedAtTheCutoff()
    }

    @Test func aMaintenanceWindowOutlivesACrashAndItsTimeCountsApart() async throws {
        try await StoreFixture().contract.aMaintenanceWindowOutlivesACrashAndItsTimeCountsApart()
    }

    @Test func anIncidentOutlivesACrashAtItsLastUpdate() async throws {
        try await StoreFixture().contract.anIncidentOutlivesACrashAtItsLastUpdate()
    }

    /// A save writes a panel's open minute only when it gained a load or a change: time alone is
    /// counted again at start, from the minute's `counted_to` in the health `latest` keeps.
    @Test func aSteadyPanelsOpenMinuteIsNotWrittenAgainWithEachSave() throws {
        let fixture = StoreFixture()
        let store = try fixture.open()
        fixture.advance(by: .seconds(10))
        store.record(fixture.change("p", .loaded(Info())))
        store.flush()
        for _ in 0..<20 {
            fixture.advance(by: .seconds(1))
            store.flush()
        }
        let database = try Database(path: fixture.path, mode: .readOnly)
        #expect(try database.integer("SELECT counted_to FROM tallies WHERE resolution = 60")
            == StoreFixture.start.millisecondsSince1970 + 10_000, "written with the load, not since")
        #expect(try database.integer("SELECT count(*) FROM tallies") == 1)
        store.close()
    }

    @Test func aWallClockThatJumpsCreditsOnlyTheTimeThatRan() throws {
        try StoreFixture().contract.aWallClockThatJumpsCreditsOnlyTheTimeThatRan()
    }

    @Test func aWallClockSetForwardForAWhileAndBackDeletesNothing() throws {
        try StoreFixture().contract.aWallClockSetForwardForAWhileAndBackDeletesNothing()
    }

    @Test func aWallClockSetBackDeletesNothingWrittenSince() throws {
        try StoreFixture().contract.aWallClockSetBackDeletesNothingWrittenSince()
    }

    @Test func aWallClockSetBackCountsNoInstantTwice() throws {
        try StoreFixture().contract.aWallClockSetBackCountsNoInstantTwice()
    }

    @Test func aTimelineSummedFromHoursEndsAtAnHourHoldingTimeCountedAfterNow() throws {
        try StoreFixture().contract.aTimelineSummedFromHoursEndsAtAnHourHoldingTimeCountedAfterNow()
    }

    @Test func aPageCursorHoldsAcrossASave() throws {
        try StoreFixture().contract.aPageCursorHoldsAcrossASave()
    }

    @Test func aTimelineEndingInThePastHoldsNoTimeAfterIt() throws {
        try StoreFixture().contract.aTimelineEndingInThePastHoldsNoTimeAfterIt()
    }

    @Test func aTimelineEndingInThePastSaysTheHealthOfThen() throws {
        try StoreFixture().contract.aTimelineEndingInThePastSaysTheHealthOfThen()
    }

    @Test func retentionDeletesChangesByTheirTimeWhateverOrderTheyCameIn() throws {
        try StoreFixture().contract.retentionDeletesChangesByTheirTimeWhateverOrderTheyCameIn()
    }

    @Test func uptimeCountsTimeUpAndDownAndDrawsSlots() throws {
        let fixture = StoreFixture()
        let store = try fixture.open()
        store.record(fixture.change("p", .loaded(Info())))
        fixture.advance(by: .seconds(3 * 3_600))
        store.record(fixture.change("p", .error(PanelError(.timeout))))
        fixture.advance(by: .seconds(3_600))
        store.flush()
        let report = try store.uptime(of: "p", TimelineQuery(span: .seconds(4 * 3_600), slots: 4, to: fixture.now))
        #expect(report.day == 0.75)
        #expect(report.current?.health == .down)
        #expect(report.current?.since == StoreFixture.start.addingTimeInterval(3 * 3_600))
        #expect(report.slotMs == 3_600_000)
        #expect(report.slots.map(\.state) == ["up", "up", "up", "down"], "the last slot ends now, on the hour")
        #expect(report.slots[3].tally.failures == 1)
        store.close()
    }

    @Test func retentionDeletesChangesAndTalliesPastTheirTime() throws {
        let fixture = StoreFixture()
        var retention = HistoryRetention()
        retention.changes = .seconds(2 * 86_400)
        let store = try fixture.open { $0.retention = retention }
        store.record(fixture.change("p", .loaded(Info(summary: "old"))))
        store.flush()
        fixture.advance(by: .seconds(3 * 86_400))
        store.record(fixture.change("p", .loaded(Info(summary: "new"))))
        store.flush()
        #expect(try store.changes(of: "p", HistoryQuery()).entries.map(\.summary) == ["new"])
        store.close()
        let database = try Database(path: fixture.path, mode: .readOnly)
        #expect(try database.integer("SELECT min(start) FROM tallies WHERE resolution = 60") ?? 0
            >= (StoreFixture.start.millisecondsSince1970 + 2 * 86_400_000), "minutes are kept 24 hours")
        #expect(try database.integer("SELECT count(*) FROM tallies WHERE resolution = 86400") == 3)
    }

    @Test func aStoreThatCannotSaveSaysWhyKeepsChangesAndResumes() throws {
        let fixture = StoreFixture()
        let store = try fixture.open()
        let heard = Locked<[PanelError?]>([])
        store.observeTrouble { error in heard.withLock { $0.append(error) } }
        let blocker = try Database(path: fixture.path, mode: .readWrite(create: false), busyTimeout: .zero)
        try blocker.execute("BEGIN EXCLUSIVE")
        store.record(fixture.change("p", .loaded(Info(summary: "kept"))))
        store.flush()
        let trouble = try #require(store.trouble)
        #expect(trouble.title == "Can't save history")
        #expect(trouble.message.contains("1 changes wait in memory"))
        try blocker.execute("ROLLBACK")
        store.flush()
        #expect(store.trouble == nil)
        #expect(heard.current.map { $0?.title } == ["Can't save history", nil])
        #expect(try store.changes(of: "p", HistoryQuery()).entries.map(\.summary) == ["kept"])
        store.close()
    }

    @Test func aFullFileIsOutOfSpace() throws {
        let fixture = StoreFixture()
        // Room for the empty tables and indexes (a page each), not for the changes.
        let store = try fixture.open { $0.maximumSize = 96 << 10 }
        let text = String(repeating: "x", count: 2_000)
        for index in 0..<200 { store.record(fixture.change("p\(index)", .loaded(Info(summary: text)))) }
        store.flush()
        let trouble = try #require(store.trouble)
        #expect(trouble.kind == .outOfSpace)
        #expect(trouble.title == "Out of space")
        store.close()
    }

    @Test func aSecondStoreOnTheSameFolderIsRefused() throws {
        let fixture = StoreFixture()
        let first = try fixture.open()
        #expect(throws: HistoryOpenError.inUse(folder: fixture.folder, owner: "pid \(getpid())")) {
            try fixture.open()
        }
        first.close()
    }

    @Test(arguments: [
        ("not a database", Array("name,value\n1,2\n".utf8)),
        ("damaged", Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0xEE, count: 4_000)),
    ])
    func aFileThatIsNoHistoryIsRefusedAndLeftAlone(_ name: String, _ bytes: [UInt8]) throws {
        let fixture = StoreFixture()
        try fixture.writeFile(bytes)
        #expect {
            try fixture.open()
        } throws: { error in
            guard case .notHistory(let path, _) = error as? HistoryOpenError else { return false }
            return path == fixture.path
        }
        #expect(try fixture.fileBytes() == bytes)
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftAlone() throws {
        let fixture = StoreFixture()
        try FileManager.default.createDirectory(atPath: fixture.folder, withIntermediateDirectories: true)
        do {
            let other = try Database(path: fixture.path, mode: .readWrite(create: true))
            try other.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')")
        }
        let before = try fixture.fileBytes()
        let error = try #require(throws: HistoryOpenError.self) { try fixture.open() }
        #expect(error.description.contains("an SQLite database of another program"))
        #expect(try fixture.fileBytes() == before)
    }

    @Test func aNewerSchemaIsRefused() throws {
        let fixture = StoreFixture()
        try fixture.open().close()
        do {
            let database = try Database(path: fixture.path, mode: .readWrite(create: false))
            try database.execute("PRAGMA user_version = 99")
        }
        let error = try #require(throws: HistoryOpenError.self) { try fixture.open() }
        #expect(error == .newerSchema(path: fixture.path, version: 99, supported: HistorySchema.currentVersion))
        #expect(error.description.contains("newer StateDeck"))
    }

    @Test func aFolderInPlaceOfTheFileIsUnreadable() throws {
        let fixture = StoreFixture()
        try FileManager.default.createDirectory(atPath: fixture.path, withIntermediateDirectories: true)
        let error = try #require(throws: HistoryOpenError.self) { try fixture.open() }
        #expect(error == .unreadable(path: fixture.path, reason: "it is not a regular file"))
    }

    /// Every released schema version, made by its own migrations, opens as the current one.
    @Test(arguments: 0..<HistorySchema.currentVersion)
    func everyEarlierVersionMigratesToTheCurrentOne(_ version: Int) throws {
        let fixture = StoreFixture()
        try FileManager.default.createDirectory(atPath: fixture.folder, withIntermediateDirectories: true)
        do {
            let earlier = try Database(path: fixture.path, mode: .readWrite(create: true))
            for step in 0..<version { try earlier.execute(HistorySchema.migrations[step]) }
            if version > 0 {
                try earlier.execute("PRAGMA application_id = \(HistorySchema.applicationID); PRAGMA user_version = \(version)")
            }
        }
        try fixture.open().close()
        let database = try Database(path: fixture.path, mode: .readOnly)
        #expect(try database.integer("PRAGMA user_version") == Int64(HistorySchema.currentVersion))
        #expect(try database.integer("PRAGMA application_id") == Int64(HistorySchema.applicationID))
    }
}

extension SQLiteHistoryStore: FlushingHistoryStore {}
