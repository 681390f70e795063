import DeckTestSupport
import Foundation
import StateDeck
import StateDeckServer
import TestSupport
import Testing

/// One kind of answer the dashboard gives, and how to provoke it.
struct HeaderCase: Sendable, CustomTestStringConvertible {
    let name: String
    var guarded = false
    let status: Int
    /// The raw request; `{host}` and `{token}` are filled in.
    let request: String
    var bodyless = false

    var testDescription: String { "\(name) (\(status))" }
}

extension HeaderCase {
    static let table: [HeaderCase] = [
        HeaderCase(name: "static file", status: 200, request: "GET /index.html HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        HeaderCase(name: "static file not modified", status: 304,
                   request: "GET /index.html HTTP/1.1\r\nHost: {host}\r\nIf-None-Match: {etag}\r\n\r\n"),
        HeaderCase(name: "HEAD of a static file", status: 200, request: "HEAD /app.js HTTP/1.1\r\nHost: {host}\r\n\r\n",
                   bodyless: true),
        HeaderCase(name: "missing file", status: 404, request: "GET /nope.txt HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        HeaderCase(name: "static file, wrong method", status: 405,
                   request: "POST /index.html HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\n\r\n"),
        HeaderCase(name: "route, wrong method", status: 405, request: "GET /api/panels/a/retry HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        HeaderCase(name: "unknown panel", status: 404, request: "GET /api/panels/nope HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        HeaderCase(name: "API state", status: 200, request: "GET /api/state HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        HeaderCase(name: "deferred answer", status: 202,
                   request: "POST /api/panels/a/retry HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\n\r\n"),
        HeaderCase(name: "deferred refusal", status: 404,
                   request: "POST /api/panels/nope/retry HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\n\r\n"),
        HeaderCase(name: "deferred bad body", status: 400,
                   request: "POST /api/panels/a/recover HTTP/1.1\r\nHost: {host}\r\nContent-Length: 1\r\n\r\n{"),
        HeaderCase(name: "debug route while off", status: 403,
                   request: "POST /api/debug/panels/a/state HTTP/1.1\r\nHost: {host}\r\nContent-Length: 2\r\n\r\n{}"),
        HeaderCase(name: "gate refusal", status: 403, request: "GET /api/state HTTP/1.1\r\nHost: evil.example\r\n\r\n"),
        HeaderCase(name: "token visit", guarded: true, status: 303,
                   request: "GET /?token={token} HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        HeaderCase(name: "missing token", guarded: true, status: 403, request: "GET / HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        HeaderCase(name: "body too large", status: 413,
                   request: "POST /api/panels/a/recover HTTP/1.1\r\nHost: {host}\r\nContent-Length: 70000\r\n\r\n"),
        HeaderCase(name: "malformed escape in the target", status: 400,
                   request: "GET /%zz HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        HeaderCase(name: "asterisk target", status: 400,
                   request: "OPTIONS * HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        HeaderCase(name: "Content-Length with Transfer-Encoding", status: 400,
                   request: "POST /api/panels/a/retry HTTP/1.1\r\nHost: {host}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
        HeaderCase(name: "target too long", status: 414,
                   request: "GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        HeaderCase(name: "head too large", status: 431,
                   request: "GET /index.html HTTP/1.1\r\nHost: {host}\r\nX-Big: \(String(repeating: "b", count: 28_000))\r\n\r\n"),
    ]
}

extension Live {
    /// The security headers are on every answer, errors included.
    @Suite("Security headers") struct SecurityHeadersTests {
        @Test("Each kind of answer carries every security header", arguments: HeaderCase.table)
        func everyAnswer(_ row: HeaderCase) async throws {
            let token = AccessToken.generate()
            var options = LiveDeckServer.Options()
            if row.guarded { options.token = token }
            try await LiveDeckServer.run(Fixtures.instantDeck(), options, files: Fixtures.pageFiles) { harness in
                var etag = ""
                if row.request.contains("{etag}") {
                    etag = try await harness.get("/index.html").header("ETag") ?? ""
                }
                let raw = row.request.replacingOccurrences(of: "{host}", with: harness.hostHeader)
                    .replacingOccurrences(of: "{token}", with: "\(token)")
                    .replacingOccurrences(of: "{etag}", with: etag)
                let response = try await harness.raw(raw, bodyless: row.bodyless)
                #expect(response.status == row.status, "\(response.text)")
                #expect(response.missingSecurityHeaders.isEmpty, "missing \(response.missingSecurityHeaders)")
            }
        }

        @Test("An event stream carries every security header and its own")
        func eventStream() async throws {
            try await LiveDeckServer.run(Fixtures.instantDeck(), files: Fixtures.pageFiles) { harness in
                let response = try await harness.get("/events")
                #expect(response.status == 200)
                #expect(response.header("Content-Type")?.hasPrefix("text/event-stream") == true)
                #expect(response.header("Cache-Control") == "no-store")
                #expect(response.missingSecurityHeaders.isEmpty, "missing \(response.missingSecurityHeaders)")
            }
        }

        /// The fillers take the first two past the connection's memory, where libmicrohttpd
        /// answers 431 and 414 itself.
        @Test("libmicrohttpd's own error pages echo nothing of the request", arguments: [
            "GET / HTTP/1.1\r\nHost: {host}\r\nX-Big: <script>alert(1)</script>{filler}\r\n\r\n",
            "GET /<script>alert(1)</script>{filler} HTTP/1.1\r\nHost: {host}\r\n\r\n",
            "GET /<script>alert(1)</script> HTTP/7.0\r\nHost: {host}\r\n\r\n",
            "GET /<script>alert(1)</script> HTTP/1.1\r\n\r\n",
            "POST /<script>alert(1)</script> HTTP/1.1\r\nHost: {host}\r\nContent-Length: <script>\r\n\r\n",
        ])
        func libraryPagesAreStatic(request: String) async throws {
            try await LiveDeckServer.run(Fixtures.instantDeck(), files: Fixtures.pageFiles) { harness in
                let raw = request.replacingOccurrences(of: "{host}", with: harness.hostHeader)
                    .replacingOccurrences(of: "{filler}", with: String(repeating: "a", count: 200_000))
                let response = try await harness.raw(raw)
                #expect([400, 414, 431, 505].contains(response.status))
                #expect(!response.text.contains("<script>"), "\(response.text)")
                #expect(response.header("Set-Cookie") == nil)
            }
        }
    }
}
