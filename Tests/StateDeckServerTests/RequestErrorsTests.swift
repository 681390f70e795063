import TestSupport
import Testing

extension Routed {
    /// Bodies that are malformed or of the wrong type, and routes that do not exist: each answered
    /// in PROTOCOL.md's JSON error shape, asked of the responder (RequestBodyLimitTests has bodies
    /// too large, which the transport refuses).
    @Suite struct RequestErrorsTests {
        @Test(arguments: [
            ("{\"option\":", "malformed JSON"),
            ("not json", "malformed JSON"),
            ("{\"option\":\"try-again\"", "malformed JSON"),
            ("", "JSON body"),
        ])
        func malformedJSONIs400NamingTheProblem(body: String, problem: String) async throws {
            try await RoutedServer.run { server in
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
            try await RoutedServer.run { server in
                let response = try await server.post("/api/panels/api/recover", json: body)
                #expect(response.status == 400)
                #expect(response.apiError?.code == "bad_request")
                #expect(response.apiError?.message.contains(field) == true, "\(response.text)")
            }
        }

        @Test func bodyThatIsNotAnObjectIs400SayingSo() async throws {
            try await RoutedServer.run { server in
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
            try await RoutedServer.run { server in
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
            try await RoutedServer.run { server in
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
