import Foundation
import TestSupport
import Testing

/// The servers of a `Tests/support/` script that needs Python packages (smtp_servers.py,
/// websocket_servers.py, grpc_servers.py) on free loopback ports, run by `<repo>/.venv`'s Python,
/// with the certificates of tls_servers.py and their test CA in a temporary folder. The script
/// prints `{"ca": ..., "ports": {name: port}}` first. They stop with `stop()`, or when the test
/// process ends.
final class ScriptServers: @unchecked Sendable {
    /// The test CA's PEM file, trusted instead of the system's roots.
    let trustedRoots: String
    private let ports: [String: Int]
    /// Kept for its certificates; never touched after `init`.
    private let folder: TemporaryFolder
    private let script: SupportScript

    /// Makes the virtual environment if needed, then starts `name` and waits, blocking, for the
    /// line with its ports.
    private init(_ name: String) throws {
        try Self.environment.get()
        let folder = try TemporaryFolder()
        let script = try SupportScript(name, arguments: [folder.path], python: SupportScript.venvPython)
        struct Line: Decodable { let ca: String; let ports: [String: Int] }
        guard let line = try? JSONDecoder().decode(Line.self, from: Data(script.firstLine.utf8)) else {
            script.stop()
            throw SupportScript.Failure(script: name, printed: script.firstLine)
        }
        trustedRoots = line.ca
        ports = line.ports
        self.folder = folder
        self.script = script
    }

    /// `Tests/support/venv.sh` run once per test process: `<repo>/.venv` with the packages of
    /// `Tests/support/requirements.txt`, installed only when that file changed.
    private static let environment = Result<Void, any Error> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SupportScript.folder.appendingPathComponent("venv.sh").path)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SupportScript.Failure(script: "venv.sh", printed: "exit \(process.terminationStatus)") }
    }

    /// The port of the server `name`.
    func port(_ name: String) throws -> Int {
        try #require(ports[name], "no server \(name)")
    }

    func stop() {
        script.stop()
    }

    /// Runs `body` with the servers of `script`, stopped after, whether `body` returned or threw.
    static func with<T>(_ script: String, _ body: (ScriptServers) async throws -> T) async throws -> T {
        let servers = try await offPool { try ScriptServers(script) }
        defer { servers.stop() }
        return try await body(servers)
    }
}
