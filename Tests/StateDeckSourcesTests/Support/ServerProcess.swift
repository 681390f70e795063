import Foundation
import TestSupport

/// A server a test runs as its own child process (`mariadbd`, `redis-server`), its output in a
/// log file of its folder, ended by `stop()`; and the setup commands run before it.
final class ServerProcess: @unchecked Sendable {
    private let process = Process()

    /// Starts `program` with `arguments`, its output to `log`.
    init(_ program: String, _ arguments: [String], log: URL) throws {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = process.standardOutput
        try process.run()
    }

    /// Ends the server (SIGKILL: its data is the test's to throw away) and waits for it.
    func stop() async {
        kill(process.processIdentifier, SIGKILL)
        try? await offPool { self.process.waitUntilExit() }
    }

    /// Runs a setup command to its end and returns its output, kept in a file (a server it starts
    /// would hold a pipe open); throws with that output when it fails.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) async throws -> String {
        try await offPool {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("setup-\(UUID().uuidString).log")
            defer { try? FileManager.default.removeItem(at: output) }
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = process.standardOutput
            try process.run()
            process.waitUntilExit()
            let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            guard process.terminationStatus == 0 else {
                throw Failure(message: "\(program) \(arguments.joined(separator: " ")): \(printed)")
            }
            return printed
        }
    }

    /// Waits until something accepts connections at `port` on 127.0.0.1.
    static func waitForListener(on port: Int) async throws {
        let listening = await eventually {
            guard let socket = try? TestSocket(port: port) else { return false }
            socket.close()
            return true
        }
        guard listening else { throw Failure(message: "nothing listens on port \(port)") }
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
