import Postgres
import StateDeck
@testable import StateDeckCluster
import Testing
import TestSupport

/// A cluster's store made by an earlier StateDeck is brought to the current schema in place.
@Suite(.serialized)
struct ClusterSchemaTests {
    /// Makes `store`'s tables as the previous schema version made them, with panel `api` (down) as
    /// a leader of that version wrote it.
    static func makePreviousVersion(_ store: TemporaryPostgres) throws {
        let session = try PostgresConnection(store.url)
        try session.execute("CREATE TABLE statedeck_cluster_schema (version integer NOT NULL)")
        for step in 0..<(ClusterSchema.migrations.count - 1) {
            try session.execute(ClusterSchema.migrations[step])
            try session.query("INSERT INTO statedeck_cluster_schema VALUES ($1)", [String(step + 1)])
        }
        try session.query("""
            INSERT INTO statedeck_panels (id, position, compact, document, label, health, version, memory)
            VALUES ('api', 0, '{"id":"api"}', '{"id":"api"}', 'API', $1, 7, '')
            """, [String(Health.down.rawValue)])
    }

    @Test func aStoreOfThePreviousVersionUpgradesAndItsPanelsReadAsNeitherUnderMaintenanceNorFlapping() async throws {
        try await TemporaryPostgres.with { store in
            try Self.makePreviousVersion(store)
            let session = try PostgresConnection(store.url)
            try ClusterSchema.migrate(session)
            #expect(try session.query("SELECT max(version) FROM statedeck_cluster_schema").integer(0, 0)
                == Int64(ClusterSchema.migrations.count))
            let rows = try session.query("SELECT label, health, version, in_maintenance, flapping FROM statedeck_panels")
            #expect(rows.count == 1)
            #expect(rows[0, 0] == "API" && rows.integer(0, 1) == Int64(Health.down.rawValue) && rows.integer(0, 2) == 7)
            #expect(rows.boolean(0, 3) == false && rows.boolean(0, 4) == false)
        }
    }
}
