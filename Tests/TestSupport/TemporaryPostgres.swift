import Foundation

/// A PostgreSQL server of a test's own (`scripts/temporary-postgres`): made in a temporary
/// folder, on a free loopback port, stopped and removed by `remove()`.
public final class TemporaryPostgres: @unchecked Sendable {
    /// `postgres://` URL of its database (`trust` authentication, no password).
    public private(set) var url = ""
    public let folder: URL
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/temporary-postgres")

    /// Makes the cluster and starts it.
    public init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("statedeck-pg-\(UUID().uuidString)")
        try await start()
    }

    /// Runs `body` with a server of its own, removed after, whether `body` returned or threw.
    public static func with<T>(_ body: (TemporaryPostgres) async throws -> T) async throws -> T {
        let server = try await TemporaryPostgres()
        do {
            let value = try await body(server)
            await server.remove()
            return value
        } catch {
            await server.remove()
            throw error
        }
    }

    /// Starts the server (again, after `stop()`), on the same port.
    public func start() async throws {
        url = try await Self.run("start", folder.path).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server at once, cutting every session, as a crash would.
    public func stop() async throws {
        _ = try await Self.run("stop", folder.path)
    }

    /// Stops the server and deletes its folder.
    public func remove() async {
        _ = try? await stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs the script with its output in files, not pipes: the server it starts would inherit
    /// a pipe and hold it open, so reading to its end would never end.
    private static func run(_ arguments: String...) async throws -> String {
        try await offPool {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString)")
            defer {
                try? FileManager.default.removeItem(at: output.appendingPathExtension("out"))
                try? FileManager.default.removeItem(at: output.appendingPathExtension("err"))
            }
            let process = Process()
            process.executableURL = script
            process.arguments = arguments
            process.standardOutput = try Self.file(output.appendingPathExtension("out"))
            process.standardError = try Self.file(output.appendingPathExtension("err"))
            try process.run()
            process.waitUntilExit()
            let printed = try String(contentsOf: output.appendingPathExtension("out"), encoding: .utf8)
            guard process.terminationStatus == 0 else {
                throw Failure(message: (try? String(contentsOf: output.appendingPathExtension("err"), encoding: .utf8)) ?? "")
            }
            return printed
        }
    }

    private static func file(_ url: URL) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw Failure(message: "cannot create \(url.path)")
        }
        return try FileHandle(forWritingTo: url)
    }

    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { "temporary-postgres failed: \(message)" }
    }
}
