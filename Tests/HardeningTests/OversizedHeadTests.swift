import DeckTestSupport
import Foundation
import MicroHTTP
@testable import StateDeckServer
import TestSupport
import Testing

/// A request past the transport's limits on targets and heads, and the refusal it must get.
struct OversizedRequest: Sendable, CustomTestStringConvertible {
    let name: String
    let status: Int
    let code: String
    /// The raw request for this `Host` value.
    let request: @Sendable (String) -> String

    var testDescription: String { "\(name) (\(status))" }

    static let limits = HTTPServer.Configuration()
    static let uriTooLong = (status: 414, code: "uri_too_long")
    static let headTooLarge = (status: 431, code: "header_fields_too_large")

    static let table: [OversizedRequest] = [
        OversizedRequest(name: "target one byte over", uriTooLong) { SizedRequest.target(length: limits.maxTargetSize + 1, host: $0) },
        OversizedRequest(name: "target as long as the connection's memory holds", uriTooLong) {
            SizedRequest.target(length: limits.connectionMemoryLimit - 3 * 1024, host: $0)
        },
        OversizedRequest(name: "head one byte over", headTooLarge) { SizedRequest.head(size: limits.maxHeadSize + 1, host: $0) },
        OversizedRequest(name: "header line as long as the connection's memory holds", headTooLarge) {
            "GET / HTTP/1.1\r\nHost: \($0)\r\nX-Big: \(String(repeating: "b", count: limits.connectionMemoryLimit - 3 * 1024))\r\n\r\n"
        },
        // Without the limit, the fast path would answer it with the file.
        OversizedRequest(name: "static file, head over", headTooLarge) {
            SizedRequest.head(size: limits.maxHeadSize + 1, host: $0, target: "/index.html")
        },
        OversizedRequest(name: "head over, with a body", headTooLarge) {
            SizedRequest.head(size: limits.maxHeadSize + 1024, host: $0, method: "POST", target: "/api/panels/a/retry",
                              fields: "Content-Length: 5\r\n")
                + "hello"
        },
        OversizedRequest(name: "target and head over: the target decides", uriTooLong) {
            SizedRequest.target(length: limits.maxTargetSize + 1, host: $0,
                                fields: "X-Big: \(String(repeating: "b", count: limits.maxHeadSize - limits.maxTargetSize + 1024))\r\n")
        },
    ]

    init(name: String, _ refusal: (status: Int, code: String), request: @escaping @Sendable (String) -> String) {
        self.name = name
        status = refusal.status
        code = refusal.code
        self.request = request
    }
}

extension Live {
    /// Requests past the limits on targets (8 KiB) and heads (24 KiB) get the JSON error shape
    /// with every security header, and lose their connection; past the connection's memory
    /// (32 KiB), libmicrohttpd answers itself.
    @Suite("Oversized request heads") struct OversizedHeadTests {
        @Test("A target or head past the limit gets the JSON refusal, every security header and Connection: close",
              arguments: OversizedRequest.table)
        func refusal(_ row: OversizedRequest) async throws {
            try await LiveDeckServer.run(Fixtures.instantDeck(), files: Fixtures.pageFiles) { harness in
                let raw = row.request(harness.hostHeader)
                let (response, closed) = try await offPool {
                    let connection = try HTTPTestConnection(port: harness.port)
                    defer { connection.close() }
                    try connection.send(raw)
                    return (try connection.readResponse(), connection.waitForClose(timeout: .seconds(2)))
                }
                #expect(response.status == row.status)
                #expect(response.header("Content-Type") == "application/json; charset=utf-8")
                let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
                let error = try #require(document["error"] as? [String: Any], "\(response.text)")
                #expect(Set(document.keys) == ["error"] && Set(error.keys) == ["code", "message"], "\(response.text)")
                #expect(error["code"] as? String == row.code)
                #expect((error["message"] as? String)?.isEmpty == false)
                for header in SecurityHeaders.all {
                    #expect(response.header(header.name) == header.value, "\(header.name)")
                }
                #expect(response.header("Connection") == "close")
                #expect(closed, "the connection stayed open")
                #expect(try await harness.get("/index.html").status == 200)
            }
        }

        @Test("Targets and heads at the limits are served")
        func atTheLimits() async throws {
            let limits = OversizedRequest.limits
            try await LiveDeckServer.run(Fixtures.instantDeck(), files: Fixtures.pageFiles) { harness in
                let host = harness.hostHeader
                let query = "/index.html?pad="
                let longQuery = query + String(repeating: "q", count: limits.maxTargetSize - query.utf8.count)
                let file = try await harness.raw("GET \(longQuery) HTTP/1.1\r\nHost: \(host)\r\n\r\n")
                #expect(file.status == 200)
                #expect(file.text == Fixtures.pageFiles["index.html"])
                let missing = try await harness.raw(SizedRequest.target(length: limits.maxTargetSize, host: host))
                #expect(missing.status == 404)
                #expect(missing.errorCode == "not_found")
                let largeHead = try await harness.raw(SizedRequest.head(size: limits.maxHeadSize, host: host, target: "/index.html"))
                #expect(largeHead.status == 200)
                #expect(largeHead.text == Fixtures.pageFiles["index.html"])
                let api = try await harness.raw(SizedRequest.head(size: limits.maxHeadSize, host: host, target: "/api/state"))
                #expect(api.status == 200)
            }
        }

        /// How one oversized exchange ended.
        enum Ending: Equatable {
            /// Our refusal, in the JSON error shape.
            case json(Int)
            /// libmicrohttpd's own page.
            case library(Int)
            /// Closed (or reset) without an answer read.
            case closed
            case timedOut
        }

        @Test("Past the connection's memory libmicrohttpd answers itself, and no size hangs", arguments: ["target", "head"])
        func pastTheConnectionMemory(kind: String) async throws {
            let memory = OversizedRequest.limits.connectionMemoryLimit
            // Dense where the JSON refusal gives way, then far past it.
            let sizes = Array(stride(from: memory - 3 * 1024, through: memory + 1024, by: 128)) + [200 * 1024, 1024 * 1024]
            try await LiveDeckServer.run(Fixtures.instantDeck(), files: Fixtures.pageFiles) { harness in
                let (host, port) = (harness.hostHeader, harness.port)
                var endings: [Int: Ending] = [:]
                for size in sizes {
                    let raw = kind == "target" ? SizedRequest.target(length: size - Self.targetlessHead - host.utf8.count, host: host)
                        : SizedRequest.head(size: size, host: host)
                    endings[size] = try await offPool { Self.exchange(raw, port: port) }
                }
                let expected = kind == "target" ? 414 : 431
                for size in sizes {
                    let ending = endings[size]!
                    // A head a KiB short of the memory leaves room to build the refusal in it.
                    if size <= memory - 1024 {
                        #expect(ending == .json(expected), "\(size) bytes: \(ending)")
                    } else {
                        // A head that just fits leaves no room for an answer; one that does not
                        // fit gets the library's page (a target whose Host line does not fit, 431).
                        #expect([.json(expected), .closed, .library(expected), .library(431)].contains(ending), "\(size) bytes: \(ending)")
                    }
                }
                #expect(sizes.filter { $0 > memory }.contains { [.library(expected), .library(431)].contains(endings[$0]) },
                        "no size past the memory reached libmicrohttpd's page: \(endings)")
                #expect(try await harness.get("/index.html").status == 200)
            }
        }

        /// The bytes of `SizedRequest.target`'s head besides its target and `Host` value.
        static let targetlessHead = "GET  HTTP/1.1\r\nHost: \r\n\r\n".utf8.count

        /// Sends `raw` (as much as the server takes) and tells how the exchange ended.
        static func exchange(_ raw: String, port: Int) -> Ending {
            guard let connection = try? HTTPTestConnection(port: port) else { return .closed }
            defer { connection.close() }
            try? connection.send(raw)
            do {
                let response = try connection.readResponse(timeout: .seconds(5))
                let json = response.header("Content-Type") == "application/json; charset=utf-8"
                return json ? .json(response.status) : .library(response.status)
            } catch TestClientError.timeout {
                return .timedOut
            } catch {
                return .closed
            }
        }
    }
}
