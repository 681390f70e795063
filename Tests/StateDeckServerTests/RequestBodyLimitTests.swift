import TestSupport
import Testing

extension Live {
    /// Bodies past the transport's 64 KiB, whole, announced or chunked: refused in PROTOCOL.md's
    /// JSON error shape before they reach a route; and one of exactly 64 KiB read.
    @Suite struct RequestBodyLimitTests {
        @Test func bodyOver64KiBIs413() async throws {
            try await LiveServer.run { server in
                let json = "{\"option\":\"" + String(repeating: "x", count: 64 * 1024) + "\"}"
                let response = try await server.post("/api/panels/api/recover", json: json)
                #expect(response.status == 413)
                #expect(response.apiError?.code == "payload_too_large")
                // The body was refused before it reached the deck.
                #expect(try await server.panel("api").phase == .loaded)
            }
        }

        @Test func bodyOfExactly64KiBIsRead() async throws {
            try await LiveServer.run { server in
                let prefix = "{\"option\":\""
                let json = prefix + String(repeating: "x", count: 64 * 1024 - prefix.count - 2) + "\"}"
                #expect(json.utf8.count == 64 * 1024)
                let response = try await server.post("/api/panels/api/recover", json: json)
                // Decoded, then refused by the deck: the panel shows no error card.
                #expect(response.status == 409)
                #expect(response.apiError?.code == "conflict")
            }
        }

        @Test func bodyAnnouncedOver64KiBIsRefusedBeforeItIsSent() async throws {
            try await LiveServer.run { server in
                let port = server.port
                let response = try await offPool {
                    let connection = try HTTPTestConnection(port: port)
                    defer { connection.close() }
                    // No body follows: the answer must come from the headers alone.
                    try connection.send("POST", "/api/panels/api/recover", headers: [
                        ("Content-Type", "application/json"), ("Content-Length", "70000"),
                        ("Expect", "100-continue"),
                    ])
                    return try connection.readResponse()
                }
                #expect(response.status == 413)
                #expect(response.apiError?.code == "payload_too_large")
            }
        }

        @Test func chunkedBodyIsReadAndOneGrowingPast64KiBIs413() async throws {
            try await LiveServer.run { server in
                func chunked(_ body: String) -> String {
                    var raw = "POST /api/panels/api/recover HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
                        + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                    var rest = Substring(body)
                    while !rest.isEmpty {
                        let chunk = rest.prefix(8 * 1024)
                        rest = rest.dropFirst(chunk.count)
                        raw += String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n"
                    }
                    return raw + "0\r\n\r\n"
                }
                // Read and decoded: refused by the deck only because the panel shows no error.
                let small = try await server.raw(chunked(#"{"option":"try-again"}"#))
                #expect(small.status == 409)
                #expect(small.apiError?.code == "conflict")

                let large = try await server.raw(chunked("{\"option\":\"" + String(repeating: "x", count: 70 * 1024) + "\"}"))
                #expect(large.status == 413)
                #expect(large.apiError?.code == "payload_too_large")
            }
        }
    }
}
