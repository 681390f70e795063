import Foundation
import MicroHTTP
import TestSupport
import Testing

/// Answers with the request's decoded parts as JSON.
let echo = CallbackResponder { request in
    let document: [String: Any] = [
        "method": request.method.rawValue, "target": request.target, "segments": request.pathSegments,
        "body": request.body.count,
    ]
    return .response(.json(.ok, Array(try! JSONSerialization.data(withJSONObject: document))))
}

func json(_ response: HTTPTestResponse) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]) ?? [:]
}

extension Live {
    @Suite struct ServerTests {
        private var router: Router {
            var router = Router()
            router.on(.get, "/api/state") { _, _ in .response(.json(.ok, Array(#"{"panels":[]}"#.utf8))) }
            return router
        }

        @Test func routerErrorsOverTheWire() throws {
            try withServer(responder: router) { _, port in
                let missing = try HTTPTestClient.request("GET", "/nope", port: port)
                #expect(missing.status == 404)
                #expect(missing.header("Content-Type") == "application/json; charset=utf-8")
                #expect(missing.errorCode == "not_found")
                let wrong = try HTTPTestClient.request("DELETE", "/api/state", port: port)
                #expect(wrong.status == 405)
                #expect(wrong.header("Allow") == "GET, HEAD")
                #expect(wrong.errorCode == "method_not_allowed")
            }
        }

        @Test func headCarriesContentLengthButNoBody() throws {
            try withServer(responder: router) { _, port in
                let connection = try HTTPTestConnection(port: port)
                try connection.send("HEAD", "/api/state")
                let head = try connection.readResponse(bodyless: true)
                #expect(head.status == 200)
                #expect(head.header("Content-Length") == "13")
                // Had a body been sent, it would be read here as the next status line.
                try connection.send("GET", "/api/state")
                #expect(try connection.readResponse().text == #"{"panels":[]}"#)
            }
        }

        @Test func sharedBytesAreSentWithEachAnswersOwnStatusAndHeaders() throws {
            let logo = SharedBytes(Array("shared body".utf8))
            let responder = CallbackResponder { request in
                let flavour = request.pathSegments.last ?? ""
                let status: HTTPStatus = flavour == "gone" ? .notFound : .ok
                return .response(HTTPResponse(status: status, headers: ["X-Flavour": flavour], body: .shared(logo)))
            }
            try withServer(responder: responder) { _, port in
                let connection = try HTTPTestConnection(port: port)
                // The first answer's response is kept and sent again; the others differ in a
                // header or the status and must not get it.
                for flavour in ["plain", "plain", "salted", "gone", "plain"] {
                    try connection.send("GET", "/logo/\(flavour)")
                    let response = try connection.readResponse()
                    #expect(response.status == (flavour == "gone" ? 404 : 200))
                    #expect(response.header("X-Flavour") == flavour)
                    #expect(response.text == "shared body")
                }
            }
        }

        @Test func keepAliveServesTwoRequestsOnOneConnection() throws {
            try withServer(responder: echo) { _, port in
                let connection = try HTTPTestConnection(port: port)
                for path in ["/one", "/two"] {
                    try connection.send("GET", path)
                    let response = try connection.readResponse()
                    #expect(response.status == 200)
                    #expect(response.header("Connection")?.lowercased() != "close")
                    #expect(json(response)["segments"] as? [String] == [String(path.dropFirst())])
                }
            }
        }

        @Test func bodyWithinTheLimitArrives() throws {
            try withServer(responder: echo) { _, port in
                let response = try HTTPTestClient.request("POST", "/up", port: port, body: Array(repeating: 7, count: 64 * 1024))
                #expect(response.status == 200)
                #expect(json(response)["body"] as? Int == 64 * 1024)
            }
        }

        @Test func contentLengthOverTheLimitIsRefusedUnread() throws {
            try withServer(responder: echo) { _, port in
                let connection = try HTTPTestConnection(port: port)
                // No body is sent: the answer must not wait for it.
                try connection.send("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 65537\r\n\r\n")
                let response = try connection.readResponse()
                #expect(response.status == 413)
                #expect(response.errorCode == "payload_too_large")
            }
        }

        @Test func chunkedBodyGrowingPastTheLimitIsRefused() throws {
            try withServer(responder: echo) { _, port in
                let connection = try HTTPTestConnection(port: port)
                try connection.send("POST /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
                let chunk = "4000\r\n" + String(repeating: "a", count: 0x4000) + "\r\n"
                try connection.send(String(repeating: chunk, count: 5) + "0\r\n\r\n")
                let response = try connection.readResponse()
                #expect(response.status == 413)
                #expect(response.errorCode == "payload_too_large")
            }
        }

        @Test(arguments: [
            "GET /a%zz HTTP/1.1", "GET /%ff HTTP/1.1", "GET /q?x=%4 HTTP/1.1",
            "OPTIONS * HTTP/1.1", "GET ftp://x/a HTTP/1.1",
        ])
        func badTargetsAre400BeforeRouting(requestLine: String) throws {
            try withServer(responder: echo) { _, port in
                let response = try HTTPTestClient.send("\(requestLine)\r\nHost: x\r\n\r\n", port: port)
                #expect(response.status == 400)
                #expect(response.errorCode == "bad_request")
            }
        }

        @Test func targetBytesThatAreNotUTF8Are400() throws {
            try withServer(responder: echo) { _, port in
                let connection = try HTTPTestConnection(port: port)
                try connection.send(Array("GET /a".utf8) + [0xFF, 0xC3] + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
                let response = try connection.readResponse()
                #expect(response.status == 400)
                #expect(response.errorCode == "bad_request")
                #expect((json(response)["error"] as? [String: Any])?["message"] as? String == "the request target does not decode to UTF-8")
            }
        }

        @Test func rawPathIsDecodedOnceBySegment() throws {
            try withServer(responder: echo) { _, port in
                let response = try HTTPTestClient.request("GET", "/files/%2e%2e/a%2Fb/%252e/%00x?k=v", port: port)
                #expect(json(response)["segments"] as? [String] == ["files", "..", "a/b", "%2e", "\u{0}x"])
                #expect(json(response)["target"] as? String == "/files/%2e%2e/a%2Fb/%252e/%00x?k=v")
            }
        }

        @Test func oversizedHeadIs431() throws {
            try withServer(responder: echo) { _, port in
                let response = try HTTPTestClient.request(
                    "GET", "/", port: port, headers: [("X-Big", String(repeating: "b", count: 28_000))])
                #expect(response.status == 431)
                #expect(response.errorCode == "header_fields_too_large")
                #expect(response.header("Connection") == "close")
            }
        }

        @Test("A target over the limit is 414, whether or not it is UTF-8")
        func overlongTargetIs414() throws {
            try withServer(responder: echo) { _, port in
                let response = try HTTPTestClient.request("GET", "/" + String(repeating: "a", count: 9000), port: port)
                #expect(response.status == 414)
                #expect(response.errorCode == "uri_too_long")
                #expect(response.header("Connection") == "close")
                let connection = try HTTPTestConnection(port: port)
                defer { connection.close() }
                try connection.send(Array("GET /".utf8) + [UInt8](repeating: 0xFF, count: 9000) + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
                #expect(try connection.readResponse().errorCode == "uri_too_long")
            }
        }

        @Test("A head limit the connection's memory cannot hold is refused at start")
        func headLimitPastTheConnectionMemory() {
            var configuration = HTTPServer.Configuration()
            configuration.maxHeadSize = configuration.connectionMemoryLimit
            #expect(throws: HTTPServerError.invalidConfiguration("maxHeadSize must be below connectionMemoryLimit")) {
                _ = try HTTPServer(configuration: configuration, responder: echo).start()
            }
        }

        @Test func bindsIPv6AndNames() throws {
            for host in ["::1", "localhost"] {
                try withServer({ $0.host = host }, responder: echo) { _, port in
                    let response = try HTTPTestClient.request("GET", "/x", port: port, host: host)
                    #expect(response.status == 200)
                }
            }
        }

        @Test func startFailureNamesHostPortAndReason() throws {
            try withServer(responder: echo) { _, port in
                var configuration = HTTPServer.Configuration()
                configuration.port = port
                let second = HTTPServer(configuration: configuration, responder: echo)
                #expect {
                    _ = try second.start()
                } throws: { error in
                    let text = "\(error)".lowercased()
                    return text.contains("127.0.0.1:\(port)") && text.contains("address already in use")
                }
            }
        }
    }
}
