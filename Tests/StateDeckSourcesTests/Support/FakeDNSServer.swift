import Foundation
import TestSupport

/// The DNS server of `Tests/support/fake_dns.py` on a free loopback UDP port: example.test's
/// records, and names that fail each way. It stops with `stop()`, or when the test process ends
/// (it exits when its standard input closes).
final class FakeDNSServer: @unchecked Sendable {
    let port: Int
    /// Whether it answers on ::1 as well as 127.0.0.1.
    let hasIPv6: Bool
    private let process: Process
    private let input: Pipe

    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("support/fake_dns.py")

    /// Starts the server and waits, blocking, for the line with its port.
    private init() throws {
        let process = Process(), input = Pipe(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            guard !more.isEmpty else { break }
            printed.append(more)
        }
        let words = String(decoding: printed, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard let first = words.first, let port = Int(first) else {
            process.terminate()
            throw Failure(printed: String(decoding: printed, as: UTF8.self))
        }
        self.port = port
        hasIPv6 = words.dropFirst().first == "ipv6"
        self.process = process
        self.input = input
    }

    /// `127.0.0.1:PORT`, as a dns source's `server`.
    var address: String { "127.0.0.1:\(port)" }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
    }

    /// Runs `body` with a server of its own, stopped after, whether `body` returned or threw.
    static func with<T>(_ body: (FakeDNSServer) async throws -> T) async throws -> T {
        let server = try await offPool { try FakeDNSServer() }
        defer { server.stop() }
        return try await body(server)
    }

    struct Failure: Error, CustomStringConvertible {
        let printed: String
        var description: String { "fake_dns.py did not print its port: \(printed)" }
    }
}
