import DeckTestSupport
import Foundation
import Locking
import StateDeck
import StateDeckCluster
import StateDeckHistory
import StateDeckServer
import StateDeckSQLite
import Testing
import TestSupport

/// A server told it leads runs its deck only on a history it could take over: a deck whose
/// history is not written would count nothing, and would tell again what the last leader told.
@Suite struct ClusterTakeoverTests {
    /// A history in a folder of its own, waiting to write, whose takeovers and commits fail with
    /// what `refusal` gives.
    static func store(refusal: @escaping @Sendable () -> HistoryDatabaseError?) throws -> SQLiteHistoryStore {
        let folder = FileManager.default.temporaryDirectory.path + "/statedeck-takeover-\(UUID().uuidString)"
        var configuration = SQLiteHistoryStore.Configuration()
        configuration.waitsToWrite = true
        configuration.startsWriter = false
        configuration.database = { RefusingHistoryDatabase($0, refusal: refusal) }
        return try SQLiteHistoryStore(folder: folder, configuration: configuration)
    }

    /// Runs a member of `cluster` on `store` with a deck of one panel, counting its loads.
    static func run(_ cluster: ReplicaCatchUpTests.HandFedCluster, on store: SQLiteHistoryStore,
                    _ body: (ClusterMember, Locked<Int>) async throws -> Void) async throws {
        defer {
            store.close()
            try? FileManager.default.removeItem(atPath: store.folder)
        }
        let loads = Locked(0)
        let makeDeck: @Sendable () -> Deck = {
            Deck("Elected") {
                Panel("api", title: "API") {
                    loads.withLock { $0 += 1 }
                    return Info(summary: "up")
                }.refresh(.manual).minimumLoadingTime(.zero)
            }
        }
        var options = LiveDeckServer.Options()
        options.history = store
        options.cluster = (cluster, makeDeck)
        try await LiveDeckServer.run(makeDeck(), options) { _ in
            try await body(try #require(cluster.member.current), loads)
        }
    }

    @Test func aTakeoverWhoseHistoryCannotBeTakenOverRunsNoDeckUntilItCan() async throws {
        let refusing = Locked(true)
        let store = try Self.store {
            refusing.current ? HistoryDatabaseError(.unreachable, title: "Can't reach the store", notSaved: "",
                                                    resumesOnce: "it is back", detail: nil) : nil
        }
        let cluster = ReplicaCatchUpTests.HandFedCluster()
        try await Self.run(cluster, on: store) { member, loads in
            #expect(await member.setLeading(true) == false, "the history could not be taken over")
            #expect(!member.isRunningDeck)
            try await Task.sleep(for: .milliseconds(200))
            #expect(loads.current == 0, "no panel of the deck loaded")
            #expect(store.trouble?.title == "Can't reach the store", "the pages say why")

            refusing.withLock { $0 = false }
            #expect(await member.setLeading(true), "taken over once the store answers")
            #expect(member.isRunningDeck)
            #expect(await eventually { loads.current == 1 }, "the deck runs")
        }
    }

    /// A leader whose commit finds that another process took the history over lets go of the lead.
    @Test func aLeaderWhoseHistoryWasTakenOverResigns() async throws {
        let fenced = Locked(false)
        let store = try Self.store { fenced.current ? .fenced("the test's store") : nil }
        let cluster = ReplicaCatchUpTests.HandFedCluster()
        try await Self.run(cluster, on: store) { member, loads in
            #expect(await member.setLeading(true))
            #expect(await eventually { loads.current == 1 })
            store.flush()
            #expect(cluster.resignations.current == 0)
            fenced.withLock { $0 = true }
            store.flush()
            #expect(await eventually { cluster.resignations.current == 1 }, "the cluster is told to let go of the lead")
            #expect(store.trouble?.title == "Another process writes this history")
        }
    }
}
