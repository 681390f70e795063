import Foundation
import MicroHTTP
import TestSupport
import Testing

extension Live {
    /// Sweeps past every limit of the transport: each refusal comes at the limit, never before,
    /// and the server goes on answering.
    @Suite("Transport limits") struct TransportLimitsTests {
        /// The default connection memory, which bounds request heads.
        static let limit = HTTPServer.Configuration().connectionMemoryLimit
        /// Sizes from far below the limit to far past it, densest around it.
        static let sweep = [1, 2, 4, 8].map { $0 * 1024 }
            + [0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.5, 2, 4, 8].map { Int(Double(limit) * $0) }

        @Test("Request heads past the connection memory are 431, smaller ones are served")
        func headerSizeSweep() async throws {
            try await TransportHarness.run { harness in
                let sizes = Self.sweep
                var statuses: [Int: Int] = [:]
                for size in sizes {
                    let request = "GET /hello HTTP/1.1\r\n\(harness.hostLine)X-Filler: \(String(repeating: "a", count: size))\r\n\r\n"
                    statuses[size] = try await harness.exchange(request).status ?? -1
                }
                let ordered = sizes.map { statuses[$0]! }
                #expect(Set(ordered).isSubset(of: [200, 431]), "\(statuses)")
                // One boundary: everything below it served, everything past it refused.
                let firstRefused = try #require(ordered.firstIndex(of: 431), "\(statuses)")
                #expect(ordered[firstRefused...].allSatisfy { $0 == 431 }, "\(statuses)")
                #expect(sizes[firstRefused] > 8 * 1024 && sizes[firstRefused] <= Self.limit, "\(statuses)")
                #expect(try await harness.hello() == 200)
            }
        }

        @Test("Request targets past the connection memory are 414, shorter ones are routed")
        func targetLengthSweep() async throws {
            try await TransportHarness.run { harness in
                let lengths = Self.sweep
                var statuses: [Int: Int] = [:]
                for length in lengths {
                    let request = "GET /\(String(repeating: "a", count: length)) HTTP/1.1\r\n\(harness.hostLine)\r\n"
                    statuses[length] = try await harness.exchange(request).status ?? -1
                }
                let ordered = lengths.map { statuses[$0]! }
                // At the very edge the request line fits and the Host line does not: 431.
                #expect(Set(ordered).isSubset(of: [404, 414, 431]), "\(statuses)")
                let firstRefused = try #require(ordered.firstIndex { $0 != 404 }, "\(statuses)")
                #expect(ordered[firstRefused...].allSatisfy { $0 != 404 }, "\(statuses)")
                #expect(lengths[firstRefused] > 8 * 1024 && lengths[firstRefused] <= Self.limit, "\(statuses)")
                #expect(ordered.last == 414)
                #expect(try await harness.hello() == 200)
            }
        }

        @Test("Bodies up to the limit are read, one byte more is 413, by length or chunked")
        func bodySizeSweep() async throws {
            try await TransportHarness.run({ $0.maxBodySize = 1000 }) { harness in
                for size in [0, 1, 999, 1000, 1001, 4096, 65536, 5_000_000] {
                    let body = [UInt8](repeating: UInt8(ascii: "x"), count: size)
                    let byLength = Array("POST /echo HTTP/1.1\r\n\(harness.hostLine)Content-Length: \(size)\r\n\r\n".utf8) + body
                    let expected = size <= 1000 ? 200 : 413
                    let lengthOutcome = try await harness.exchange(byLength)
                    #expect(lengthOutcome.status == expected, "Content-Length \(size): \(lengthOutcome)")

                    var chunked = Array("POST /echo HTTP/1.1\r\n\(harness.hostLine)Transfer-Encoding: chunked\r\n\r\n".utf8)
                    for start in stride(from: 0, to: size, by: 4096) {
                        let count = min(4096, size - start)
                        chunked += Array("\(String(count, radix: 16))\r\n".utf8) + body[start..<(start + count)] + [13, 10]
                    }
                    chunked += Array("0\r\n\r\n".utf8)
                    let chunkedOutcome = try await harness.exchange(chunked)
                    // Past the discard allowance (1 MiB) the client is dropped unanswered.
                    let dropped = size > 1000 + 1024 * 1024 && chunkedOutcome == .closed
                    #expect(chunkedOutcome.status == expected || dropped, "chunked \(size): \(chunkedOutcome)")
                }
                #expect(try await harness.hello() == 200)
            }
        }

        @Test("At the connection limit a new connection waits unserved, and gets in once one is freed")
        func connectionLimit() async throws {
            try await TransportHarness.run({ $0.connectionLimit = 4 }) { harness in
                let port = harness.port
                try await offPool {
                    let held = try (0..<4).map { _ in try HTTPTestConnection(port: port) }
                    for connection in held {
                        try connection.send("GET", "/hello")
                        #expect(try connection.readResponse().status == 200)
                    }
                    let waiting = try HTTPTestConnection(port: port)
                    try waiting.send("GET", "/hello")
                    #expect(throws: TestClientError.timeout) { try waiting.readResponse(timeout: .milliseconds(700)) }
                    // The connections already in keep working.
                    for connection in held {
                        try connection.send("GET", "/hello")
                        #expect(try connection.readResponse().status == 200)
                    }
                    held[0].close()
                    #expect(try waiting.readResponse(timeout: .seconds(3)).status == 200)
                    held.dropFirst().forEach { $0.close() }
                    waiting.close()
                }
                #expect(try await harness.hello() == 200)
            }
        }

        @Test("Past the per-address limit a connection is closed at once, and others are served")
        func perAddressLimit() async throws {
            try await TransportHarness.run({ $0.perIPConnectionLimit = 2 }) { harness in
                let port = harness.port
                try await offPool {
                    let held = try (0..<2).map { _ in try HTTPTestConnection(port: port) }
                    for connection in held {
                        try connection.send("GET", "/hello")
                        #expect(try connection.readResponse().status == 200)
                    }
                    let third = try TestSocket(port: port)
                    try? third.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
                    #expect(third.readOutcome(timeout: .seconds(2)) == .closed)
                    held.forEach { $0.close() }
                }
                #expect(await eventually { (try? await harness.hello()) == 200 })
            }
        }

        @Test("A client dripping its request head a byte at a time is cut off at the timeout")
        func slowDripHead() async throws {
            try await TransportHarness.run({
                $0.connectionTimeout = .seconds(1)
                $0.connectionLimit = 2
            }) { harness in
                let port = harness.port
                let drip = Task {
                    try await offPool { Self.drip(port: port, head: "GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Drip: ") }
                }
                // Meanwhile the other slot serves.
                #expect(try await harness.hello() == 200)
                let heldFor = try await drip.value
                #expect(heldFor < .milliseconds(2500), "the dripping client held its connection for \(heldFor)")
            }
        }

        @Test("A client dripping its body a byte at a time is cut off at the timeout")
        func slowDripBody() async throws {
            try await TransportHarness.run({ $0.connectionTimeout = .seconds(1) }) { harness in
                let port = harness.port
                let heldFor = try await offPool {
                    Self.drip(port: port, head: "POST /echo HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 1000\r\n\r\n")
                }
                #expect(heldFor < .milliseconds(2500), "the dripping client held its connection for \(heldFor)")
                #expect(try await harness.hello() == 200)
            }
        }

        @Test("A dripping client on a keep-alive connection is cut off too, once its first request is answered")
        func slowDripSecondRequest() async throws {
            try await TransportHarness.run({ $0.connectionTimeout = .seconds(1) }) { harness in
                let port = harness.port
                let heldFor = try await offPool {
                    let first = "GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
                    return Self.drip(port: port, head: first + "GET /hello HTTP/1.1\r\nX-Drip: ")
                }
                #expect(heldFor < .milliseconds(2500), "the dripping client held its connection for \(heldFor)")
            }
        }

        /// Sends `head`, then one byte every 200 ms for up to 6 s; how long the server let it.
        static func drip(port: Int, head: String) -> Duration {
            let started = ContinuousClock.now
            guard let client = try? TestSocket(port: port) else { return .zero }
            defer { client.close() }
            try? client.send(head)
            while ContinuousClock.now - started < .seconds(6) {
                if client.waitForClose(timeout: .milliseconds(200)) {
                    return ContinuousClock.now - started
                }
                guard (try? client.send("a")) != nil else { return ContinuousClock.now - started }
            }
            return ContinuousClock.now - started
        }
    }
}
