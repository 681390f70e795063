import DeckTestSupport
import Foundation
import StateDeck
import TestSupport
import Testing

extension Live {
    /// 10,000 seeded random malformed requests against a live dashboard, 32 connections at a
    /// time, each ending its sending side once sent. No crash, no answer outside the expected
    /// statuses, no complete request left unanswered, and a normal request answered after.
    ///
    /// libmicrohttpd 0.9.75 does not act on a client's end of sending: a request cut short waits
    /// for the rest until the request deadline (30 s here). The client gives up on those after
    /// 300 ms, which is fine only for the kinds of request that can be incomplete; complete ones
    /// get 5 s to be answered.
    @Suite("Malformed request fuzz") struct MalformedRequestFuzzTests {
        static let count = 10_000

        @Test("Ten thousand malformed requests crash nothing and the server answers normally after", .timeLimit(.minutes(2)))
        func tenThousandMalformedRequests() async throws {
            let seed = Seed.make()
            try await LiveDeckServer.run(Fixtures.instantDeck(), files: Fixtures.pageFiles) { harness in
                let port = harness.port
                let started = ContinuousClock.now
                let outcomes = await concurrently(Self.count, threads: 32) { index in
                    var random = SeededRandom(seed: Seed.derive(seed, index))
                    let (kind, bytes) = MalformedRequest.make(port: port, random: &random)
                    let patience: Duration = MalformedRequest.alwaysComplete.contains(kind) ? .seconds(5) : .milliseconds(300)
                    return (kind, TestSocket.exchange(bytes, port: port, timeout: patience))
                }
                let elapsed = ContinuousClock.now - started
                var byStatus: [String: Int] = [:]
                for (_, outcome) in outcomes {
                    byStatus[outcome.status.map(String.init) ?? "\(outcome)", default: 0] += 1
                }
                let replay = "replay with HARDENING_SEED=\(seed); outcomes \(byStatus.sorted { $0.key < $1.key })"
                let unexpected = outcomes.enumerated().filter { !MalformedRequest.acceptable($0.element.1, kind: $0.element.0) }
                #expect(unexpected.isEmpty, """
                    \(unexpected.count) unexpected outcomes, first: \
                    \(unexpected.prefix(5).map { "case \($0.offset) (\($0.element.0)): \($0.element.1)" }); \(replay)
                    """)
                #expect(outcomes.count == Self.count)
                // A well-formed request still gets its answer, at once.
                let state = try await harness.get("/api/state")
                #expect(state.status == 200, "\(replay)")
                #expect(elapsed < .seconds(60), "took \(elapsed); \(replay)")
            }
        }
    }
}

/// Generators of broken HTTP/1.1 requests, by kind.
enum MalformedRequest {
    /// The statuses a broken request may get: the gate's and the routes' refusals and answers,
    /// and libmicrohttpd's own (431, 414, 505). Never a 500, never a stream left open.
    static let statuses: Set<Int> = [200, 202, 303, 304, 400, 403, 404, 405, 409, 413, 414, 431, 505]

    /// Kinds whose every request is complete: they must be answered or closed, never left waiting.
    static let alwaysComplete: Set<String> = ["huge headers", "bad version", "bad target", "length and chunked"]

    static func acceptable(_ outcome: RawOutcome, kind: String) -> Bool {
        switch outcome {
        case .answered(let status, _): statuses.contains(status)
        case .closed: true
        case .timedOut: !alwaysComplete.contains(kind)
        case .refused: false
        }
    }

    static let kinds = [
        "random bytes", "truncated", "bad method", "huge headers", "bad chunks", "NULs", "line breaks",
        "conflicting lengths", "length and chunked", "bad version", "bad target", "mutated", "pipelined",
    ]

    /// One request: its kind and its bytes.
    static func make(port: Int, random: inout SeededRandom) -> (String, [UInt8]) {
        let kind = random.int(0..<kinds.count)
        let host = "Host: 127.0.0.1:\(port)\r\n"
        let valid = validRequest(host: host, random: &random)
        let bytes: [UInt8]
        switch kind {
        case 0:
            bytes = random.bytes(random.int(0...2048))
        case 1:
            bytes = Array(valid.prefix(random.int(0..<max(1, valid.count))))
        case 2:
            let method = random.pick(["get", "G ET", "GET\u{0}", "\u{1}", "PROPFIND", String(repeating: "X", count: 9000),
                                      "", "GET GET", "ПОСТ", "GET\t", "POST\r", String(decoding: random.bytes(6), as: UTF8.self)])
            bytes = Array("\(method) /api/state HTTP/1.1\r\n\(host)\r\n".utf8)
        case 3:
            if random.chance(0.5) {
                let value = String(repeating: random.pick(["a", "\t", "é", "%"]), count: random.int(20_000...200_000))
                bytes = Array("GET / HTTP/1.1\r\n\(host)X-Big: \(value)\r\n\r\n".utf8)
            } else {
                let headers = (0..<random.int(500...4000)).map { "X-\($0): \($0)\r\n" }.joined()
                bytes = Array("GET / HTTP/1.1\r\n\(host)\(headers)\r\n".utf8)
            }
        case 4:
            let chunks = (0..<random.int(1...6)).map { _ in
                random.pick(["zz\r\nabc\r\n", "-1\r\nx\r\n", "ffffffffffffffffffff\r\nx\r\n", "1;ext=\u{0}\r\nx\r\n",
                             "5\r\nab\r\n", "3\r\nabcdef\r\n", "0x10\r\n", " 5\r\nhello\r\n", "5 \r\nhello\r\n",
                             "5\nhello\n", "5\r\nhello", "\r\n", "0\r\nTrailer: \u{0}\r\n\r\n", "1\r\nx\r\n",
                             "8000000000000000\r\n", "0\r\n\r\n"])
            }.joined()
            bytes = Array("POST /api/panels/a/retry HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n\(chunks)".utf8)
        case 5:
            var request = valid
            for _ in 0..<random.int(1...4) {
                request.insert(0, at: random.int(0...request.count))
            }
            bytes = request
        case 6:
            let trick = random.pick([
                "GET / HTTP/1.1\r\(host)\r\n", "GET / HTTP/1.1\n\(host)\n", "GET / HTTP/1.1\r\r\n\(host)\r\n",
                "GET / HTTP/1.1\r\n\(host) folded: line\r\n\r\n", "GET / HTTP/1.1\r\n\(host)NoColon\r\n\r\n",
                "GET / HTTP/1.1\r\n\(host)Bad Name: x\r\n\r\n", "GET / HTTP/1.1\r\n\(host)X : y\r\n\r\n",
                "GET / HTTP/1.1\r\n\(host)Host: evil.example\r\n\r\n", "GET /\r\nInjected: 1 HTTP/1.1\r\n\(host)\r\n",
                "GET /a%0d%0aSet-Cookie:%20x=y HTTP/1.1\r\n\(host)\r\n", "GET / HTTP/1.1\r\n\(host)X: a\rInjected: b\r\n\r\n",
                "GET / HTTP/1.1\r\n: empty name\r\n\(host)\r\n", "\r\n\r\nGET / HTTP/1.1\r\n\(host)\r\n",
            ])
            bytes = Array(trick.utf8)
        case 7:
            let lengths = random.pick([
                "Content-Length: 3\r\nContent-Length: 5\r\n", "Content-Length: -1\r\n", "Content-Length: 1e3\r\n",
                "Content-Length: +5\r\n", "Content-Length: 0x10\r\n", "Content-Length:  5 \r\n",
                "Content-Length: 99999999999999999999\r\n", "Content-Length: 5, 5\r\n", "Content-Length: 50\r\n",
                "Content-Length: \r\n", "Content-Length: 5\r\nContent-Length: 5\r\n",
            ])
            bytes = Array("POST /api/panels/a/retry HTTP/1.1\r\n\(host)\(lengths)\r\nhello".utf8)
        case 8:
            let framing = random.pick([
                "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n",
                "Transfer-Encoding: gzip\r\nContent-Length: 5\r\n", "Transfer-Encoding: chunked, identity\r\n",
                "Transfer-Encoding: \r\n", "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n",
            ])
            bytes = Array("POST /api/panels/a/retry HTTP/1.1\r\n\(host)\(framing)\r\n0\r\n\r\nGET / HTTP/1.1\r\n\(host)\r\n".utf8)
        case 9:
            let version = random.pick(["HTTP/1.2", "HTTP/2.0", "HTTP/0.9", "HTTPS/1.1", "HTTP/1.1 extra", "http/1.1", "",
                                       "HTTP/1.", "HTTP/11", "HTTP/1.1\u{0}", "HTTP/9.9"])
            bytes = Array("GET /api/state \(version)\r\n\(host)\r\n".utf8)
        case 10:
            let target = random.pick(["*", "http://127.0.0.1/", "//", "/%", "/%zz", "/\u{FF}", "/a b", "/..%2f..%2fetc/passwd",
                                      "/%00", "/?%", "/\u{7F}", String(repeating: "/a", count: 10_000), "/%C0%AF", "/api/%2e%2e/state",
                                      "example.com:443", "/api/panels/%2e%2e%2fa/retry"])
            bytes = Array("\(random.pick(["GET", "POST", "OPTIONS", "CONNECT"])) \(target) HTTP/1.1\r\n\(host)\r\n".utf8)
        case 11:
            var request = valid
            for _ in 0..<random.int(1...10) {
                guard !request.isEmpty else { break }
                let at = random.int(0..<request.count)
                switch random.int(0..<4) {
                case 0: request[at] = UInt8.random(in: 0...255, using: &random)
                case 1: request.insert(UInt8.random(in: 0...255, using: &random), at: at)
                case 2: request.remove(at: at)
                default: request.insert(contentsOf: request[at..<min(request.count, at + random.int(1...20))], at: at)
                }
            }
            bytes = request
        default:
            bytes = valid + random.bytes(random.int(1...512))
        }
        return (kinds[kind], bytes)
    }

    /// A request that gets a normal answer (no streams: `/events` would stay open).
    static func validRequest(host: String, random: inout SeededRandom) -> [UInt8] {
        let request = random.pick([
            "GET / HTTP/1.1\r\n\(host)\r\n",
            "GET /api/state HTTP/1.1\r\n\(host)Accept: application/json\r\n\r\n",
            "GET /api/panels/a HTTP/1.1\r\n\(host)\r\n",
            "HEAD /app.js HTTP/1.1\r\n\(host)\r\n",
            "POST /api/panels/a/retry HTTP/1.1\r\n\(host)Content-Length: 0\r\n\r\n",
            "POST /api/panels/a/recover HTTP/1.1\r\n\(host)Content-Type: application/json\r\nContent-Length: 15\r\n\r\n{\"option\":\"x\"}",
            "GET /index.html HTTP/1.1\r\n\(host)If-None-Match: \"x\"\r\nConnection: close\r\n\r\n",
        ])
        return Array(request.utf8)
    }
}
