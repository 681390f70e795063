import FoundationEssentials
import HTTPClient
import StateDeck

/// Checks a server's TLS certificate: a handshake, no HTTP; the info tells whom it is for, who
/// signed it, when it expires and whether it is trusted.
///
/// libcurl makes the handshake, on the http engine's thread (`HTTPClient.handshake`), so a tls
/// panel costs no thread of its own and verifies against the same roots as an http panel.
public struct TLSSource: Sendable, Hashable {
    public var host: String
    public var port: Int
    /// The name sent and checked against the certificate, when it is not `host`.
    public var serverName: String?
    /// A certificate expiring sooner fails with `certificateExpiring`.
    public var validFor: Duration
    /// Each handshake's limit.
    public var timeout: Duration
    /// A PEM file of roots trusted instead of the system's: a private CA's.
    public var trustedRoots: String?

    public init(host: String, port: Int = 443, serverName: String? = nil, validFor: Duration = .seconds(14 * 86_400),
                timeout: Duration = .seconds(10), trustedRoots: String? = nil) {
        self.host = host
        self.port = port
        self.serverName = serverName
        self.validFor = validFor
        self.timeout = timeout
        self.trustedRoots = trustedRoots
    }

    /// One handshake (two when the certificate is not trusted, to read it); throws a `PanelError`,
    /// or `CancellationError` when the task is cancelled.
    public func load() async throws -> Info {
        let request = TLSHandshakeRequest(host: host, port: port, serverName: serverName, timeout: timeout,
                                          trustedRoots: trustedRoots)
        let handshake: TLSHandshake
        do {
            handshake = try await HTTPClient.handshake(request)
        } catch {
            throw try failure(for: error)
        }
        let now = Int(Date().timeIntervalSince1970)
        try check(handshake, now: now)
        return info(handshake.certificate, now: now)
    }

    /// The name the certificate must be for.
    var name: String { serverName ?? host }

    /// Throws `certificateUntrusted` for a rejected certificate, `certificateExpiring` for one
    /// expiring within `validFor` of `now` (seconds since 1970).
    func check(_ handshake: TLSHandshake, now: Int) throws(PanelError) {
        let certificate = handshake.certificate
        if let problem = handshake.problem {
            throw PanelError.untrusted(certificate, problem, name: name, detail: "\(address): \(handshake.message)")
        }
        try certificate.check(validFor: validFor, name: name, now: now, detail: address)
    }

    /// "Valid for 41 more days"; Subject, Issuer, Expires and Trusted. Whole days only: info that
    /// differs at every check is a change to record and send each time.
    func info(_ certificate: PeerCertificate, now: Int) -> Info {
        Info(summary: "Valid for \(certificate.daysLeft(now: now).counted("more day"))",
             fields: [Info.Field("Subject", certificate.subject), Info.Field("Issuer", certificate.issuer),
                      Info.Field("Expires", certificate.expiryDate), Info.Field("Trusted", "Yes")])
    }

    /// "api.example.com:443", or "api.example.com at 203.0.113.7:443", for a card's detail.
    var address: String {
        serverName.map { "\($0) at \(host):\(port)" } ?? "\(host):\(port)"
    }

    /// The catalogue's error for a handshake that did not happen.
    ///
    /// - Throws: `CancellationError` when the handshake was cancelled.
    func failure(for error: HTTPClientError) throws(CancellationError) -> PanelError {
        let detail = "\(address): \(error.message)"
        if let failure = try PanelError.connection(error, host: host, port: port, timeout: timeout, detail: detail) {
            return failure
        }
        switch error.reason {
        case .insecure, .connectionLost:
            return PanelError(.unreachable, failureReason: "\(host):\(port) refused the TLS handshake.", detail: detail)
        default: return PanelError(.unknown, detail: detail)
        }
    }
}
