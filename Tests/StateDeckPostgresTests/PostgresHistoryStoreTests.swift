import Foundation
import HistoryStoreTestSupport
import Locking
import Postgres
import StateDeck
import StateDeckHistory
import StateDeckNotifications
@testable import StateDeckPostgres
import Testing
import TestSupport

/// A PostgreSQL of the test's own and the contract's virtual wall clock; the store saves only
/// when told, unless the test starts its writer.
final class PostgresStoreFixture: Sendable {
    let server: TemporaryPostgres
    /// The scenarios every history store runs, against this server, and their clock.
    let contract: HistoryStoreContract<PostgresHistoryStore>

    init(_ server: TemporaryPostgres) {
        self.server = server
        // A process killed leaves what it committed; the next opens beside it.
        contract = HistoryStoreContract(open: { clock in try Self.open(server) { $0.clock = clock } },
                                        openAfterCrash: { clock in try Self.open(server) { $0.clock = clock } })
    }

    func open(_ adjust: (inout PostgresHistoryStore.Configuration) -> Void = { _ in }) throws -> PostgresHistoryStore {
        try Self.open(server) { [contract] configuration in
            configuration.clock = contract.historyClock
            adjust(&configuration)
        }
    }

    private static func open(_ server: TemporaryPostgres,
                             _ adjust: (inout PostgresHistoryStore.Configuration) -> Void) throws -> PostgresHistoryStore {
        var configuration = PostgresHistoryStore.Configuration()
        configuration.startsWriter = false
        adjust(&configuration)
        return try PostgresHistoryStore(url: server.url, configuration: configuration)
    }

    /// A writer, and a process waiting to write (`adjust` sets it up further), once the writer
    /// saved panel "p" up from 5 s to 60 s on the contract's clock.
    func writerAndReader(_ adjust: (inout PostgresHistoryStore.Configuration) -> Void = { _ in })
        throws -> (writer: PostgresHistoryStore, reader: PostgresHistoryStore) {
        let writer = try open()
        let reader = try open {
            $0.waitsToWrite = true
            adjust(&$0)
        }
        contract.advance(by: .seconds(5))
        writer.record(contract.change("p", .loaded(Info(summary: "up"))))
        contract.advance(by: .seconds(55))
        writer.flush()
        return (writer, reader)
    }

    /// `sql`'s first column of its first row as another session sees it: what a process killed now leaves.
    func integer(_ sql: String) throws -> Int64? {
        try PostgresConnection(server.url).query(sql).integer(0, 0)
    }

    /// `host:port/postgres`, as the store names its server.
    var serverName: String {
        String(server.url.drop { $0 != "@" }.dropFirst())
    }
}

/// The PostgreSQL history store against a real server: what it saves and reads, its schema, its
/// ledger, and a server that stops and comes back.
@Suite(.serialized)
struct PostgresHistoryStoreTests {
    @Test func changesAreListedNewestFirstInPages() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.changesAreListedNewestFirstInPages()
        }
    }

    @Test func aReopenedStoreRemembersWhatEachPanelShowedItsTalliesAndEventIds() async throws {
        try await TemporaryPostgres.with { server in
            try await PostgresStoreFixture(server).contract.aReopenedStoreRemembersWhatEachPanelShowedItsTalliesAndEventIds()
        }
    }

    /// Two processes of a cluster on one store: only the one running the deck writes, and the
    /// other answers from what it stored; taking over, it reads what the first left.
    @Test func onlyTheStoreOfTheProcessRunningTheDeckWritesAndTheOtherReadsWhatItStored() async throws {
        try await TemporaryPostgres.with { server in
            let fixture = PostgresStoreFixture(server)
            let contract = fixture.contract
            let leader = try fixture.open()
            let follower = try fixture.open { $0.waitsToWrite = true }
            contract.advance(by: .seconds(5))
            leader.record(contract.change("p", .loaded(Info(summary: "up"))))
            contract.advance(by: .seconds(20))
            leader.record(contract.change("p", .error(PanelError(.timeout))))
            contract.advance(by: .seconds(80))
            leader.flush()
            let tallies = try fixture.integer("SELECT count(*) FROM statedeck.tallies")
            let watches = try fixture.integer("SELECT count(*) FROM statedeck.watches")
            follower.flush()
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.tallies") == tallies, "the follower wrote no tally")
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.watches") == watches, "nor a watch of its own")
            let query = TimelineQuery(span: .seconds(60), slots: 1, to: contract.at(60))
            #expect(try follower.uptime(of: "p", query).slots == (try leader.uptime(of: "p", query)).slots,
                    "the same figures as the leader's, as of its last save")

            leader.close()
            follower.setWriting(true)
            #expect(follower.memories(of: ["p"])["p"] != nil)
            let now = TimelineQuery(span: .seconds(60), slots: 1, to: contract.now)
            #expect(try follower.uptime(of: "p", now).current?.health == .down, "what the last leader kept")
            contract.advance(by: .seconds(5))
            follower.flush()
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.watches") == watches.map { $0 + 1 },
                    "taking over begins a watch: the time between is no one's")
            follower.close()
        }
    }

    /// At a failover's edge the old leader may still save while the new one starts: the new one
    /// takes the history over, and from then on the old one's commits are refused (changes and
    /// forms, and the ledger, whose delivery it must then not send). It says so once, writes no
    /// more, and the new one goes on from what the old one committed before.
    @Test func aTakeoverFencesTheProcessThatWroteBefore() async throws {
        try await TemporaryPostgres.with { server in
            let fixture = PostgresStoreFixture(server)
            let contract = fixture.contract
            let old = try fixture.open()
            let lost = Locked(0)
            old.observeLostWriting { lost.withLock { $0 += 1 } }
            contract.advance(by: .seconds(5))
            old.record(contract.change("a", .loaded(Info(summary: "up"))))
            old.flush()
            let new = try fixture.open { $0.waitsToWrite = true }
            #expect(new.setWriting(true))

            old.record(contract.change("a", .error(PanelError(.timeout))))
            old.keep(form: MomentForm(part: .panel("a"), at: contract.now.millisecondsSince1970, json: #"{"id":"a"}"#,
                                      headline: MomentHeadline(title: "A", phase: "error", health: "down", summary: nil)))
            old.flush()
            #expect(lost.current == 1, "told once that another process took the history over")
            #expect(old.trouble?.title == "Another process writes this history")
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.changes") == 1, "nothing it kept after the takeover")
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.forms") == 0)
            let failure = LedgerSamples.delivery(.failure, at: contract.now)
            old.keep(LedgerSamples.toldOutage(at: contract.now), for: "a#0", delivering: failure)
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.notify_outbox") == 0, "nor a delivery it decided")
            #expect(!old.hasKept([failure.id]), "which it holds back")

            contract.advance(by: .seconds(5))
            new.record(contract.change("b", .loaded(Info(summary: "up"))))
            new.flush()
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.changes") == 2, "the new one writes")
            old.close()
            new.close()
        }
    }

    /// Every process of a cluster answers the same figures: one that never wrote, and one that
    /// wrote before another took over (it counts nothing of its own any more), alike: the
    /// writer's as of its last save.
    @Test func everyProcessAnswersTheWritersFiguresAsOfItsLastSave() async throws {
        try await TemporaryPostgres.with { server in
            let fixture = PostgresStoreFixture(server)
            let contract = fixture.contract
            let first = try fixture.open()
            let second = try fixture.open { $0.waitsToWrite = true }
            contract.advance(by: .seconds(5))
            first.record(contract.change("p", .loaded(Info(summary: "up"))))
            contract.advance(by: .seconds(55))
            first.record(contract.change("p", .error(PanelError(.timeout))))
            contract.advance(by: .seconds(30))
            first.flush()
            let query = TimelineQuery(span: .seconds(3_600), slots: 4)
            func figures(_ store: PostgresHistoryStore) throws -> String {
                let report = try store.uptime(of: "p", query)
                let current = report.current.map { "\($0.health) since \($0.since) watched since \($0.watchedSince)" }
                let day = report.day.map { String($0) } ?? "null"
                let slots = report.slots.map { slot in "\(slot.tally.upMs)/\(slot.tally.downMs)" }.joined(separator: " ")
                return "\(day) \(current ?? "null") \(slots)"
            }
            let read = try figures(second)
            #expect(read == (try figures(first)), "a process that never wrote: the writer's figures, current included")
            #expect(try second.uptime(of: "p", query).current?.health == .down)

            second.setWriting(true)
            contract.advance(by: .seconds(60))
            second.flush()
            first.flush()   // refused: the other took the history over
            #expect(try figures(first) == (try figures(second)),
                    "the process that wrote before counts its panel no more: the new writer's figures, not both summed")
            first.close()
            second.close()
        }
    }

    /// A session ended under a process while it idled (the server restarted, a proxy dropped it)
    /// costs no read: the read finds it broken and goes on over a new one.
    @Test func aReadSessionEndedWhileIdleIsMadeAnewForTheRead() async throws {
        try await TemporaryPostgres.with { server in
            let fixture = PostgresStoreFixture(server)
            let contract = fixture.contract
            let (first, second) = try fixture.writerAndReader()
            let query = TimelineQuery(span: .seconds(3_600), slots: 4)
            #expect(try second.uptime(of: "p", query).current?.health == .up)

            try await server.stop()
            try await server.start()
            contract.advance(by: .seconds(2))
            #expect(try second.uptime(of: "p", query).current?.health == .up, "read over a new session")
            first.close()
            second.close()
        }
    }

    /// A process whose history another took over runs its deck until it stops, and that deck's
    /// changes are never saved: once it stops writing, it answers the new writer's figures, not
    /// those changes besides them.
    @Test func aProcessThatLostTheHistoryCountsNoChangeItsDeckMadeAfter() async throws {
        try await TemporaryPostgres.with { server in
            let fixture = PostgresStoreFixture(server)
            let contract = fixture.contract
            let (first, second) = try fixture.writerAndReader()
            let query = TimelineQuery(span: .seconds(3_600), slots: 4)
            second.setWriting(true)
            contract.advance(by: .seconds(30))
            first.record(contract.change("p", .error(PanelError(.timeout))))
            first.flush()   // refused: the other took the history over
            contract.advance(by: .seconds(1))
            first.record(contract.change("p", .error(PanelError(.serverError))))
            first.setWriting(false)
            second.flush()
            #expect(try first.uptime(of: "p", query) == (try second.uptime(of: "p", query)))
            #expect(try first.uptime(of: "p", query).current?.health == .up, "the new writer's health, not the lost deck's")
            first.close()
            second.close()
        }
    }

    /// A process that does not write answers only what it read from the store: when a read fails,
    /// its memory is not the store's, so it says so rather than answering figures of its own.
    @Test func aProcessThatCannotReadTheStoreSaysSoAndReadsItAgainNext() async throws {
        try await TemporaryPostgres.with { server in
            let fixture = PostgresStoreFixture(server)
            let contract = fixture.contract
            let unreadable = Locked(false)
            let (first, second) = try fixture.writerAndReader {
                $0.database = {
                    RefusingHistoryDatabase($0, refusal: { nil }) {
                        unreadable.current ? .unreadable("the session was lost", from: "the test's store") : nil
                    }
                }
            }
            let query = TimelineQuery(span: .seconds(3_600), slots: 4)
            #expect(try second.uptime(of: "p", query).current?.health == .up)

            first.record(contract.change("p", .error(PanelError(.timeout))))
            contract.advance(by: .seconds(30))
            first.flush()
            unreadable.withLock { $0 = true }
            #expect(throws: HistoryStoreError.self, "the store could not be read: no figures of its own") {
                try second.uptime(of: "p", query)
            }
            #expect(throws: MomentError.self) { try second.moment(at: contract.now) }

            unreadable.withLock { $0 = false }
            #expect(try second.uptime(of: "p", query).current?.health == .down, "read again at the next read")
            #expect(try second.uptime(of: "p", query) == (try first.uptime(of: "p", query)))
            first.close()
            second.close()
        }
    }

    @Test func aCrashLosesOnlyTheTimeSinceTheLastSave() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.aCrashLosesOnlyTheTimeSinceTheLastSave()
        }
    }

    @Test func aFlappingCountSurvivesACrash() async throws {
        try await TemporaryPostgres.with { server in
            try await PostgresStoreFixture(server).contract.aFlappingCountSurvivesACrash()
        }
    }

    @Test func aHeartbeatsLastRunSurvivesACrash() async throws {
        try await TemporaryPostgres.with { server in
            try await PostgresStoreFixture(server).contract.aHeartbeatsLastRunSurvivesACrash()
        }
    }

    @Test func aRemovedPanelStopsCountingAndStartsAnewWhenAddedAgain() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.aRemovedPanelStopsCountingAndStartsAnewWhenAddedAgain()
        }
    }

    @Test func aPanelGoneFromTheDeckIsInNoLaterMoment() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.aPanelGoneFromTheDeckIsInNoLaterMoment()
        }
    }

    @Test func incidentsAndWindowsAreKeptItemByItem() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.incidentsAndWindowsAreKeptItemByItem()
        }
    }

    @Test func momentsAreRebuiltFromFormsAndFoldedAtTheCutoff() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.momentsAreRebuiltFromFormsAndFoldedAtTheCutoff()
        }
    }

    @Test func auditEntriesAreReadBackOutliveACrashAndExpireWithTheDays() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.auditEntriesAreReadBackOutliveACrashAndExpireWithTheDays()
        }
    }

    @Test func aMaintenanceWindowOutlivesACrashAndItsTimeCountsApart() async throws {
        try await TemporaryPostgres.with { server in
            try await PostgresStoreFixture(server).contract.aMaintenanceWindowOutlivesACrashAndItsTimeCountsApart()
        }
    }

    @Test func anIncidentOutlivesACrashAtItsLastUpdate() async throws {
        try await TemporaryPostgres.with { server in
            try await PostgresStoreFixture(server).contract.anIncidentOutlivesACrashAtItsLastUpdate()
        }
    }

    @Test func aStopKeepsTheOpenMinuteAndTheTimeStoppedIsNoData() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.aStopKeepsTheOpenMinuteAndTheTimeStoppedIsNoData()
        }
    }

    @Test func aWallClockThatJumpsCreditsOnlyTheTimeThatRan() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.aWallClockThatJumpsCreditsOnlyTheTimeThatRan()
        }
    }

    @Test func aWallClockSetForwardForAWhileAndBackDeletesNothing() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.aWallClockSetForwardForAWhileAndBackDeletesNothing()
        }
    }

    @Test func aWallClockSetBackDeletesNothingWrittenSince() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.aWallClockSetBackDeletesNothingWrittenSince()
        }
    }

    @Test func aWallClockSetBackCountsNoInstantTwice() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.aWallClockSetBackCountsNoInstantTwice()
        }
    }

    @Test func aPageCursorHoldsAcrossASave() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.aPageCursorHoldsAcrossASave()
        }
    }

    @Test func aTimelineSummedFromHoursEndsAtAnHourHoldingTimeCountedAfterNow() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.aTimelineSummedFromHoursEndsAtAnHourHoldingTimeCountedAfterNow()
        }
    }

    @Test func aTimelineEndingInThePastHoldsNoTimeAfterIt() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.aTimelineEndingInThePastHoldsNoTimeAfterIt()
        }
    }

    @Test func aTimelineEndingInThePastSaysTheHealthOfThen() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.aTimelineEndingInThePastSaysTheHealthOfThen()
        }
    }

    @Test func retentionDeletesChangesByTheirTimeWhateverOrderTheyCameIn() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.retentionDeletesChangesByTheirTimeWhateverOrderTheyCameIn()
        }
    }

    @Test func outagesAndDeliveriesNotDoneComeBackAfterAReopenOnce() async throws {
        try await TemporaryPostgres.with { server in
            try PostgresStoreFixture(server).contract.outagesAndDeliveriesNotDoneComeBackAfterAReopenOnce()
        }
    }

    @Test func aWindowOpenAtAStopIsToldGatheredAfterItOnce() async throws {
        try await TemporaryPostgres.with { server in
            try await PostgresStoreFixture(server).contract.aWindowOpenAtAStopIsToldGatheredAfterItOnce()
        }
    }

    @Test func changesAndTalliesAreSavedAndMakeTheUptime() async throws {
        try await TemporaryPostgres.with { server in
            let fixture = PostgresStoreFixture(server)
            let store = try fixture.open()
            for index in 0..<5 {
                store.record(fixture.contract.change("p", .loaded(Info(summary: "run \(index)"))))
                fixture.contract.advance(by: .seconds(10))
            }
            store.record(fixture.contract.change("p", .error(PanelError(.timeout))))
            fixture.contract.advance(by: .seconds(3 * 3_600 - 50))
            store.record(fixture.contract.change("p", .loaded(Info())))
            fixture.contract.advance(by: .seconds(3_600))
            store.flush()
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.changes") == 7, "saved, not only in memory")
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.tallies WHERE resolution = 3600") == 4)
            store.close()
            let reopened = try fixture.open()
            let report = try reopened.uptime(of: "p", TimelineQuery(span: .seconds(5 * 3_600), slots: 5, to: fixture.contract.now))
            #expect(report.current?.health == .up)
            #expect(report.slots.map(\.state) == ["none", "degraded", "down", "down", "up"], "the last slot ends now")
            #expect(report.slots[1].tally.loads == 6)
            #expect(report.slots[1].tally.failures == 1)
            #expect(report.slots[1].tally.p95Ms == 25, "the durations' histogram went through BYTEA and back")
            reopened.close()
        }
    }

    @Test func aSchemaOfANewerStateDeckIsRefusedAndLeftAlone() async throws {
        try await TemporaryPostgres.with { server in
            let fixture = PostgresStoreFixture(server)
            try fixture.open().close()
            let newer = PostgresSchema.currentVersion + 1
            try PostgresConnection(server.url).query("UPDATE statedeck.version SET version = $1", [String(newer)])
            let error = try #require(throws: PostgresStoreError.self) { try fixture.open() }
            #expect(error == .newerSchema(server: fixture.serverName, version: newer, supported: PostgresSchema.currentVersion))
            #expect(error.description.contains(fixture.serverName))
            #expect(error.description.contains("newer StateDeck"))
            #expect(try fixture.integer("SELECT version FROM statedeck.version") == Int64(newer))
        }
    }

    @Test func twoStoresOpenedAtOnceMakeTheTablesOnce() async throws {
        try await TemporaryPostgres.with { server in
            let fixture = PostgresStoreFixture(server)
            let opened = try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await offPool { try fixture.open().close() } }
                }
                return try await group.reduce(0) { count, _ in count + 1 }
            }
            #expect(opened == 4)
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.version") == 1)
            #expect(try fixture.integer("SELECT version FROM statedeck.version") == Int64(PostgresSchema.currentVersion))
        }
    }

    @Test func aUrlWithAPasswordIsRefusedWithoutShowingIt() throws {
        let error = try #require(throws: PostgresStoreError.self) {
            try PostgresHistoryStore(url: "postgresql://deck:s3cret@db.example:6543/history")
        }
        #expect(error == .passwordInURL(server: "db.example:6543/history"))
        #expect(error.description.contains("PGPASSWORD"))
        #expect(!error.description.contains("s3cret"))
        #expect(throws: PostgresStoreError.self) { try PostgresHistoryStore(url: "mysql://deck@db.example/history") }
    }

    @Test func anUnreachableServerAtOpenIsAnErrorNamingIt() async throws {
        let server = try await TemporaryPostgres()
        let fixture = PostgresStoreFixture(server)
        let name = fixture.serverName
        await server.remove()
        let error = try #require(throws: PostgresStoreError.self) { try fixture.open() }
        guard case .unreachable(let named, _) = error else {
            Issue.record("not unreachable: \(error)")
            return
        }
        #expect(named == name)
        #expect(error.description.contains("cannot connect to PostgreSQL at \(name)"))
    }

    @Test func aKeepWithADeliveryAndAFinishAreCommittedBeforeTheyReturn() async throws {
        try await TemporaryPostgres.with { server in
            let fixture = PostgresStoreFixture(server)
            let store = try fixture.open()
            var counting = OutageWatch()
            _ = counting.failed(with: .init(kind: "timeout", title: "Timed out", message: ""), at: fixture.contract.now,
                                rule: NotifyRule(failures: 3))
            store.keep(counting, for: "api#0", delivering: nil)
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.notify_outages") == 0,
                    "a failed load without a notification waits for the batch")
            let failure = LedgerSamples.delivery(.failure, at: fixture.contract.now)
            store.keep(LedgerSamples.toldOutage(at: fixture.contract.now), for: "api#0", delivering: failure)
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.notify_outbox") == 1, "committed as it is sent")
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.notify_outages") == 1, "with the outage that told it")
            store.finished(failure.id)
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.notify_outbox") == 0, "done: not sent again")
            store.close()
        }
    }

    /// Once rests on the delivery's row: a claim holds it for the process that made it, whatever
    /// another's memory holds (or its own, a second time); a delivery done claims nothing again;
    /// the next process to take the history over claims what the last left unanswered, and the
    /// one it took over from claims nothing more.
    @Test func aDeliveryIsClaimedByOneProcessAtATime() async throws {
        try await TemporaryPostgres.with { server in
            let fixture = PostgresStoreFixture(server)
            let now = fixture.contract.now
            let first = try fixture.open()
            let (told, answered) = (LedgerSamples.delivery(.failure, at: now), LedgerSamples.delivery(.failure, key: "db#0", at: now))
            first.keep(LedgerSamples.toldOutage(at: now), for: "api#0", delivering: told)
            first.keep(LedgerSamples.toldOutage(at: now), for: "db#0", delivering: answered)
            #expect(first.claim([told.id, answered.id]) == [told.id, answered.id])
            #expect(first.claim([told.id]) == [], "claimed once")
            first.finished(answered.id)

            let next = try fixture.open { $0.waitsToWrite = true }
            #expect(next.setWriting(true))
            #expect(next.takeUndelivered().map(\.id) == [told.id], "left unanswered by the process before")
            #expect(next.claim([told.id, answered.id]) == [told.id], "claimed again after the takeover; the one answered is done")
            #expect(first.claim([told.id]) == [], "the process taken over from claims nothing")
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.notify_outbox WHERE claimed IS NOT NULL") == 1)
            first.close()
            next.close()
        }
    }

    @Test func aServerThatStopsAndComesBackLosesNoChange() async throws {
        try await TemporaryPostgres.with { server in
            let fixture = PostgresStoreFixture(server)
            let store = try fixture.open {
                $0.startsWriter = true
                $0.now = { Date() }
                $0.flushInterval = .milliseconds(100)
                $0.reconnectDelays = .milliseconds(50)...(.milliseconds(400))
            }
            let heard = Locked<[PanelError?]>([])
            store.observeTrouble { error in heard.withLock { $0.append(error) } }
            func record(_ range: Range<Int>) {
                for index in range {
                    store.record(PanelChange(panel: "p", at: Date(), state: .loaded(Info(summary: "\(index)")),
                                             cause: .load(.milliseconds(1)), health: .up))
                }
            }
            record(0..<10)
            #expect(try await eventually { try fixture.integer("SELECT count(*) FROM statedeck.changes") == 10 })
            try await server.stop()
            record(10..<20)
            let trouble = try #require(await eventuallyValue { store.trouble })
            #expect(trouble.title == "Can't reach PostgreSQL")
            #expect(trouble.message.contains("PostgreSQL at \(fixture.serverName) cannot be reached"))
            #expect(trouble.message.contains("changes wait in memory"))
            #expect(throws: HistoryStoreError.self) { try store.changes(of: "p", HistoryQuery()) }
            record(20..<30)

            try await server.start()
            #expect(await eventually { store.trouble == nil }, "saving resumed by itself")
            #expect(try await eventually {
                try fixture.integer("SELECT count(DISTINCT summary) FROM statedeck.changes") == 30
            }, "no change queued while the server was away is lost")
            let listed = try store.changes(of: "p", HistoryQuery(limit: 500)).entries.compactMap(\.summary)
            #expect(Set(listed) == Set((0..<30).map(String.init)))
            #expect(heard.current.first??.title == "Can't reach PostgreSQL")
            #expect(heard.current.last! == nil)
            store.close()
        }
    }
}

extension PostgresHistoryStore: FlushingHistoryStore {}
