import DeckTestSupport
import Foundation
import MicroHTTP
import TestSupport
import Testing

extension Live {
    /// Targets that are not a path, and bodies framed two ways, are refused
    /// before they reach a responder, and the connection is closed.
    @Suite("Request framing") struct RequestFramingTests {
        @Test("A target that is neither a path nor an absolute http URL is 400 and ends the connection", arguments: [
            "OPTIONS * HTTP/1.1",
            "GET ftp://127.0.0.1/hello HTTP/1.1",
            "GET http://user@127.0.0.1/hello HTTP/1.1",
            "GET hello HTTP/1.1",
            "GET ?x=1 HTTP/1.1",
            "CONNECT 127.0.0.1:443 HTTP/1.1",
        ])
        func nonOriginForm(requestLine: String) async throws {
            try await TransportHarness.run { harness in
                let (status, code, closed) = try await Self.exchangeKeepingOpen(
                    "\(requestLine)\r\n\(harness.hostLine)\r\n", port: harness.port)
                #expect(status == 400)
                #expect(code == "bad_request")
                #expect(closed, "the connection stayed open after a bad target")
                #expect(harness.requests.count == 0)
            }
        }

        @Test("Content-Length with Transfer-Encoding is 400, and the body never runs as a request", arguments: [
            "Content-Length: 24\r\nTransfer-Encoding: chunked\r\n",
            "Transfer-Encoding: chunked\r\nContent-Length: 24\r\n",
            "Content-Length: 0\r\nTransfer-Encoding: chunked\r\n",
            "transfer-encoding: CHUNKED\r\ncontent-length: 5\r\n",
        ])
        func lengthAndTransferEncoding(framing: String) async throws {
            try await TransportHarness.run { harness in
                // Whoever reads the body by Content-Length sees a second request in it.
                let smuggled = "0\r\n\r\nGET /hello HTTP/1.1\r\n\(harness.hostLine)\r\n"
                let (status, code, closed) = try await Self.exchangeKeepingOpen(
                    "POST /echo HTTP/1.1\r\n\(harness.hostLine)\(framing)\r\n\(smuggled)", port: harness.port)
                #expect(status == 400)
                #expect(code == "bad_request")
                #expect(closed, "the connection stayed open after an ambiguous body")
                #expect(harness.requests.count == 0, "a request reached the responder")
            }
        }

        @Test("A transfer coding other than chunked is 400", arguments: ["gzip", "gzip, chunked", "chunked, gzip", "identity", "chunked\r\nTransfer-Encoding: chunked"])
        func otherTransferCodings(coding: String) async throws {
            try await TransportHarness.run { harness in
                let (status, _, closed) = try await Self.exchangeKeepingOpen(
                    "POST /echo HTTP/1.1\r\n\(harness.hostLine)Transfer-Encoding: \(coding)\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                    port: harness.port)
                #expect(status == 400)
                #expect(closed)
                #expect(harness.requests.count == 0)
            }
        }

        @Test("Two different Content-Lengths are 400; the same one twice is read")
        func repeatedContentLength() async throws {
            try await TransportHarness.run { harness in
                let conflicting = "POST /echo HTTP/1.1\r\n\(harness.hostLine)Content-Length: 3\r\nContent-Length: 5\r\n\r\nhello"
                let refused = try await harness.exchange(conflicting)
                #expect(refused.status == 400)
                #expect(harness.requests.count == 0)
                let repeated = "POST /echo HTTP/1.1\r\n\(harness.hostLine)Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello"
                let read = try await harness.exchange(repeated)
                #expect(read.status == 200)
            }
        }

        @Test("A chunked body alone, and a Content-Length alone, are read")
        func plainFramingsAreRead() async throws {
            try await TransportHarness.run { harness in
                let port = harness.port
                let answers = try await offPool {
                    let connection = try HTTPTestConnection(port: port)
                    defer { connection.close() }
                    try connection.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
                    let chunked = try connection.readResponse()
                    try connection.send("POST", "/echo", body: Array("hello!".utf8))
                    let length = try connection.readResponse()
                    return [chunked.text, length.text]
                }
                #expect(answers == ["5", "6"])
            }
        }

        @Test("Standard headers are on every answer, the server's own refusals included")
        func standardHeadersEverywhere() async throws {
            try await TransportHarness.run({
                $0.maxBodySize = 10
                $0.standardHeaders.add("X-Standard", "yes")
                $0.standardHeaders.add("Content-Type", "text/plain")
            }) { harness in
                let host = harness.hostLine
                let requests = [
                    "GET /nothing HTTP/1.1\r\n\(host)\r\n",  // the responder's 404
                    "GET * HTTP/1.1\r\n\(host)\r\n",  // bad target
                    "GET /%zz HTTP/1.1\r\n\(host)\r\n",  // bad escape
                    "POST /echo HTTP/1.1\r\n\(host)Content-Length: 11\r\n\r\nhello world",  // 413 at once
                    "POST /echo HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\nb\r\nhello world\r\n0\r\n\r\n",  // 413 after
                    "POST /echo HTTP/1.1\r\n\(host)Content-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",  // framing
                    "GET /hello HTTP/1.1\r\n\(host)\r\n",  // 200 without a type of its own
                ]
                let port = harness.port
                let heads = try await offPool {
                    try requests.map { raw -> (Int, String?, String?) in
                        let response = try HTTPTestClient.send(raw, port: port)
                        return (response.status, response.header("X-Standard"), response.header("Content-Type"))
                    }
                }
                #expect(heads.map(\.0) == [404, 400, 400, 413, 413, 400, 200])
                #expect(heads.allSatisfy { $0.1 == "yes" }, "\(heads)")
                // An answer's own header wins over the standard one.
                #expect(heads.dropLast().allSatisfy { $0.2 == "application/json; charset=utf-8" }, "\(heads)")
                #expect(heads.last?.2 == "text/plain")
            }
        }

        /// Sends `raw` without ending the sending side; the status, the JSON error code, and
        /// whether the server then closed the connection by itself.
        static func exchangeKeepingOpen(_ raw: String, port: Int) async throws -> (Int, String?, Bool) {
            try await offPool {
                let connection = try HTTPTestConnection(port: port)
                defer { connection.close() }
                try connection.send(raw)
                let response = try connection.readResponse()
                return (response.status, response.errorCode, connection.waitForClose(timeout: .seconds(2)))
            }
        }
    }
}
