import Postgres
@testable import StateDeckCluster
import Testing
import TestSupport

/// What a server's feed reads of the cluster besides its events.
@Suite(.serialized)
struct ClusterFeedTests {
    /// Whether a server leads is whether some session holds the leader's lock: while none does,
    /// every server's pages say so.
    @Test func someoneLeadsWhileASessionHoldsTheLeadersLock() async throws {
        try await TemporaryPostgres.with { store in
            try ClusterSchema.prepare(store.url)
            let feed = try ClusterFeed(url: store.url, member: EventNumberingTests.member(), held: 10)
            #expect(try !feed.someoneLeads())
            var leader: PostgresConnection? = try PostgresConnection(store.url)
            #expect(try leader?.query("SELECT pg_try_advisory_lock($1)", [String(PostgresCluster.leaderLock)]).boolean(0, 0) == true)
            #expect(try feed.someoneLeads())
            leader = nil
            #expect(try await eventually { try !feed.someoneLeads() }, "the lock goes with its session")
            _ = leader
        }
    }
}
