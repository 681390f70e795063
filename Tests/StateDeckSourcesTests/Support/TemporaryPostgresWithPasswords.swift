import Foundation
import Testing
import TestSupport
@testable import StateDeckSources

/// A PostgreSQL server of the tests' own (`TemporaryPostgres`) that asks for passwords
/// (`scram-sha-256`) from every user but its owner: the user `app` (password `testPassword`) may read
/// the database `app` and its table `jobs`. Stopped and removed after the suite that asks for it
/// with the `.postgres` trait.
final class TemporaryPostgresWithPasswords: SuiteServer, @unchecked Sendable {
    @TaskLocal private static var suiteServer: TemporaryPostgresWithPasswords?
    static var current: TaskLocal<TemporaryPostgresWithPasswords?> { $suiteServer }

    let server: TemporaryPostgres
    let port: Int

    /// Makes the cluster and starts it, asking no password yet.
    init() async throws {
        server = try await TemporaryPostgres()
        guard let port = URLComponents(string: server.url)?.port else { throw ServerProcess.Failure(message: "no port in \(server.url)") }
        self.port = port
    }

    /// `postgres://app:PASSWORD@127.0.0.1:PORT/app`, or with the parts given.
    func url(user: String = "app", password: String? = testPassword, database: String? = "app") -> DatabaseURL {
        DatabaseURL(scheme: "postgres", user: user, password: password, host: "127.0.0.1", port: port, database: database)
    }

    /// Runs `sql` as the server's owner, in `database`.
    @discardableResult
    func administer(_ sql: String, in database: String = "postgres") async throws -> String {
        try await ServerProcess.run("/usr/bin/psql", ["postgres://statedeck@127.0.0.1:\(port)/\(database)", "-v", "ON_ERROR_STOP=1",
                                                      "-q", "-A", "-t", "-c", sql])
    }

    func start() async throws {
        try """
            local all all trust
            host all statedeck 127.0.0.1/32 trust
            host all all 127.0.0.1/32 scram-sha-256
            """.write(to: server.folder.appendingPathComponent("data/pg_hba.conf"), atomically: false, encoding: .utf8)
        // A session whose client is gone ends within 100 ms, even in the middle of a query.
        try await administer("ALTER SYSTEM SET client_connection_check_interval = 100")
        try await administer("CREATE ROLE app LOGIN PASSWORD '\(testPassword)'")
        try await administer("CREATE DATABASE app")
        try await administer("""
            CREATE TABLE jobs (id int, state text, finished timestamptz, urgent boolean);
            INSERT INTO jobs VALUES (1, 'done', '2026-01-02 03:04:05+00', false), (2, 'queued', NULL, true);
            GRANT SELECT, INSERT ON jobs TO app; SELECT pg_reload_conf();
            """, in: "app")
    }

    func remove() async {
        await server.remove()
    }
}

extension Trait where Self == SuiteServerScope<TemporaryPostgresWithPasswords> {
    /// A PostgreSQL server asking for passwords for the suite, as `TemporaryPostgresWithPasswords.current`.
    static var postgres: Self { Self() }
}
