/// A TLS handshake with a server, made to read its certificate and nothing else.
public struct TLSHandshakeRequest: Sendable {
    /// The name or address connected to.
    public var host: String
    public var port: Int
    /// The name sent (SNI) and checked against the certificate; nil for `host`.
    public var serverName: String?
    /// The limit of each of the (at most two) handshakes.
    public var timeout: Duration
    /// A PEM file of the roots to trust instead of the system's, nil for the system's.
    public var trustedRoots: String?

    public init(host: String, port: Int = 443, serverName: String? = nil, timeout: Duration = .seconds(10),
                trustedRoots: String? = nil) {
        self.host = host
        self.port = port
        self.serverName = serverName
        self.timeout = timeout
        self.trustedRoots = trustedRoots
    }

    /// The name checked against the certificate.
    public var checkedName: String { serverName ?? host }
}

/// What a handshake found: the server's certificate, and whether it is trusted for the name.
public struct TLSHandshake: Sendable, Hashable {
    public var certificate: PeerCertificate
    /// Nil when the chain is trusted and the name matches.
    public var problem: CertificateProblem?
    /// libcurl's words for the problem (OpenSSL's, for a chain), empty when there is none.
    public var message: String

    public init(certificate: PeerCertificate, problem: CertificateProblem? = nil, message: String = "") {
        self.certificate = certificate
        self.problem = problem
        self.message = message
    }
}

extension HTTPClient {
    /// Connects to `request`'s server and completes a TLS handshake, verifying its chain against
    /// the trusted roots and its name, then closes the connection: no HTTP is sent.
    ///
    /// A certificate that is not trusted fails the handshake before libcurl reads it, so a second
    /// one without verification reads it; the first's result says why. libcurl loads the roots
    /// only when it verifies, so one unverified handshake cannot tell both.
    public static func handshake(_ request: TLSHandshakeRequest) async throws(HTTPClientError) -> TLSHandshake {
        let engine = try HTTPEngine.shared.get()
        let name = request.checkedName
        let authority = name.contains(":") ? "[\(name)]" : name
        var exchange = HTTPClientRequest(url: "https://\(authority):\(request.port)/", timeout: request.timeout)
        exchange.handshakeOnly = true
        exchange.trustedRoots = request.trustedRoots
        if request.serverName != nil {
            let host = request.host.contains(":") ? "[\(request.host)]" : request.host
            exchange.connectTo = "\(authority):\(request.port):\(host):\(request.port)"
        }
        do throws(HTTPClientError) {
            let answer = try await engine.send(exchange, waiting: { _ in })
            guard let certificate = answer.certificate else { throw HTTPClientError(.other, message: "libcurl read no certificate") }
            return TLSHandshake(certificate: certificate)
        } catch let rejection where rejection.certificateProblem != nil {
            exchange.verifiesPeer = false
            let answer = try await engine.send(exchange, waiting: { _ in })
            guard let certificate = answer.certificate else { throw rejection }
            return TLSHandshake(certificate: certificate, problem: rejection.certificateProblem, message: rejection.message)
        }
    }
}
