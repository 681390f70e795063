import Foundation
import Postgres
import TestSupport
import Testing

/// A history in PostgreSQL, `--cluster URL` (joining the processes sharing the deck there; its
/// older name `--store`) or `--data URL` (this process's alone): refused at start with status 2
/// when the URL cannot be used, without ever printing a password.
@Suite struct StoreOptionTests {
    /// Runs `statedeck option url`.
    private static func start(store url: String, option: String = "--store") async throws -> StatedeckBinary.Run {
        try await StatedeckBinary.run([option, url, "--port", "0"])
    }

    @Test func aUrlWithAPasswordIsStatus2NamingWhereThePasswordGoesAndNeverPrintingIt() async throws {
        let run = try await Self.start(store: "postgres://deck:s3cret-pw@127.0.0.1:9/history")
        #expect(run.status == 2)
        #expect(run.standardError.contains("127.0.0.1:9/history"), "\(run.standardError)")
        #expect(run.standardError.contains("PGPASSWORD"))
        #expect(run.standardError.contains("PGPASSFILE"))
        #expect(!run.standardError.contains("s3cret-pw"))
        #expect(!run.standardOutput.contains("s3cret-pw"))
        #expect(!run.standardOutput.contains("serving"))
    }

    @Test func anUnreachableServerIsStatus2NamingIt() async throws {
        let run = try await Self.start(store: "postgresql://deck@127.0.0.1:9/history")
        #expect(run.status == 2)
        #expect(run.standardError.contains("cannot connect to PostgreSQL at 127.0.0.1:9/history"), "\(run.standardError)")
    }

    @Test func aClusterWithDataIsRefused() async throws {
        for option in ["--cluster", "--store"] {
            let run = try await StatedeckBinary.run([option, "postgres://deck@127.0.0.1:9/history", "--data", "none"])
            #expect(run.status == 2)
            #expect(run.standardError.contains("--cluster and --data"), "\(run.standardError)")
        }
    }

    @Test func dataOfAPostgresURLGoesToPostgreSQLNotToAFolder() async throws {
        let run = try await Self.start(store: "postgresql://deck@127.0.0.1:9/history", option: "--data")
        #expect(run.status == 2)
        #expect(run.standardError.contains("cannot connect to PostgreSQL at 127.0.0.1:9/history"), "\(run.standardError)")
        let other = try await StatedeckBinary.run(["--data", "mysql://deck@127.0.0.1:9/history"])
        #expect(other.status == 2)
        #expect(other.standardError.contains("--data must name a folder, none, or a PostgreSQL database"), "\(other.standardError)")
    }

    /// `--data URL`: this process alone keeps its history in PostgreSQL, and joins no cluster: no
    /// leader is elected (none of the cluster's tables is made), and the history is written.
    @Test func dataOfAPostgresURLKeepsTheHistoryThereWithoutACluster() async throws {
        try await TemporaryPostgres.with { server in
            let serving = try ServingProcess(["--data", server.url, "--port", "0"])
            defer { serving.stop() }
            #expect(try await serving.port() != nil)
            let session = try PostgresConnection(server.url)
            #expect(try await eventually { (try session.query("SELECT count(*) FROM statedeck.changes").integer(0, 0) ?? 0) > 0 },
                    "the demo's changes are kept")
            #expect(try session.query("SELECT to_regclass('statedeck_events') IS NULL").boolean(0, 0) == true, "no cluster")
        }
    }

    @Test func anotherSchemeIsRefused() async throws {
        let run = try await Self.start(store: "mysql://deck@127.0.0.1:9/history")
        #expect(run.status == 2)
        #expect(run.standardError.contains("postgres:// or postgresql://"), "\(run.standardError)")
    }
}
