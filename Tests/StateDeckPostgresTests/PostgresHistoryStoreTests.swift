import Foundation
import Locking
import Postgres
import StateDeck
import StateDeckHistory
import StateDeckNotifications
@testable import StateDeckPostgres
import Testing
import TestSupport

/// A PostgreSQL of the test's own and a virtual wall clock; the store saves only when told,
/// unless the test starts its writer.
final class PostgresStoreFixture: Sendable {
    static let start = Date(millisecondsSince1970: 20_000 * 86_400_000)
    let server: TemporaryPostgres
    let clock = Locked(PostgresStoreFixture.start)

    init(_ server: TemporaryPostgres) {
        self.server = server
    }

    func open(_ adjust: (inout PostgresHistoryStore.Configuration) -> Void = { _ in }) throws -> PostgresHistoryStore {
        var configuration = PostgresHistoryStore.Configuration()
        configuration.startsWriter = false
        configuration.now = { [clock] in clock.current }
        adjust(&configuration)
        return try PostgresHistoryStore(url: server.url, configuration: configuration)
    }

    func advance(by duration: Duration) {
        clock.withLock { $0 = $0.addingTimeInterval(duration / .seconds(1)) }
    }

    var now: Date { clock.current }

    func change(_ panel: String, _ state: ViewState, cause: PanelChange.Cause = .load(.milliseconds(25))) -> PanelChange {
        PanelChange(panel: panel, at: now, state: state, cause: cause)
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
    @Test func changesAreSavedAndListedInPagesWithTheirUptime() async throws {
        try await TemporaryPostgres.with { server in
            let fixture = PostgresStoreFixture(server)
            let store = try fixture.open()
            for index in 0..<5 {
                store.record(fixture.change("p", .loaded(Info(summary: "run \(index)"))))
                fixture.advance(by: .seconds(10))
            }
            store.record(fixture.change("p", .error(PanelError(.timeout, detail: "after 5 s"))))
            store.flush()
            #expect(store.trouble == nil)
            #expect(try fixture.integer("SELECT count(*) FROM statedeck.changes") == 6, "saved, not only in memory")
            let first = try store.changes(of: "p", HistoryQuery(limit: 4))
            #expect(first.entries.map(\.summary) == ["The service took too long to answer.", "run 4", "run 3", "run 2"])
            #expect(first.entries.first?.errorKind == .timeout)
            #expect(first.entries.first?.detail == "after 5 s")
            #expect(first.entries.first?.durationMs == 25)
            let cursor = try #require(first.next.flatMap(HistoryCursor.init))
            let second = try store.changes(of: "p", HistoryQuery(limit: 4, cursor: cursor))
            #expect(second.entries.map(\.summary) == ["run 1", "run 0"])
            #expect(second.next == nil)

            fixture.advance(by: .seconds(3 * 3_600 - 50))
            store.record(fixture.change("p", .loaded(Info())))
            fixture.advance(by: .seconds(3_600))
            store.flush()
            let report = try store.uptime(of: "p", TimelineQuery(span: .seconds(5 * 3_600), slots: 5, to: fixture.now))
            #expect(report.current?.health == .up)
            #expect(report.slots.map(\.state) == ["degraded", "down", "down", "up", "none"])
            #expect(report.slots[0].tally.loads == 6)
            #expect(report.slots[0].tally.failures == 1)
            #expect(report.slots[0].tally.p95Ms == 25, "the durations' histogram went through BYTEA and back")
            store.close()
        }
    }

    @Test func aReopenedStoreRemembersWhatEachPanelShowedItsTalliesAndEventIds() async throws {
        try await TemporaryPostgres.with { server in
            let fixture = PostgresStoreFixture(server)
            do {
                let store = try fixture.open()
                store.trackEventIDs { 4_242 }
                store.record(fixture.change("up", .loading, cause: .view))
                store.record(fixture.change("up", .loaded(Info(summary: "All good", fields: [.init("Jobs", "3")]))))
                store.record(fixture.change("down", .loaded(Info(summary: "Was fine"))))
                store.record(fixture.change("down", .error(PanelError(.serverError, title: "Boom", detail: "HTTP 500"))))
                store.record(fixture.change("down", .loading, cause: .view))
                store.record(fixture.change("forced", .error(PanelError(.unknown)), cause: .debug))
                fixture.advance(by: .seconds(120))
                store.close()
            }
            let store = try fixture.open()
            #expect(store.lastEventID == 4_242)
            let memories = store.memories(of: ["up", "down", "forced", "never"])
            #expect(Set(memories.keys) == ["up", "down"], "forced states are history, never what a panel shows")
            #expect(try store.changes(of: "forced", HistoryQuery()).entries.map(\.debug) == [true])
            let deck = Deck("d", panels: ["up", "down", "forced"].map { id in Panel(id, title: id) { Info() } })
            await deck.restore(memories)
            let up = try await deck.panelState("up")
            #expect(up.restored)
            #expect(up.phase == .loaded)
            #expect(up.latestValidInfo?.fields?.first?.value == "3")
            #expect(up.history.map(\.state) == [.loading, .loaded])
            let down = try await deck.panelState("down")
            #expect(down.phase == .error, "a load cut short by the stop is not what it showed")
            #expect(down.latestValidError?.title == "Boom")
            fixture.advance(by: .seconds(30))
            let report = try store.uptime(of: "down", TimelineQuery(span: .seconds(3_600), slots: 1, to: fixture.now))
            #expect(report.current?.health == .down)
            #expect(report.slots[0].tally.downMs == 150_000, "the two minutes before the stop, and 30 s after")
            store.close()
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

    @Test func theLedgerIsCommittedBeforeKeepReturnsAndComesBackAfterAReopenOnce() async throws {
        try await TemporaryPostgres.with { server in
            let fixture = PostgresStoreFixture(server)
            var watch = OutageWatch()
            _ = watch.failed(with: .init(kind: "timeout", title: "Timed out", message: "No answer"), at: fixture.now,
                             rule: NotifyRule(failures: 1))
            let failure = PendingDelivery(key: "api#0", notification: DeckNotification(
                event: .failure, panel: "api", title: "API", group: "services", error: nil,
                downSince: fixture.now, at: fixture.now))
            do {
                let store = try fixture.open()
                store.keep(watch, for: "db#1", delivering: nil)
                #expect(try fixture.integer("SELECT count(*) FROM statedeck.notify_outages") == 0,
                        "an outage without a delivery waits for the batch")
                store.keep(watch, for: "api#0", delivering: failure)
                #expect(try fixture.integer("SELECT count(*) FROM statedeck.notify_outbox") == 1, "committed as it is sent")
                #expect(try fixture.integer("SELECT count(*) FROM statedeck.notify_outages") == 2)
                store.keep(nil, for: "db#1", delivering: nil)
                store.close()
            }
            do {
                let store = try fixture.open()
                #expect(store.outages() == ["api#0": watch])
                #expect(store.takeUndelivered() == [failure])
                #expect(store.takeUndelivered().isEmpty, "handed out once")
                store.finished(failure.id)
                #expect(try fixture.integer("SELECT count(*) FROM statedeck.notify_outbox") == 0, "done: not sent again")
                store.close()
            }
            let reopened = try fixture.open()
            #expect(reopened.takeUndelivered().isEmpty)
            #expect(reopened.outages() == ["api#0": watch])
            reopened.close()
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
                                             cause: .load(.milliseconds(1))))
                }
            }
            record(0..<10)
            #expect(try await eventually { try fixture.integer("SELECT count(*) FROM statedeck.changes") == 10 })
            // The test server commits without waiting for its log (synchronous_commit=off): a
            // checkpoint puts the commits so far in it, so that the stop below loses none of them.
            try PostgresConnection(server.url).execute("CHECKPOINT")

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
