import FoundationEssentials
import HTTPClient
import StateDeck

/// Checks a mail server: its greeting, its extensions (`EHLO`) and, with `startsTLS`, the upgrade
/// to TLS (`STARTTLS`) with the certificate checks of a tls panel; then `NOOP` and `QUIT`. No mail
/// is sent.
///
/// libcurl holds the session, on the http engine's thread (`HTTPClient.greet`): it already speaks
/// SMTP and upgrades with STARTTLS, and verifies against the same roots as an http or tls panel,
/// so a mail panel costs no thread and no TLS code of its own.
public struct SMTPSource: Sendable, Hashable {
    /// A name or an address, which the certificate must be for.
    public var host: String
    public var port: Int
    /// Upgrades with STARTTLS and checks the certificate; a server that does not offer it fails.
    public var startsTLS: Bool
    /// A certificate expiring sooner fails with `certificateExpiring`.
    public var validFor: Duration
    /// The session's limit, and each reply's.
    public var timeout: Duration
    /// A PEM file of roots trusted instead of the system's: a private CA's.
    public var trustedRoots: String?

    public init(host: String, port: Int = 25, startsTLS: Bool = true, validFor: Duration = .seconds(14 * 86_400),
                timeout: Duration = .seconds(10), trustedRoots: String? = nil) {
        self.host = host
        self.port = port
        self.startsTLS = startsTLS
        self.validFor = validFor
        self.timeout = timeout
        self.trustedRoots = trustedRoots
    }

    /// One session (two when the certificate is not trusted, to read it); throws a `PanelError`,
    /// or `CancellationError` at once when the task is cancelled.
    public func load() async throws -> Info {
        let request = SMTPSessionRequest(host: host, port: port, startsTLS: startsTLS, timeout: timeout,
                                         trustedRoots: trustedRoots)
        let session: SMTPSession
        do {
            session = try await HTTPClient.greet(request)
        } catch {
            throw try failure(for: error)
        }
        guard let replies = SMTPReply.replies(in: session.replies), let greeting = replies.first else {
            throw notSMTP(session.replies, detail: address)
        }
        let now = Int(Date().timeIntervalSince1970)
        if let certificate = session.certificate {
            if let problem = session.problem {
                throw PanelError.untrusted(certificate, problem, name: host, detail: "\(address): \(session.message)")
            }
            try certificate.check(validFor: validFor, name: host, now: now, detail: address)
        }
        // The last reply of several lines is EHLO's (after STARTTLS, the second's); NOOP's and
        // QUIT's come after it, one line each, as does an EHLO's that lists no extension.
        let extensions = replies.last { $0.code == 250 && $0.texts.count > 1 }?.extensions ?? [:]
        return info(greeting: greeting, extensions: extensions, certificate: session.certificate, now: now)
    }

    /// "Ready, certificate valid for 41 more days"; Server, Size limit, STARTTLS, Authentication and,
    /// after STARTTLS, Expires. Whole days only, as a tls panel shows them.
    func info(greeting: SMTPReply, extensions: [String: String], certificate: PeerCertificate?, now: Int) -> Info {
        let size = extensions["SIZE"].map { Self.sizeText($0) } ?? "Not told"
        let mechanisms = extensions["AUTH"].map { $0.isEmpty ? "Offered" : $0 } ?? "Not offered"
        var fields = [Info.Field("Server", greeting.texts.first ?? ""), Info.Field("Size limit", size),
                      Info.Field("STARTTLS", startsTLS || extensions["STARTTLS"] != nil ? "Yes" : "No"),
                      Info.Field("Authentication", mechanisms)]
        if let certificate { fields.append(Info.Field("Expires", certificate.expiryDate)) }
        let summary = certificate.map { "Ready, certificate valid for \($0.daysLeft(now: now).counted("more day"))" } ?? "Ready"
        return Info(summary: summary, fields: fields)
    }

    /// "32 MiB", "500 bytes", "No limit" (0), from SIZE's parameter in bytes.
    static func sizeText(_ parameter: String) -> String {
        guard let bytes = Int(parameter.trimmed()) else { return parameter.isEmpty ? "Not told" : parameter }
        if bytes == 0 { return "No limit" }
        return bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : bytes.counted("byte")
    }

    /// "mail.example.com:25", for a card's detail.
    var address: String { "\(host):\(port)" }

    /// The card of a session that failed.
    ///
    /// - Throws: `CancellationError` when the session was cancelled.
    func failure(for failure: SMTPSessionError) throws(CancellationError) -> PanelError {
        let error = failure.error
        let detail = "\(address): \(error.message)"
        if error.reason == .cancelled { throw CancellationError() }
        guard let replies = SMTPReply.replies(in: failure.replies) else { return notSMTP(failure.replies, detail: detail) }
        if let greeting = replies.first, greeting.code >= 400 {
            let why = greeting.code < 500 ? "turns sessions away for now" : "refuses SMTP sessions"
            return PanelError(.serverError, failureReason: "\(address) \(why): \(greeting.written.excerpt(limit: 200))",
                              detail: "\(address) greeted: \(greeting.written)")
        }
        if let failure = try PanelError.connection(error, host: host, port: port, timeout: timeout, detail: detail) {
            return failure
        }
        // libcurl's CURLE_USE_SSL_FAILED: STARTTLS not offered, or refused.
        if startsTLS, error.reason == .other, let ehlo = replies.dropFirst().first(where: { $0.code == 250 }) {
            if ehlo.extensions["STARTTLS"] == nil {
                return PanelError(.checkFailed, failureReason: "\(address) does not offer STARTTLS.",
                                  recoverySuggestion: "Turn STARTTLS on in the mail server, or set starttls: false on the panel.",
                                  detail: "\(address): EHLO lists \(ehlo.extensions.keys.sorted().joined(separator: ", "))")
            }
            if let refusal = replies.last, refusal.code >= 400 {
                return PanelError(.checkFailed, failureReason: "\(address) refused STARTTLS: \(refusal.written.excerpt(limit: 200))",
                                  detail: detail)
            }
        }
        switch error.reason {
        case .certificateRejected(let problem):
            return PanelError(.certificateUntrusted, failureReason: "\(host)'s certificate is not trusted: \(problem.reason).",
                              detail: detail)
        case .insecure:
            return PanelError(.unreachable, failureReason: "\(address) failed the TLS handshake after STARTTLS.", detail: detail)
        case .connectionLost:
            return PanelError(.unreachable, failureReason: "\(address) closed the connection mid-session.", detail: detail)
        case .invalidAnswer:
            return PanelError(.invalidResponse, failureReason: "\(address) answered something SMTP does not.", detail: detail)
        default:
            return PanelError(.unknown, detail: detail)
        }
    }

    /// The card of a server whose first line is not an SMTP reply: another service on the port.
    private func notSMTP(_ lines: [String], detail: String) -> PanelError {
        let first = lines.first.map { ": it greets with \($0.excerpt(limit: 100).quoted)" } ?? ""
        return PanelError(.invalidResponse, failureReason: "\(address) is not an SMTP server\(first).",
                          recoverySuggestion: "Check the host and port: SMTP is 25, 587 for submission.",
                          detail: detail)
    }
}
