import DeckTestSupport
import Foundation
import StateDeck
import StateDeckServer
import TestSupport
import Testing

/// The request gate as a table: which requests reach the dashboard and which are refused.
///
/// Two servers: `open` binds 127.0.0.2 (loopback, but not one of the built-in names, so the
/// configured host is its own column) with no token; `guarded` binds 127.0.0.1 and requires a
/// token. Each row is one request; every column not named is "absent" or the right value.
/// State routes are `/api/*`, `/badge/*`, `/events` and every method but GET and HEAD; only those check
/// `Origin` and `Sec-Fetch-Site`. `Host` is checked on everything.
struct GateCase: Sendable, CustomTestStringConvertible {
    enum Server: String, Sendable { case open, guarded }

    enum Host: Sendable {
        /// `127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`, the configured `127.0.0.2:PORT`.
        case loopback, localhost, ipv6, configured
        /// `evil.example:PORT` (a DNS-rebinding page), `127.0.0.1:PORT+1`, `127.0.0.1`,
        /// `LOCALHOST:PORT` (names are compared exactly), and no `Host` at all (HTTP/1.1).
        case foreign, otherPort, noPort, uppercase, absent
    }

    enum Origin: Sendable {
        case absent
        /// `http://127.0.0.1:PORT`, `http://localhost:PORT`, `http://127.0.0.2:PORT`.
        case loopback, localhost, configured
        /// `http://evil.example`, `http://127.0.0.1:PORT+1`, `null`, `https://127.0.0.1:PORT`.
        case foreign, otherPort, null, https
    }

    enum Site: String, Sendable {
        case absent = "-", sameOrigin = "same-origin", none, sameSite = "same-site", crossSite = "cross-site"
    }

    enum Token: Sendable {
        case absent
        /// `Authorization: Bearer` with the token, or with another.
        case bearer, wrongBearer
        /// The cookie `statedeck-token-PORT` with the token or another, and the token under the
        /// cookie name of another port.
        case cookie, wrongCookie, otherPortCookie
        /// `?token=` in the target, right or wrong.
        case query, wrongQuery
    }

    enum Route: String, Sendable {
        case page = "GET /"
        case state = "GET /api/state"
        case headState = "HEAD /api/state"
        case retry = "POST /api/panels/a/retry"
        case events = "GET /events"
        case badge = "GET /badge/a.svg"
        case postPage = "POST /"
        case getRetry = "GET /api/panels/a/retry"
        case putState = "PUT /api/state"
    }

    var server: Server = .open
    var route: Route
    var host: Host = .loopback
    var origin: Origin = .absent
    var site: Site = .absent
    var token: Token = .absent
    var expected: Int

    var testDescription: String {
        "\(server) \(route.rawValue) host=\(host) origin=\(origin) site=\(site.rawValue) token=\(token) → \(expected)"
    }
}

extension GateCase {
    static let table: [GateCase] = [
        // Host: only this server's names, with this port.
        GateCase(route: .state, host: .loopback, expected: 200),
        GateCase(route: .state, host: .localhost, expected: 200),
        GateCase(route: .state, host: .ipv6, expected: 200),
        GateCase(route: .state, host: .configured, expected: 200),
        GateCase(route: .state, host: .foreign, expected: 403),
        GateCase(route: .state, host: .otherPort, expected: 403),
        GateCase(route: .state, host: .noPort, expected: 403),
        GateCase(route: .state, host: .uppercase, expected: 403),
        GateCase(route: .state, host: .absent, expected: 400),
        GateCase(route: .page, host: .loopback, expected: 200),
        GateCase(route: .page, host: .foreign, expected: 403),
        GateCase(route: .retry, host: .foreign, expected: 403),
        GateCase(route: .events, host: .foreign, expected: 403),
        GateCase(route: .badge, host: .loopback, expected: 200),
        GateCase(route: .badge, host: .foreign, expected: 403),

        // Origin: checked on state routes only, where it must be this server.
        GateCase(route: .state, origin: .loopback, expected: 200),
        GateCase(route: .state, origin: .localhost, expected: 200),
        GateCase(route: .state, origin: .configured, expected: 200),
        GateCase(route: .state, origin: .foreign, expected: 403),
        GateCase(route: .state, origin: .otherPort, expected: 403),
        GateCase(route: .state, origin: .null, expected: 403),
        GateCase(route: .state, origin: .https, expected: 403),
        GateCase(route: .headState, origin: .foreign, expected: 403),
        GateCase(route: .retry, origin: .loopback, expected: 202),
        GateCase(route: .retry, origin: .foreign, expected: 403),
        GateCase(route: .retry, origin: .otherPort, expected: 403),
        GateCase(route: .retry, origin: .null, expected: 403),
        GateCase(route: .events, origin: .loopback, expected: 200),
        GateCase(route: .events, origin: .foreign, expected: 403),
        GateCase(route: .badge, origin: .loopback, expected: 200),
        GateCase(route: .badge, origin: .otherPort, expected: 403),
        GateCase(route: .postPage, origin: .foreign, expected: 403),
        GateCase(route: .page, origin: .foreign, expected: 200),

        // Sec-Fetch-Site: on state routes, same-origin or none (typed in the address bar).
        GateCase(route: .state, site: .sameOrigin, expected: 200),
        GateCase(route: .state, site: .none, expected: 200),
        GateCase(route: .state, site: .sameSite, expected: 403),
        GateCase(route: .state, site: .crossSite, expected: 403),
        GateCase(route: .headState, site: .crossSite, expected: 403),
        GateCase(route: .retry, site: .sameOrigin, expected: 202),
        GateCase(route: .retry, site: .sameSite, expected: 403),
        GateCase(route: .retry, site: .crossSite, expected: 403),
        GateCase(route: .events, site: .sameOrigin, expected: 200),
        GateCase(route: .events, site: .crossSite, expected: 403),
        GateCase(route: .badge, site: .sameSite, expected: 403),
        GateCase(route: .badge, site: .crossSite, expected: 403),
        GateCase(route: .postPage, site: .crossSite, expected: 403),
        GateCase(route: .page, site: .crossSite, expected: 200),

        // Both headers: each must pass on its own.
        GateCase(route: .retry, origin: .loopback, site: .sameOrigin, expected: 202),
        GateCase(route: .retry, origin: .loopback, site: .crossSite, expected: 403),
        GateCase(route: .retry, origin: .foreign, site: .sameOrigin, expected: 403),
        GateCase(route: .state, host: .foreign, origin: .loopback, site: .sameOrigin, expected: 403),

        // Methods: the gate passes same-origin requests; routing answers the method.
        GateCase(route: .headState, expected: 200),
        GateCase(route: .retry, expected: 202),
        GateCase(route: .postPage, expected: 405),
        GateCase(route: .getRetry, expected: 405),
        GateCase(route: .putState, expected: 405),
        GateCase(route: .putState, origin: .foreign, expected: 403),

        // Token: required on every route of a guarded server.
        GateCase(server: .guarded, route: .page, expected: 403),
        GateCase(server: .guarded, route: .state, expected: 403),
        GateCase(server: .guarded, route: .retry, expected: 403),
        GateCase(server: .guarded, route: .events, expected: 403),
        GateCase(server: .guarded, route: .badge, expected: 403),
        GateCase(server: .guarded, route: .state, token: .bearer, expected: 200),
        GateCase(server: .guarded, route: .state, token: .wrongBearer, expected: 403),
        GateCase(server: .guarded, route: .state, token: .cookie, expected: 200),
        GateCase(server: .guarded, route: .state, token: .wrongCookie, expected: 403),
        GateCase(server: .guarded, route: .state, token: .otherPortCookie, expected: 403),
        GateCase(server: .guarded, route: .headState, token: .cookie, expected: 200),
        GateCase(server: .guarded, route: .page, token: .cookie, expected: 200),
        GateCase(server: .guarded, route: .events, token: .cookie, expected: 200),
        GateCase(server: .guarded, route: .badge, token: .bearer, expected: 200),
        GateCase(server: .guarded, route: .retry, token: .bearer, expected: 202),
        GateCase(server: .guarded, route: .retry, token: .cookie, expected: 202),
        // A visit with ?token= trades it for the cookie (303); only GET visits do.
        GateCase(server: .guarded, route: .page, token: .query, expected: 303),
        GateCase(server: .guarded, route: .state, token: .query, expected: 303),
        GateCase(server: .guarded, route: .page, token: .wrongQuery, expected: 403),
        GateCase(server: .guarded, route: .retry, token: .query, expected: 403),
        // The token never overrides the origin checks, nor the Host check.
        GateCase(server: .guarded, route: .retry, origin: .foreign, token: .cookie, expected: 403),
        GateCase(server: .guarded, route: .retry, site: .crossSite, token: .cookie, expected: 403),
        GateCase(server: .guarded, route: .state, site: .crossSite, token: .query, expected: 403),
        GateCase(server: .guarded, route: .page, host: .foreign, token: .query, expected: 403),
        GateCase(server: .guarded, route: .page, host: .foreign, token: .cookie, expected: 403),
    ]
}

extension Live {
    @Suite("Request gate matrix") struct GateMatrixTests {
        @Test("Each request of the gate table gets the status the table says", arguments: GateCase.table)
        func gateTable(_ row: GateCase) async throws {
            let token = AccessToken.generate()
            var options = LiveDeckServer.Options()
            switch row.server {
            case .open: options.host = "127.0.0.2"
            case .guarded: options.token = token
            }
            try await LiveDeckServer.run(Fixtures.instantDeck(), options, files: Fixtures.pageFiles) { harness in
                let (method, target, headers, body) = row.request(port: harness.port, token: "\(token)")
                let response = try await harness.request(method, target, headers: headers, body: body)
                #expect(response.status == row.expected, "\(row.testDescription): \(response.text)")
                if row.expected == 403 {
                    // HEAD has no body, and only the head of /events is read: their type tells.
                    if row.route == .headState || row.route == .events {
                        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
                    } else {
                        #expect(response.errorCode == "forbidden")
                    }
                }
                if row.expected == 303 {
                    #expect(response.header("Set-Cookie")?.contains("statedeck-token-\(harness.port)=\(token)") == true)
                }
            }
        }

        @Test("The table covers every value of every column")
        func tableCoversEveryValue() {
            let table = GateCase.table
            #expect(Set(table.map { "\($0.host)" }).count == 9)
            #expect(Set(table.map { "\($0.origin)" }).count == 8)
            #expect(Set(table.map(\.site.rawValue)).count == 5)
            #expect(Set(table.map { "\($0.token)" }).count == 8)
            #expect(Set(table.map(\.route.rawValue)).count == 9)
            #expect(Set(table.map(\.server.rawValue)).count == 2)
        }
    }
}

extension GateCase {
    /// The request of this row against a server on `port` whose token is `token`.
    func request(port: Int, token: String) -> (String, String, [(String, String)], [UInt8]?) {
        let parts = route.rawValue.split(separator: " ")
        let method = String(parts[0])
        var target = String(parts[1])
        var headers: [(String, String)] = []
        let loopbackHost = server == .open ? "127.0.0.2" : "127.0.0.1"
        switch host {
        case .loopback: headers.append(("Host", "127.0.0.1:\(port)"))
        case .localhost: headers.append(("Host", "localhost:\(port)"))
        case .ipv6: headers.append(("Host", "[::1]:\(port)"))
        case .configured: headers.append(("Host", "\(loopbackHost):\(port)"))
        case .foreign: headers.append(("Host", "evil.example:\(port)"))
        case .otherPort: headers.append(("Host", "127.0.0.1:\(port + 1)"))
        case .noPort: headers.append(("Host", "127.0.0.1"))
        case .uppercase: headers.append(("Host", "LOCALHOST:\(port)"))
        case .absent: break
        }
        switch origin {
        case .absent: break
        case .loopback: headers.append(("Origin", "http://127.0.0.1:\(port)"))
        case .localhost: headers.append(("Origin", "http://localhost:\(port)"))
        case .configured: headers.append(("Origin", "http://\(loopbackHost):\(port)"))
        case .foreign: headers.append(("Origin", "http://evil.example"))
        case .otherPort: headers.append(("Origin", "http://127.0.0.1:\(port + 1)"))
        case .null: headers.append(("Origin", "null"))
        case .https: headers.append(("Origin", "https://127.0.0.1:\(port)"))
        }
        if site != .absent {
            headers.append(("Sec-Fetch-Site", site.rawValue))
        }
        let cookie = "statedeck-token-\(port)"
        switch self.token {
        case .absent: break
        case .bearer: headers.append(("Authorization", "Bearer \(token)"))
        case .wrongBearer: headers.append(("Authorization", "Bearer \(String(token.reversed()))"))
        case .cookie: headers.append(("Cookie", "theme=dark; \(cookie)=\(token)"))
        case .wrongCookie: headers.append(("Cookie", "\(cookie)=\(String(token.reversed()))"))
        case .otherPortCookie: headers.append(("Cookie", "statedeck-token-\(port + 1)=\(token)"))
        case .query: target += "?token=\(token)"
        case .wrongQuery: target += "?token=\(String(token.reversed()))"
        }
        return (method, target, headers, method == "POST" || method == "PUT" ? [] : nil)
    }
}
