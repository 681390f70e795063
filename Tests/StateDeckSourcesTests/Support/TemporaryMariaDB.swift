import Foundation
import Testing
import TestSupport
@testable import StateDeckSources

/// A MariaDB server of the tests' own (Debian's `mariadb-server`): its data made in a temporary
/// folder (`mariadb-install-db`), served on a free loopback port, with the user `app` (password
/// `testPassword`), who may read the database `app` and its table `jobs`. Stopped and removed after
/// the suite that asks for it with the `.mariaDB` trait.
final class TemporaryMariaDB: SuiteServer, @unchecked Sendable {
    @TaskLocal private static var suiteServer: TemporaryMariaDB?
    static var current: TaskLocal<TemporaryMariaDB?> { $suiteServer }

    let folder: URL
    let port: Int
    private var server: ServerProcess?

    init() throws {
        folder = URL(fileURLWithPath: "/tmp/statedeck-mariadb-\(UUID().uuidString)")
        port = Int(try LoopbackListener.closedPort())
    }

    /// `mysql://app:PASSWORD@127.0.0.1:PORT/app`, or with the parts given.
    func url(user: String = "app", password: String? = testPassword, database: String? = "app") -> DatabaseURL {
        DatabaseURL(scheme: "mysql", user: user, password: password, host: "127.0.0.1", port: port, database: database)
    }

    /// Runs `sql` as the server's root, over its socket.
    @discardableResult
    func administer(_ sql: String) async throws -> String {
        try await ServerProcess.run("/usr/bin/mariadb", ["--no-defaults", "--socket=\(folder.path)/socket", "--user=root", "--batch", "--skip-column-names", "-e", sql])
    }

    func start() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try await ServerProcess.run("/usr/bin/mariadb-install-db", [
            "--no-defaults", "--datadir=\(folder.path)/data", "--user=root", "--auth-root-authentication-method=normal",
            "--skip-test-db",
        ])
        server = try ServerProcess("/usr/sbin/mariadbd", [
            "--no-defaults", "--user=root", "--datadir=\(folder.path)/data", "--socket=\(folder.path)/socket", "--port=\(port)",
            "--bind-address=127.0.0.1", "--pid-file=\(folder.path)/pid", "--skip-log-bin", "--innodb-buffer-pool-size=16M",
        ], log: folder.appendingPathComponent("server.log"))
        try await ServerProcess.waitForListener(on: port)
        try await administer("""
            CREATE USER app@'%' IDENTIFIED BY '\(testPassword)'; CREATE DATABASE app; CREATE DATABASE other;
            CREATE TABLE app.jobs (id INT, state VARCHAR(20), finished DATETIME); INSERT INTO app.jobs VALUES
            (1, 'done', '2026-01-02 03:04:05'), (2, 'queued', NULL); GRANT SELECT ON app.* TO app@'%';
            GRANT SELECT, INSERT ON app.jobs TO app@'%'; CREATE USER watcher@'%' IDENTIFIED BY '\(testPassword)';
            GRANT SELECT ON *.* TO watcher@'%';
            """)
    }

    func remove() async {
        await server?.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

extension Trait where Self == SuiteServerScope<TemporaryMariaDB> {
    /// A MariaDB server for the suite, as `TemporaryMariaDB.current`.
    static var mariaDB: Self { Self() }
}
