import Locking
import MicroHTTP

/// Decides, before any routing, whether a request may reach the dashboard at all.
///
/// The bar is the most trusted local servers (Jupyter, VS Code, Chrome DevTools): the `Host`
/// header must name this server (a DNS-rebinding page names its own), and a request that reads
/// or changes live state must come from this server's own page, never from another site nor from
/// another port on localhost, which browsers count as the same site.
struct RequestGate: Sendable {
    /// Host names this server answers to, as they appear before `:port` in `Host` and `Origin`.
    let hostNames: [String]
    /// Addresses in front of the server, accepted whatever port it is bound to.
    let publicAddresses: [PublicAddress]
    let token: AccessToken?
    /// Paths (as segments) anyone may GET or HEAD: no token asked, no cross-site check; `Host`
    /// still checked. The status page's, by default.
    let isPublic: @Sendable ([String]) -> Bool
    private let bound = Locked(Binding(port: 0, hostNames: []))

    /// What requests are checked against once the port is known, spelled out once. A class, so
    /// that reading it on every request copies one reference.
    private final class Binding: Sendable {
        let port: Int
        /// Every accepted `Host` value.
        let hosts: [String]
        /// Every accepted `Origin` value.
        let origins: [String]

        init(port: Int, hostNames: [String], publicAddresses: [PublicAddress] = []) {
            self.port = port
            let own = hostNames.map { "\($0):\(port)" }
            hosts = own + publicAddresses.map(\.host)
            origins = own.map { "http://\($0)" } + publicAddresses.map(\.origin)
        }
    }

    init(configuredHost: String, publicAddresses: [PublicAddress] = [], token: AccessToken?,
         isPublic: @escaping @Sendable ([String]) -> Bool = { $0.first == "status" }) {
        self.publicAddresses = publicAddresses
        self.isPublic = isPublic
        let configured = configuredHost.contains(":") ? "[\(configuredHost)]" : configuredHost
        hostNames = ["127.0.0.1", "localhost", "[::1]"] + (["127.0.0.1", "localhost", "[::1]"].contains(configured) ? [] : [configured])
        self.token = token
    }

    /// Records the port once bound (it may have been 0).
    func bind(port: Int) {
        let binding = Binding(port: port, hostNames: hostNames, publicAddresses: publicAddresses)
        bound.withLock { $0 = binding }
    }

    var port: Int { bound.current.port }

    /// The answer given before routing, or nil when `request` may pass to the routes: a refusal,
    /// or the redirect that turns a `?token=` visit into a cookie.
    func intercept(_ request: HTTPRequest) -> HTTPResponse? {
        // A ping's key is its only credential: a cron job on another machine pings by whatever
        // name reaches this server, and the key reaches nothing but its panel.
        if request.pathSegments.first == "ping" { return nil }
        let isPublic = (request.method == .get || request.method == .head) && isPublic(request.pathSegments)
        if let refusal = originRefusal(request, checkingSite: !isPublic) { return refusal }
        guard let token, !isPublic else { return nil }
        if let visit = tokenVisit(request, token: token) { return visit }
        guard token.matches(presented(in: request) ?? "") else {
            return .apiError(.forbidden, code: "forbidden",
                             message: "open the address with the ?token= that statedeck printed at start")
        }
        return nil
    }

    /// Whether the gate lets `head` through on its `Host` alone: a GET or HEAD, no token asked
    /// for, and `Host` naming this server. That holds only for a path without live state
    /// (`holdsLiveState`), which is the caller's to check. False sends the request the full way,
    /// through `intercept`.
    func admitsOnHost(_ head: RequestHead) -> Bool {
        token == nil && (head.method == .get || head.method == .head) && head.header("Host", isOneOf: bound.current.hosts)
    }

    /// Refuses a `Host` that is not this server, and, `checkingSite`, cross-site or cross-origin
    /// requests for live state.
    private func originRefusal(_ request: HTTPRequest, checkingSite: Bool) -> HTTPResponse? {
        let binding = bound.current
        // An absolute-form target's authority stands in for `Host`, which is then ignored.
        guard let host = request.authority ?? request.headers["Host"], binding.hosts.contains(host) else {
            return .apiError(.forbidden, code: "forbidden", message: "this server does not answer to that Host")
        }
        if checkingSite, isStateful(request) {
            if let site = request.headers["Sec-Fetch-Site"], site != "same-origin", site != "none" {
                return .apiError(.forbidden, code: "forbidden", message: "cross-site requests are refused")
            }
            if let origin = request.headers["Origin"], !binding.origins.contains(origin) {
                return .apiError(.forbidden, code: "forbidden", message: "cross-origin requests are refused")
            }
        }
        return nil
    }

    /// The answer to a visit that brings the token in its query: the cookie, and a 303 to the
    /// same path without it (so the token leaves the address bar and history). Nil otherwise.
    private func tokenVisit(_ request: HTTPRequest, token: AccessToken) -> HTTPResponse? {
        guard let given = request.query["token"], request.method == .get, token.matches(given) else {
            return nil
        }
        var response = HTTPResponse(status: .seeOther)
        response.headers.add("Location", Self.location(of: request.pathSegments))
        response.headers.add("Set-Cookie", "\(AccessToken.cookieName(port: port))=\(token); HttpOnly; SameSite=Strict; Path=/")
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    /// `segments` as a path on this server: each one percent-encoded again (a decoded `/` or `\\`
    /// stays inside its segment), empty ones dropped, so it never starts with `//` or `/\\`,
    /// which browsers follow to another host.
    static func location(of segments: [String]) -> String {
        "/" + segments.filter { !$0.isEmpty }.map(percentEncoded).joined(separator: "/")
    }

    /// RFC 3986's `pchar`: unreserved, sub-delims, `:` and `@`.
    private static let segmentBytes = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@".utf8)

    /// Every byte of `segment` but `segmentBytes` as `%XX`.
    private static func percentEncoded(_ segment: String) -> String {
        var encoded = ""
        for byte in segment.utf8 {
            if segmentBytes.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    /// The token a request carries: `Authorization` with the Bearer scheme, else the port's cookie.
    private func presented(in request: HTTPRequest) -> String? {
        if let authorization = request.headers["Authorization"], let credentials = Self.bearerCredentials(in: authorization) {
            return String(credentials)
        }
        let name = AccessToken.cookieName(port: port) + "="
        for header in request.headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let pair = pair.drop { $0 == " " }
                if pair.hasPrefix(name) { return String(pair.dropFirst(name.count)) }
            }
        }
        return nil
    }

    /// What follows the scheme of an `Authorization` value whose scheme is Bearer, in any case
    /// (schemes are case-insensitive), past the spaces or tabs after it; nil for another scheme.
    /// The rest is the token as sent, whole: nothing more is trimmed or split off.
    static func bearerCredentials(in authorization: String) -> Substring? {
        let isBlank = { (character: Character) in character == " " || character == "\t" }
        let scheme = authorization.prefix { !isBlank($0) }
        // ASCII letters only: `| 0x20` lowers an upper-case letter and leaves a lower-case one.
        guard scheme.utf8.count == 6, zip(scheme.utf8, "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 }) else { return nil }
        return authorization[scheme.endIndex...].drop(while: isBlank)
    }

    /// The API, the badges, the stream and every method but GET and HEAD read or change live state.
    private func isStateful(_ request: HTTPRequest) -> Bool {
        (request.method != .get && request.method != .head) || Self.holdsLiveState(request.pathSegments)
    }

    /// The API, the badges, the stream and the metrics: paths whose requests the gate checks
    /// beyond `Host`.
    static func holdsLiveState(_ pathSegments: [String]) -> Bool {
        pathSegments.first == "api" || pathSegments.first == "badge"
            || (pathSegments.count == 1 && ["events", "metrics"].contains(pathSegments[0]))
    }
}
