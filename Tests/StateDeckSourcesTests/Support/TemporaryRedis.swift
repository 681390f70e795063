import Foundation
import Testing
import TestSupport
@testable import StateDeckSources

/// A Redis server of the tests' own (Debian's `redis-server`), on a free loopback port, its
/// password `testPassword`, nothing saved to disk; the key `jobs` a list of 3 and `mode` "live".
/// Stopped and removed after the suite that asks for it with the `.redis` trait.
final class TemporaryRedis: SuiteServer, @unchecked Sendable {
    @TaskLocal private static var suiteServer: TemporaryRedis?
    static var current: TaskLocal<TemporaryRedis?> { $suiteServer }

    let folder: URL
    let port: Int
    private var server: ServerProcess?

    init() throws {
        folder = URL(fileURLWithPath: "/tmp/statedeck-redis-\(UUID().uuidString)")
        port = Int(try LoopbackListener.closedPort())
    }

    /// `redis://:PASSWORD@127.0.0.1:PORT`, or with the parts given.
    func url(user: String? = nil, password: String? = testPassword, database: String? = nil) -> DatabaseURL {
        DatabaseURL(scheme: "redis", user: user, password: password, host: "127.0.0.1", port: port, database: database)
    }

    func start() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try ServerProcess("/usr/bin/redis-server", [
            "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--requirepass", testPassword,
            "--dir", folder.path, "--databases", "4",
        ], log: folder.appendingPathComponent("server.log"))
        try await ServerProcess.waitForListener(on: port)
        try await administer(["RPUSH", "jobs", "a", "b", "c"])
        try await administer(["SET", "mode", "live"])
    }

    /// Sends `command` as the default user, with `redis-cli`; its reply.
    @discardableResult
    func administer(_ command: [String]) async throws -> String {
        try await ServerProcess.run("/usr/bin/redis-cli", ["-p", String(port), "-a", testPassword, "--no-auth-warning"] + command)
    }

    func remove() async {
        await server?.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

extension Trait where Self == SuiteServerScope<TemporaryRedis> {
    /// A Redis server for the suite, as `TemporaryRedis.current`.
    static var redis: Self { Self() }
}
