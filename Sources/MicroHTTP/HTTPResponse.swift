/// What the server sends back: a status, headers, and either bytes or a stream.
///
/// libmicrohttpd adds `Content-Length` (or chunked framing for streams) itself and sends no
/// body for HEAD, so a HEAD answer built like its GET twin carries the right `Content-Length`.
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        /// Bytes many answers send unchanged; see `SharedBytes`.
        case shared(SharedBytes)
        /// Sent chunked as it is written, until the stream finishes or the client leaves.
        case stream(ResponseStream)
    }

    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
