import Foundation
import TestSupport

/// The DNS server of `Tests/support/fake_dns.py` on a free loopback UDP port: example.test's
/// records, and names that fail each way. It stops with `stop()`, or when the test process ends.
final class FakeDNSServer: Sendable {
    let port: Int
    /// Whether it answers on ::1 as well as 127.0.0.1.
    let hasIPv6: Bool
    private let script: SupportScript

    /// Starts the server and waits, blocking, for the line with its port.
    private init() throws {
        let script = try SupportScript("fake_dns.py")
        let words = script.firstLine.split(whereSeparator: \.isWhitespace)
        guard let first = words.first, let port = Int(first) else {
            script.stop()
            throw SupportScript.Failure(script: "fake_dns.py", printed: script.firstLine)
        }
        self.port = port
        hasIPv6 = words.dropFirst().first == "ipv6"
        self.script = script
    }

    /// `127.0.0.1:PORT`, as a dns source's `server`.
    var address: String { "127.0.0.1:\(port)" }

    func stop() {
        script.stop()
    }

    /// Runs `body` with a server of its own, stopped after, whether `body` returned or threw.
    static func with<T>(_ body: (FakeDNSServer) async throws -> T) async throws -> T {
        let server = try await offPool { try FakeDNSServer() }
        defer { server.stop() }
        return try await body(server)
    }
}
