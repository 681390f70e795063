import Foundation
import MicroHTTP
import TestSupport
import Testing

extension Live {
    /// Sweeps past every limit of the transport: each refusal comes at the limit, never before,
    /// and the server goes on answering.
    @Suite("Transport limits") struct TransportLimitsTests {
        /// One limit on request heads: how to build a request of a size, what it gets within
        /// the limit, and the refusal past it.
        struct HeadLimit: Sendable, CustomTestStringConvertible {
            let name: String
            let limit: Int
            let request: @Sendable (_ size: Int, _ host: String) -> String
            let within: Int
            let refused: (status: Int, code: String)

            var testDescription: String { name }

            static let defaults = HTTPServer.Configuration()
            static let all = [
                HeadLimit(name: "request head", limit: defaults.maxHeadSize, request: { SizedRequest.head(size: $0, host: $1, target: "/hello") },
                          within: 200, refused: (431, "header_fields_too_large")),
                HeadLimit(name: "request target", limit: defaults.maxTargetSize, request: { SizedRequest.target(length: $0, host: $1) },
                          within: 404, refused: (414, "uri_too_long")),
            ]
        }

        @Test("Up to the limit a request is answered, one byte more is refused in the JSON error shape",
              arguments: HeadLimit.all)
        func headSweep(_ row: HeadLimit) async throws {
            // From far below the limit to as far past it as the connection's memory holds, densest
            // around it.
            let memory = HTTPServer.Configuration().connectionMemoryLimit
            let sizes = [1024, row.limit / 2, row.limit - 1, row.limit, row.limit + 1, row.limit + 1024, memory - 2048]
            try await TransportHarness.run { harness in
                let port = harness.port
                for size in sizes {
                    let request = row.request(size, "127.0.0.1:\(port)")
                    let response = try await offPool { try HTTPTestClient.send(request, port: port) }
                    if size <= row.limit {
                        #expect(response.status == row.within, "\(size) bytes")
                    } else {
                        #expect(response.status == row.refused.status, "\(size) bytes")
                        #expect(response.errorCode == row.refused.code, "\(size) bytes")
                    }
                }
                #expect(try await harness.hello() == 200)
            }
        }

        @Test("Limits set lower are kept to the byte")
        func configuredLimits() async throws {
            try await TransportHarness.run({
                $0.maxTargetSize = 100
                $0.maxHeadSize = 1000
            }) { harness in
                let host = "127.0.0.1:\(harness.port)"
                let requests = [
                    SizedRequest.target(length: 100, host: host), SizedRequest.target(length: 101, host: host),
                    SizedRequest.head(size: 1000, host: host, target: "/hello"), SizedRequest.head(size: 1001, host: host, target: "/hello"),
                ]
                var statuses: [Int?] = []
                for request in requests {
                    statuses.append(try await harness.exchange(request).status)
                }
                #expect(statuses == [404, 414, 200, 431])
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
