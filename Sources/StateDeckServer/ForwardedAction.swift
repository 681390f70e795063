import MicroHTTP

/// An action (retry, recover, an item's action, a debug state) sent to a server that does not
/// run the deck, on its way to the one that does: the request as it came, once the receiving
/// server's gate let it in, and who the gate said sent it, whose name the audit entry is signed
/// with where the action runs.
public struct ForwardedAction: Sendable, Equatable {
    public var method: String
    public var target: String
    public var body: [UInt8]
    public var caller: Caller

    public init(method: String, target: String, body: [UInt8], caller: Caller) {
        self.method = method
        self.target = target
        self.body = body
        self.caller = caller
    }

    /// The request as it came, to run here: its body is JSON, as every action's is.
    func request() throws -> HTTPRequest {
        try HTTPRequest(method: HTTPMethod(rawValue: method), target: target, headers: ["Content-Type": "application/json"], body: body)
    }

    /// The caller of the forwarded action being performed here, while its routes run it: its
    /// ``RequestContext`` takes it for who asks rather than whoever this server's own gate would
    /// see (nobody: a forwarded request carries no credentials). Nil for a request this server's
    /// own gate let in.
    @TaskLocal public static var performedFor: Caller?

    /// The answer where the deck runs, as the route gave it.
    public struct Answer: Sendable, Equatable {
        public var status: Int
        public var body: [UInt8]

        public init(status: Int, body: [UInt8]) {
            self.status = status
            self.body = body
        }

        /// An error answer in PROTOCOL.md's shape: `{"error": {"code", "message"}}`.
        public static func error(_ status: Int, code: String, message: String) -> Answer {
            Answer(response: .error(HTTPStatus(rawValue: status), code: code, message: message))
        }

        /// The answer as this server gives it, in the API's shape.
        var response: HTTPResponse {
            .api(HTTPStatus(rawValue: status), body)
        }

        /// `response`'s status and body (a stream answers with none).
        init(response: HTTPResponse) {
            status = response.status.rawValue
            body = switch response.body {
            case .bytes(let bytes): bytes
            case .shared(let shared): shared.bytes
            case .stream: []
            }
        }
    }
}
