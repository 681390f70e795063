/// What `HTTPClient.send` sends, and the limits it keeps to.
public struct HTTPClientRequest: Sendable {
    /// An http or https URL; redirects are followed within http and https.
    public var url: String
    public var method: String
    /// Sent as given, in order.
    public var headers: [(name: String, value: String)]
    /// Sent with `Content-Length`; methods other than GET and HEAD send an empty one when nil.
    public var body: [UInt8]?
    /// The whole exchange's limit: name resolution, connecting, redirects and the body; counted
    /// from the request's turn, not while it waits behind the engine's limits.
    public var timeout: Duration
    /// An answer whose body is longer fails with `HTTPClientError.Reason.bodyTooLarge`.
    public var maxBodySize: Int
    /// An answer whose status line and headers are longer fails with
    /// `HTTPClientError.Reason.headersTooLarge`, as does one header longer than libcurl takes
    /// (`CURL_MAX_HTTP_HEADER`, 100 KiB), whatever this limit.
    public var maxHeaderSize: Int
    /// An answer with more header fields fails with `HTTPClientError.Reason.tooManyHeaders`.
    public var maxHeaderCount: Int
    /// Reads the server's certificate into the answer, when there is a handshake (`https`).
    public var readsCertificate = false
    /// Completes the handshake on a fresh connection, reads the certificate and closes it,
    /// sending no HTTP (`CURLOPT_CONNECT_ONLY`): what `HTTPClient.handshake` sends.
    var handshakeOnly = false
    /// Off only to read a certificate already rejected, in `HTTPClient.handshake`.
    var verifiesPeer = true
    /// A PEM file of the roots to trust instead of the system's (`CURLOPT_CAINFO`).
    public var trustedRoots: String?
    /// `CURLOPT_CONNECT_TO`'s `name:port:host:port`: connect to `host` while sending and checking
    /// `name`.
    var connectTo: String?
    /// A unix socket to connect to instead of the URL's host and port (`CURLOPT_UNIX_SOCKET_PATH`),
    /// such as the Docker engine's `/var/run/docker.sock`. The URL still gives the path and the
    /// `Host` header (`http://localhost/containers/api/json`). Requests to one socket wait in one
    /// line behind the limit per host.
    public var unixSocketPath: String?
    /// HTTP/2 from the first byte (`CURLOPT_HTTP_VERSION`, `CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE`):
    /// over http without asking to upgrade (h2c), as a gRPC server expects; over https offered in
    /// the handshake (ALPN), a server that does not take it answered in HTTP/1.1. The trailers
    /// HTTP/2 sends after the body follow the headers in the answer's `headers`.
    public var http2PriorKnowledge = false
    /// An SMTP session at an `smtp://` URL instead of an HTTP exchange: what `HTTPClient.greet`
    /// sends.
    var mailSession: SMTPSessionRequest.Session?

    public init(
        url: String, method: String = "GET", headers: [(name: String, value: String)] = [],
        body: [UInt8]? = nil, timeout: Duration = .seconds(10), maxBodySize: Int = 1 << 20,
        maxHeaderSize: Int = 64 << 10, maxHeaderCount: Int = 500
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxBodySize = maxBodySize
        self.maxHeaderSize = maxHeaderSize
        self.maxHeaderCount = maxHeaderCount
    }
}
