/// Why a request got no answer.
public struct HTTPClientError: Error, Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The task sending it was cancelled.
        case cancelled
        case timedOut
        /// The host name did not resolve.
        case unresolved
        /// Nothing accepts connections at the address.
        case refused
        /// The system has no route to the address (no network).
        case noRoute
        case connectFailed
        /// The system refused to connect (EACCES, EPERM): a unix socket the process may not open
        /// (its permissions, or a folder's on its path), or a local firewall rule.
        case permissionDenied
        /// No unix socket at the path given (ENOENT): the service that makes it is not running.
        case noSocket
        /// TLS failed: the handshake, or a certificate of the client.
        case insecure
        /// The server's certificate is not trusted, or not for the name connected to.
        case certificateRejected(CertificateProblem)
        /// The connection broke before a whole answer came.
        case connectionLost
        /// What came back is not valid HTTP, or redirects went round in circles.
        case invalidAnswer
        case bodyTooLarge
        /// The status line and headers are longer than the request's `maxHeaderSize`, or one
        /// header is longer than libcurl takes.
        case headersTooLarge
        /// More header fields than the request's `maxHeaderCount`.
        case tooManyHeaders
        /// Not an http or https URL, or not a URL at all.
        case badURL
        /// A header name that is not a token, or a value with a line break (`HTTPFieldSyntax`).
        case badHeader
        case other
    }

    public var reason: Reason
    /// libcurl's words for it, for a card's detail.
    public var message: String

    public init(_ reason: Reason, message: String) {
        self.reason = reason
        self.message = message
    }

    /// Why the server's certificate was rejected, nil for any other failure.
    public var certificateProblem: CertificateProblem? {
        if case .certificateRejected(let problem) = reason { return problem }
        return nil
    }
}
