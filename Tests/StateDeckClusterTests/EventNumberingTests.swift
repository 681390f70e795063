import DeckTestSupport
import EventStream
import Postgres
import StateDeck
@testable import StateDeckCluster
import StateDeckNotifications
@testable import StateDeckServer
import Testing
import TestSupport

/// How a cluster's leader numbers events, and what becomes of ids pages already saw when the
/// store goes back to an older backup.
@Suite(.serialized)
struct EventNumberingTests {
    /// A member whose deck exports nothing (enough for a leader that writes events without
    /// panels), running it as `runsDeck` says and answering actions with `perform`.
    static func member(runsDeck: Bool = false,
                       perform: @escaping @Sendable (ForwardedAction) async -> ForwardedAction.Answer = { _ in
                           ForwardedAction.Answer(status: 503, body: [])
                       }) -> ClusterMember {
        let hub = EventHub(configuration: .init(firstEventID: 1))
        let mirror = StateMirror(debug: false, pingInterval: .seconds(15), history: nil, hub: hub)
        let runner = DeckRunner(deck: Deck("Empty", panels: []), source: mirror, held: mirror, history: nil,
                                metrics: DeckMetrics(hub: hub), notificationLedger: OutageTable(), onNotificationDelivery: nil,
                                logger: LiveDeckServer.quietLogger)
        let server = HostedServer(runner: runner, held: mirror, perform: perform, showTrouble: { _ in })
        return ClusterMember(server: server, leadership: { leads in leads }, runsDeck: { runsDeck })
    }

    /// The store's event ids, oldest first.
    static func ids(in session: PostgresConnection, _ condition: String = "true") throws -> [UInt64] {
        let rows = try session.query("SELECT id FROM statedeck_events WHERE \(condition) ORDER BY id")
        return (0..<rows.count).compactMap { rows.integer($0, 0).map(UInt64.init) }
    }

    /// Takes the lead on a new session of `store`, writes one event, and returns its id.
    static func leadAndWrite(_ store: TemporaryPostgres) throws -> UInt64 {
        let session = try PostgresConnection(store.url)
        try ClusterSchema.migrate(session)
        let leader = try #require(try ClusterLeader(session: session, keptEvents: 10,
                                                    partitionTimeout: .seconds(6)))
        try leader.write([ClusterLog.Entry(event: "toast", data: "{}")])
        return try #require(try ids(in: session).last)
    }

    @Test func aLeaderNumbersFromTheTimeUnlessTheStoreHoldsALaterID() async throws {
        try await TemporaryPostgres.with { store in
            let before = WallClock.microsecondsSince1970()
            let first = try Self.leadAndWrite(store)
            #expect(first >= before, "an empty store: from the time")

            // The store went back to an older backup, whose newest id is far older than the time.
            let session = try PostgresConnection(store.url)
            try session.execute("DELETE FROM statedeck_events")
            try session.query("INSERT INTO statedeck_events VALUES (5, 'toast', '{}')")
            let afterRestore = WallClock.microsecondsSince1970()
            let next = try Self.leadAndWrite(store)
            #expect(next >= afterRestore && next > first, "from the time, not after the old backup's newest id")

            // An id later than the time (a clock set back since) is still never reused.
            let later = WallClock.microsecondsSince1970() + 3_600_000_000
            try session.query("INSERT INTO statedeck_events VALUES ($1, 'toast', '{}')", [String(later)])
            #expect(try Self.leadAndWrite(store) == later + 1)
        }
    }

    @Test func aLeaderKeepsTheNewestEventsByCountHoweverFarTheirIDsJump() async throws {
        try await TemporaryPostgres.with { store in
            let session = try PostgresConnection(store.url)
            try ClusterSchema.migrate(session)
            // An earlier leader's events, then this one's, numbered from the time.
            try session.execute("INSERT INTO statedeck_events SELECT id, 'toast', '{}' FROM generate_series(1, 8) id")
            let leader = try #require(try ClusterLeader(session: session, keptEvents: 10,
                                                        partitionTimeout: .seconds(6)))
            try leader.write(Array(repeating: ClusterLog.Entry(event: "toast", data: "{}"), count: 4))
            let written = try Self.ids(in: session, "id > 8")
            try leader.trim()
            #expect(try Self.ids(in: session) == Array(3...8) + written, "the newest 10, the last leader's among them")
        }
    }

    @Test func aStoreRestoredFromAnOlderBackupBetweenTwoLeadersReusesNoIDAndPagesFromBeforeItGetASnapshot() async throws {
        try await TemporaryPostgres.with { store in
            let (first, second) = try await PostgresClusterTests.members(of: store)
            let page = try await first.events()
            _ = try await page.opening()
            try await PostgresClusterTests.push("backed up", on: first)
            _ = try await PostgresClusterTests.events(of: page, through: "backed up")
            let session = try PostgresConnection(store.url)
            try session.execute("""
                CREATE TABLE backup_events AS SELECT * FROM statedeck_events;
                CREATE TABLE backup_panels AS SELECT * FROM statedeck_panels;
                CREATE TABLE backup_layout AS SELECT * FROM statedeck_layout;
                """)
            let restoredNewest = try #require(try session.query("SELECT max(id) FROM backup_events").integer(0, 0)
                .map(UInt64.init))
            try await PostgresClusterTests.push("lost in the restore", on: first)
            let seen = try #require(try await PostgresClusterTests.events(of: page, through: "lost in the restore").last?.id)
            page.close()

            // Between the two leaders: a session of the test's waits for the leader's lock, so the
            // first leader's going hands it here, and the store goes back to the backup before the
            // second can lead.
            let lock = String(PostgresCluster.leaderLock)
            async let restored: [UInt64] = offPool {
                let restorer = try PostgresConnection(store.url)
                try restorer.query("SELECT pg_advisory_lock($1)", [lock])
                let issued = try Self.ids(in: restorer)
                try restorer.transaction { () throws(PostgresError) in
                    for table in ["statedeck_events", "statedeck_panels", "statedeck_layout"] {
                        try restorer.execute("DELETE FROM \(table); INSERT INTO \(table) SELECT * FROM backup_\(table.dropFirst(10))")
                    }
                }
                try restorer.query("SELECT pg_advisory_unlock($1)", [lock])
                return issued
            }
            #expect(try await eventually {
                try session.query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted").integer(0, 0) == 1
            }, "the test's session waits for the lock")
            await first.stop()
            let issuedBefore = try await restored
            let newestBefore = try #require(issuedBefore.last)
            #expect(try #require(UInt64(seen)) > restoredNewest, "the page saw an id the restored store never issued")

            #expect(await eventually { second.server.isRunningDeck })
            try await PostgresClusterTests.push("after the restore", on: second)
            try #require(try await eventually(timeout: .seconds(10)) {
                try await second.get("/api/state").text.contains("after the restore")
            }, "the new leader's events reach its own pages")
            let issuedAfter = try Self.ids(in: session, "id > \(restoredNewest)")
            #expect(!issuedAfter.isEmpty)
            #expect(issuedAfter.allSatisfy { $0 > newestBefore }, "no id issued before the restore is issued again")

            // A server that joins now has only the restored store's ids and the new leader's.
            let third = try await LiveDeckServer(deck: PostgresClusterTests.makeDeck(),
                                                 options: try PostgresClusterTests.member(of: store.url))
            for server in [second, third] {
                for resumed in [seen, String(restoredNewest)] {
                    let stream = try await server.events(lastEventID: resumed)
                    let opening = try #require(try await stream.opening().first)
                    #expect(opening.event == "snapshot", "a page at \(resumed) starts again from the whole state")
                    let events = [opening] + (opening.data.contains("after the restore")
                        ? [] : try await PostgresClusterTests.events(of: stream, through: "after the restore"))
                    let ids = events.compactMap { $0.id.flatMap(UInt64.init) }
                    #expect(ids.count == events.count && ids.allSatisfy { $0 > newestBefore },
                            "nothing under an id issued before the restore")
                    #expect(zip(ids, ids.dropFirst()).allSatisfy { $1 > $0 })
                    stream.close()
                }
            }
            await third.stop()
            await second.stop()
        }
    }
}
