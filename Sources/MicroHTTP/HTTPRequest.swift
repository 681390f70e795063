/// One request as the responder sees it: the raw target plus its decoded parts.
public struct HTTPRequest: Sendable {
    public let method: HTTPMethod
    /// The request target exactly as received (path and query, still percent-encoded).
    public let target: String
    /// The path split on `/` (after the leading one), each segment percent-decoded exactly once,
    /// so `%2F` stays inside its segment and `%2e%2e` is the segment `..`, never a traversal.
    /// `/` is `[""]`; a trailing slash adds an empty segment.
    public let pathSegments: [String]
    public let query: QueryItems
    /// The authority of an absolute-form target (`GET http://host:port/path`), which stands in
    /// for `Host`; nil for the usual origin-form target.
    public let authority: String?
    public let headers: HTTPHeaders
    public let body: [UInt8]
    /// Where the request came from: the connection's peer, as the transport reads it; nil for a
    /// request made in the process (a test, an action forwarded within a cluster).
    public let client: ClientAddress?

    /// Parses `target`; throws when it is neither origin-form (`/…`) nor absolute-form
    /// (`http://host/…`), has a malformed `%` escape, or decodes to something that is not UTF-8.
    /// The server answers those with 400 before routing.
    public init(
        method: HTTPMethod,
        target: String,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        client: ClientAddress? = nil
    ) throws(TargetError) {
        let parsed = try RequestTarget(parsing: target)
        self.method = method
        self.target = target
        self.pathSegments = parsed.pathSegments
        self.query = parsed.query
        self.authority = parsed.authority
        self.headers = headers
        self.body = body
        self.client = client
    }

    /// The decoded segments joined with `/`: for logs and messages; route on `pathSegments`,
    /// since a decoded `%2F` makes this ambiguous.
    public var path: String {
        "/" + pathSegments.joined(separator: "/")
    }
}
