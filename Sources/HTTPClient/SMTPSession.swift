import Locking

/// An SMTP session with a mail server, made to read its greeting, its EHLO extensions and, after
/// STARTTLS, its certificate: no mail is sent.
public struct SMTPSessionRequest: Sendable {
    /// The name or address connected to, and checked against the certificate.
    public var host: String
    public var port: Int
    /// Upgrades the session with STARTTLS, failing when the server does not offer it.
    public var startsTLS: Bool
    /// The whole session's limit, and that of each reply.
    public var timeout: Duration
    /// A PEM file of the roots to trust instead of the system's, nil for the system's.
    public var trustedRoots: String?

    public init(host: String, port: Int = 25, startsTLS: Bool = true, timeout: Duration = .seconds(10),
                trustedRoots: String? = nil) {
        self.host = host
        self.port = port
        self.startsTLS = startsTLS
        self.timeout = timeout
        self.trustedRoots = trustedRoots
    }

    /// What a transfer needs of a session: whether to upgrade it, and where the server's reply
    /// lines go as they come (the header callback's), kept whatever the session comes to.
    struct Session: Sendable {
        let startsTLS: Bool
        let replies = Locked<[String]>([])
    }
}

/// What a session found: the server's reply lines in order, and its certificate when the
/// session was upgraded.
public struct SMTPSession: Sendable, Hashable {
    /// Every line the server sent, without line ends: the greeting, the replies to EHLO, STARTTLS
    /// (then EHLO again), NOOP and QUIT.
    public var replies: [String]
    public var certificate: PeerCertificate?
    /// Nil when the certificate is trusted for the host, or there is none.
    public var problem: CertificateProblem?
    /// libcurl's words for the problem (OpenSSL's, for a chain), empty when there is none.
    public var message: String

    public init(replies: [String], certificate: PeerCertificate? = nil, problem: CertificateProblem? = nil,
                message: String = "") {
        self.replies = replies
        self.certificate = certificate
        self.problem = problem
        self.message = message
    }
}

/// A session that failed, with the lines the server sent before it did: a greeting that refuses,
/// or a list of extensions without STARTTLS, tells more than libcurl's words.
public struct SMTPSessionError: Error, Sendable, Equatable {
    public var error: HTTPClientError
    public var replies: [String]

    public init(_ error: HTTPClientError, replies: [String]) {
        self.error = error
        self.replies = replies
    }
}

extension HTTPClientRequest {
    /// The reply lines of its mail session so far.
    fileprivate var replies: [String] { mailSession?.replies.current ?? [] }
}

extension HTTPClient {
    /// Connects to `request`'s mail server with libcurl on the engine's thread: its greeting,
    /// `EHLO`, then, when asked, `STARTTLS` and the handshake verifying its certificate, `EHLO`
    /// again, `NOOP` and `QUIT`.
    ///
    /// As `handshake` does, a session whose certificate is not trusted is made again without
    /// verification to read it; the first's result says why.
    public static func greet(_ request: SMTPSessionRequest) async throws(SMTPSessionError) -> SMTPSession {
        let engine: HTTPEngine
        do { engine = try HTTPEngine.shared.get() } catch { throw SMTPSessionError(error, replies: []) }
        let authority = request.host.contains(":") ? "[\(request.host)]" : request.host
        var exchange = HTTPClientRequest(url: "smtp://\(authority):\(request.port)", timeout: request.timeout)
        exchange.readsCertificate = request.startsTLS
        exchange.trustedRoots = request.trustedRoots
        exchange.mailSession = SMTPSessionRequest.Session(startsTLS: request.startsTLS)
        do throws(HTTPClientError) {
            let answer = try await engine.send(exchange, waiting: { _ in })
            return SMTPSession(replies: exchange.replies, certificate: answer.certificate)
        } catch let rejection where rejection.certificateProblem != nil {
            let first = exchange.replies
            exchange.verifiesPeer = false
            exchange.mailSession = SMTPSessionRequest.Session(startsTLS: true)
            let answer: HTTPClientResponse
            do { answer = try await engine.send(exchange, waiting: { _ in }) } catch {
                throw SMTPSessionError(error, replies: exchange.replies)
            }
            guard let certificate = answer.certificate else { throw SMTPSessionError(rejection, replies: first) }
            return SMTPSession(replies: exchange.replies, certificate: certificate,
                               problem: rejection.certificateProblem, message: rejection.message)
        } catch {
            throw SMTPSessionError(error, replies: exchange.replies)
        }
    }
}
