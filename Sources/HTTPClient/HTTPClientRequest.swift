/// What `HTTPClient.send` sends, and the limits it keeps to.
public struct HTTPClientRequest: Sendable {
    /// An http or https URL; redirects are followed within http and https.
    public var url: String
    public var method: String
    /// Sent as given, in order.
    public var headers: [(name: String, value: String)]
    /// Sent with `Content-Length`; methods other than GET and HEAD send an empty one when nil.
    public var body: [UInt8]?
    /// The whole exchange's limit: name resolution, connecting, redirects and the body.
    public var timeout: Duration
    /// An answer whose body is longer fails with `HTTPClientError.Reason.bodyTooLarge`.
    public var maxBodySize: Int

    public init(
        url: String, method: String = "GET", headers: [(name: String, value: String)] = [],
        body: [UInt8]? = nil, timeout: Duration = .seconds(10), maxBodySize: Int = 1 << 20
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxBodySize = maxBodySize
    }
}
