/// The final answer to a request, after any redirects.
public struct HTTPClientResponse: Sendable {
    public var status: Int
    /// The status line's reason phrase as the server sent it; empty over HTTP/2.
    public var reason: String
    /// The header fields in order, then the trailers an HTTP/2 answer sends after its body.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// From the request's turn to the end of the answer, redirects included (libcurl's total
    /// time): time waiting behind the limit per host is not counted.
    public var duration: Duration
    /// The server's certificate, when the request asked for it (`readsCertificate`): the one its
    /// handshake read or, over a connection already open, the last one read from the host.
    public var certificate: PeerCertificate?

    public init(status: Int = 0, reason: String = "", headers: [(name: String, value: String)] = [], body: [UInt8] = [],
                duration: Duration = .zero) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self.duration = duration
    }

    /// The first value of the header field `name`, matched without regard to case.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}
