import MicroHTTP
import TestSupport
import Testing

/// Answers `/fast/…` from the head, with what the head showed it; everything else, and every
/// request that reaches `respond(to:)`, says "full" and how many body bytes it got.
private struct HeadProbe: HTTPResponder {
    func respond(toHead head: RequestHead) -> HTTPResponse? {
        guard head.target.hasPrefix("/fast/") else { return nil }
        let host = head.header("Host", isOneOf: ["nowhere:1", head[header: "Host"] ?? ""])
        let text = "head \(head.method) \(head.target) probe=\(head[header: "X-Probe"] ?? "-") host=\(host)"
        return HTTPResponse(status: .ok, body: .bytes(Array(text.utf8)))
    }

    func respond(to request: HTTPRequest) -> HTTPReply {
        .response(HTTPResponse(status: .ok, body: .bytes(Array("full \(request.method) \(request.body.count)".utf8))))
    }
}

extension Live {
    /// The fast path: `HTTPResponder.respond(toHead:)` is asked first for every request that
    /// frames no body, and what it answers goes out on a connection that stays open.
    @Suite struct HeadAnswerTests {
        @Test func bodilessRequestsAreAnsweredFromTheHeadOnAConnectionKeptOpen() throws {
            try withServer(responder: HeadProbe()) { _, port in
                let connection = try HTTPTestConnection(port: port)
                try connection.send("GET", "/fast/a?b=1", headers: [("x-PROBE", "seen")])
                #expect(try connection.readResponse().text == "head GET /fast/a?b=1 probe=seen host=true")
                try connection.send("HEAD", "/fast/b")
                let head = try connection.readResponse(bodyless: true)
                #expect(head.header("Content-Length") == "\("head HEAD /fast/b probe=- host=true".utf8.count)")
                try connection.send("GET", "/slow")
                #expect(try connection.readResponse().text == "full GET 0")
                try connection.send("GET", "/fast/c")
                #expect(try connection.readResponse().text == "head GET /fast/c probe=- host=true")
            }
        }

        @Test func requestsFramingABodyTakeTheFullWay() throws {
            try withServer(responder: HeadProbe()) { _, port in
                let connection = try HTTPTestConnection(port: port)
                try connection.send("POST", "/fast/a", body: Array("12345".utf8))
                #expect(try connection.readResponse().text == "full POST 5")
                try connection.send("GET", "/fast/a", body: [])
                #expect(try connection.readResponse().text == "full GET 0")
                try connection.send(
                    "POST /fast/a HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
                #expect(try connection.readResponse().text == "full POST 3")
            }
        }

        @Test func aTargetThatIsNotUTF8IsNeverAnsweredFromTheHead() throws {
            try withServer(responder: HeadProbe()) { _, port in
                let connection = try HTTPTestConnection(port: port)
                try connection.send(Array("GET /fast/".utf8) + [0xFF] + Array(" HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8))
                #expect(try connection.readResponse().status == 400)
            }
        }
    }
}

/// A head built with its headers, as responders' own tests build one.
@Suite struct RequestHeadTests {
    @Test func aHeadWithHeadersGivenLooksThemUpCaseInsensitively() {
        let head = RequestHead(method: .get, target: "/", headers: ["Host": "a:1", "If-None-Match": "\"x\""])
        #expect(head[header: "host"] == "a:1")
        #expect(head[header: "Origin"] == nil)
        #expect(head.header("HOST", isOneOf: ["b:2", "a:1"]))
        #expect(!head.header("Host", isOneOf: ["a:10"]))
        #expect(!head.header("Origin", isOneOf: [""]))
    }
}
