import TestSupport
import Testing

extension Live {
    /// Bodies that are too large, malformed or of the wrong type, and routes that do not exist:
    /// each answered in PROTOCOL.md's JSON error shape.
    @Suite struct RequestErrorsTests {
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

        @Test(arguments: [
            ("{\"option\":", "malformed JSON"),
            ("not json", "malformed JSON"),
            ("{\"option\":\"try-again\"", "malformed JSON"),
            ("", "JSON body"),
        ])
        func malformedJSONIs400NamingTheProblem(body: String, problem: String) async throws {
            try await LiveServer.run { server in
                let response = try await server.post("/api/panels/api/recover", json: body)
                #expect(response.status == 400)
                #expect(response.apiError?.code == "bad_request")
                #expect(response.apiError?.message.contains(problem) == true, "\(response.text)")
            }
        }

        @Test(arguments: [
            ("{\"option\": 3}", "'option'"),
            ("{\"option\": null}", "'option'"),
            ("{\"option\": [\"try-again\"]}", "'option'"),
            ("{}", "'option'"),
            ("{\"option\": \"cancel\", \"option\": \"try-again\"}", "field 'option' is given twice"),
        ])
        func wrongTypesAre400NamingTheField(body: String, field: String) async throws {
            try await LiveServer.run { server in
                let response = try await server.post("/api/panels/api/recover", json: body)
                #expect(response.status == 400)
                #expect(response.apiError?.code == "bad_request")
                #expect(response.apiError?.message.contains(field) == true, "\(response.text)")
            }
        }

        @Test func bodyThatIsNotAnObjectIs400SayingSo() async throws {
            try await LiveServer.run { server in
                for body in [#"["try-again"]"#, #""try-again""#, "null", "3"] {
                    let response = try await server.post("/api/panels/api/recover", json: body)
                    #expect(response.status == 400, "\(body)")
                    #expect(response.apiError?.code == "bad_request", "\(body)")
                    #expect(response.apiError?.message.contains("object") == true, "\(body)")
                    #expect(response.apiError?.message.contains("''") == false, "\(body): \(response.text)")
                }
            }
        }

        @Test func unknownRoutesAre404() async throws {
            try await LiveServer.run { server in
                for (method, path) in [
                    ("GET", "/api/nothing"), ("POST", "/api/nothing"), ("GET", "/api/panels"),
                    ("POST", "/api/panels/api/reload"), ("GET", "/api/panels/api/timeline"),
                    ("POST", "/api/debug/panels/api"), ("GET", "/event"),
                ] {
                    let response = try await server.request(method, path)
                    #expect(response.status == 404, "\(method) \(path)")
                    #expect(response.apiError?.code == "not_found", "\(method) \(path)")
                }
            }
        }

        @Test func wrongMethodOnARouteIs405WithAllow() async throws {
            try await LiveServer.run { server in
                let get = try await server.get("/api/panels/api/retry")
                #expect(get.status == 405)
                #expect(get.header("Allow") == "POST")
                #expect(get.apiError?.code == "method_not_allowed")

                let post = try await server.post("/api/state", json: "{}")
                #expect(post.status == 405)
                #expect(post.header("Allow") == "GET, HEAD")
                #expect(post.apiError?.code == "method_not_allowed")
            }
        }
    }
}
