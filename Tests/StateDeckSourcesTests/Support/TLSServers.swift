import Foundation
import TestSupport
import Testing

/// The HTTPS servers of `Tests/support/tls_servers.py` on free loopback ports, one per kind of
/// certificate (trusted, expiring, expired, other, self; plain has no TLS), with the test CA that signs them in a
/// temporary folder. They stop with `stop()`, or when the test process ends.
final class TLSServers: @unchecked Sendable {
    /// The test CA's PEM file, trusted instead of the system's roots.
    let trustedRoots: String
    private let ports: [String: Int]
    /// Kept for its certificates; never touched after `init`.
    private let folder: TemporaryFolder
    private let script: SupportScript

    /// Makes the certificates, starts the servers and waits, blocking, for the line with their ports.
    private init() throws {
        let folder = try TemporaryFolder()
        let script = try SupportScript("tls_servers.py", arguments: [folder.path])
        struct Line: Decodable { let ca: String; let ports: [String: Int] }
        guard let line = try? JSONDecoder().decode(Line.self, from: Data(script.firstLine.utf8)) else {
            script.stop()
            throw SupportScript.Failure(script: "tls_servers.py", printed: script.firstLine)
        }
        trustedRoots = line.ca
        ports = line.ports
        self.folder = folder
        self.script = script
    }

    /// The port of the server whose certificate is `name`'s.
    func port(_ name: String) throws -> Int {
        try #require(ports[name], "no server \(name)")
    }

    func stop() {
        script.stop()
    }

    /// Runs `body` with servers of its own, stopped after, whether `body` returned or threw.
    static func with<T>(_ body: (TLSServers) async throws -> T) async throws -> T {
        let servers = try await offPool { try TLSServers() }
        defer { servers.stop() }
        return try await body(servers)
    }
}
