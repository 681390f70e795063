import Locking
import MicroHTTP

/// Decides, before any routing, whether a request may reach the dashboard at all, and who makes it.
///
/// The bar is the most trusted local servers (Jupyter, VS Code, Chrome DevTools): the `Host`
/// header must name this server (a DNS-rebinding page names its own), and a request that reads
/// or changes live state must come from this server's own page, never from another site nor from
/// another port on localhost, which browsers count as the same site. A server that asks for
/// tokens then identifies the caller by theirs and lets them do what their role allows
/// (``AccessRule``); public paths (the status page) ask for no token.
struct RequestGate: Sendable {
    /// Host names this server answers to, as they appear before `:port` in `Host` and `Origin`.
    let hostNames: [String]
    /// Addresses in front of the server, accepted whatever port it is bound to.
    let publicAddresses: [PublicAddress]
    /// The tokens asked for; nil asks none, and every caller is ``Caller/local``.
    let access: AccessList?
    /// Whether a path (its segments) is open to anyone: no token and no cross-site check, only the
    /// `Host` check. `DeckServer` sets it.
    let isPublic: @Sendable ([String]) -> Bool
    /// The public paths of a dashboard: its status page, `/status` and what is under it.
    static let statusPage: @Sendable ([String]) -> Bool = { $0.first == "status" }
    /// Wrong tokens per client address.
    let attempts: FailedTokenAttempts
    /// Proxies whose `X-Forwarded-For` names the client (``client(of:)``).
    let trustedProxies: [TrustedProxy]
    /// Whether `Host` may name any address of this machine (read at bind): a server bound beyond
    /// loopback that asks for tokens is opened from other machines by its LAN address.
    private let answersOnOwnAddresses: Bool
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

    /// A gate for a server bound to `configuredHost`. With `access`, a server bound beyond
    /// loopback also answers to every address of this machine.
    init(configuredHost: String, publicAddresses: [PublicAddress] = [], access: AccessList?, trustedProxies: [TrustedProxy] = [],
         isPublic: @escaping @Sendable ([String]) -> Bool = RequestGate.statusPage,
         attempts: FailedTokenAttempts = FailedTokenAttempts()) {
        self.publicAddresses = publicAddresses
        let loopbackNames = ["127.0.0.1", "localhost", "[::1]"]
        let configured = configuredHost.contains(":") ? "[\(configuredHost)]" : configuredHost
        hostNames = loopbackNames + (loopbackNames.contains(configured) ? [] : [configured])
        self.access = access
        self.isPublic = isPublic
        self.attempts = attempts
        self.trustedProxies = trustedProxies
        answersOnOwnAddresses = access != nil && !ServerConfiguration.isLoopback(configuredHost)
    }

    /// Records the port once bound (it may have been 0).
    func bind(port: Int) {
        let own = answersOnOwnAddresses ? MachineAddresses.current().filter { !hostNames.contains($0) } : []
        let binding = Binding(port: port, hostNames: hostNames + own, publicAddresses: publicAddresses)
        bound.withLock { $0 = binding }
    }

    var port: Int { bound.current.port }

    /// The answer given before routing, or nil when `request` may pass to the routes: a refusal,
    /// or the redirect that turns a `?token=` visit into a cookie.
    func intercept(_ request: HTTPRequest) -> HTTPResponse? {
        // A ping's key is its only credential: a cron job on another machine pings by whatever
        // name reaches this server, and the key reaches nothing but its panel.
        if request.pathSegments.first == "ping" { return nil }
        if isPublic(request.pathSegments) { return hostRefusal(request, binding: bound.current) }
        if let refusal = originRefusal(request) { return refusal }
        guard access != nil else { return nil }
        let visit = request.method == .get ? request.query["token"] : nil
        let presented = presented(in: request)
        let client = client(of: request)
        let wait = visit != nil || presented != nil ? client.flatMap(attempts.wait(for:)) : nil
        if let visit {
            // Only a token a cookie can carry as it is: an access file may list any token's digest.
            if Self.isCookieValue(visit), admitted(visit, from: client, waiting: wait) != nil { return tokenVisit(request, token: visit) }
            if wait == nil, let client { attempts.recordFailure(of: client) }
        }
        guard let presented else { return wait.map(Self.tooManyAttempts) ?? Self.noToken }
        guard let caller = admitted(presented, from: client, waiting: wait) else {
            if let wait { return Self.tooManyAttempts(wait) }
            if let client { attempts.recordFailure(of: client) }
            return Self.noToken
        }
        if let rule = AccessRule.rule(for: request.method, request.pathSegments), caller.role < rule.role {
            return .forbidden(rule.refusal(of: caller), needing: rule.role)
        }
        return nil
    }

    /// Who makes `request`: the owner of the token it carries (bearer or cookie), ``Caller/local``
    /// when no token is asked, nil when none of the list's is brought.
    func caller(of request: HTTPRequest) -> Caller? {
        guard let access else { return .local }
        return presented(in: request).flatMap(access.caller(presenting:))
    }

    private static let noToken = HTTPResponse.apiError(
        .forbidden, code: "forbidden",
        message: "this dashboard asks for a token: open the address with ?token= and the token statedeck printed at start "
            + "or the one made for you with statedeck token add, or send it as Authorization: Bearer")

    /// Who `token` belongs to when it may pass: any listed token while `client` is under its
    /// limit of wrong ones (kept as accepted from it), only one accepted from it before while it
    /// is over (`wait`), so that nobody else's wrong tokens refuse it (``FailedTokenAttempts``).
    private func admitted(_ token: String, from client: ClientAddress?, waiting wait: Duration?) -> Caller? {
        guard let caller = access?.caller(presenting: token) else { return nil }
        guard let client else { return caller }
        guard wait == nil else { return attempts.hasAccepted(caller.name, from: client) ? caller : nil }
        attempts.accept(caller.name, from: client)
        return caller
    }

    /// Who sends `request`: its connection's peer, or the client a trusted proxy names
    /// (``TrustedProxy/client(peer:forwardedFor:proxies:)``). Wrong tokens are counted by it.
    func client(of request: HTTPRequest) -> ClientAddress? {
        TrustedProxy.client(peer: request.client, forwardedFor: request.headers.values(for: "X-Forwarded-For"),
                            proxies: trustedProxies)
    }

    /// 429 with `Retry-After` in whole seconds, rounded up.
    private static func tooManyAttempts(_ wait: Duration) -> HTTPResponse {
        let seconds = max(1, Int((wait + .milliseconds(999)) / .seconds(1)))
        var response = HTTPResponse.apiError(
            .tooManyRequests, code: "too_many_attempts",
            message: "too many wrong tokens from this address: try again in \(seconds) s")
        response.headers.add("Retry-After", String(seconds))
        return response
    }

    /// Whether the gate lets `head` through on its `Host` alone: a GET or HEAD, no token asked
    /// for, and `Host` naming this server. That holds only for a path without live state
    /// (`holdsLiveState`), which is the caller's to check. False sends the request the full way,
    /// through `intercept`.
    func admitsOnHost(_ head: RequestHead) -> Bool {
        access == nil && (head.method == .get || head.method == .head) && head.header("Host", isOneOf: bound.current.hosts)
    }

    /// Refuses a `Host` that is not this server.
    private func hostRefusal(_ request: HTTPRequest, binding: Binding) -> HTTPResponse? {
        // An absolute-form target's authority stands in for `Host`, which is then ignored.
        guard let host = request.authority ?? request.headers["Host"], binding.hosts.contains(host) else {
            return .apiError(.forbidden, code: "forbidden", message: "this server does not answer to that Host")
        }
        return nil
    }

    /// Refuses a `Host` that is not this server, and cross-site or cross-origin requests for
    /// live state.
    private func originRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        let binding = bound.current
        if let refusal = hostRefusal(request, binding: binding) { return refusal }
        if isStateful(request) {
            if let site = request.headers["Sec-Fetch-Site"], site != "same-origin", site != "none" {
                return .apiError(.forbidden, code: "forbidden", message: "cross-site requests are refused")
            }
            if let origin = request.headers["Origin"], !binding.origins.contains(origin) {
                return .apiError(.forbidden, code: "forbidden", message: "cross-origin requests are refused")
            }
        }
        return nil
    }

    /// The answer to a visit that brings a listed token in its query: the cookie, and a 303 to the
    /// same path without it (so the token leaves the address bar and history).
    private func tokenVisit(_ request: HTTPRequest, token: String) -> HTTPResponse {
        var response = HTTPResponse(status: .seeOther)
        response.headers.add("Location", Self.location(of: request.pathSegments))
        response.headers.add("Set-Cookie", "\(AccessToken.cookieName(port: port))=\(token); HttpOnly; SameSite=Strict; Path=/")
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    /// RFC 6265's `cookie-octet`: visible ASCII but `"`, `,`, `;` and `\\`.
    private static func isCookieValue(_ token: String) -> Bool {
        token.utf8.allSatisfy { (0x21...0x7E).contains($0) && !"\",;\\".utf8.contains($0) }
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
