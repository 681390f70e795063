/// A request as it stands when its headers are in and before any body: what
/// `HTTPResponder.respond(toHead:)` answers from. Headers are looked up as asked, in the request
/// libmicrohttpd parsed, instead of all copied, which is what makes that answer cheap.
public struct RequestHead {
    public let method: HTTPMethod
    /// The request target exactly as received (path and query, still percent-encoded).
    public let target: String
    private let fields: Fields

    private enum Fields {
        case connection(Connection)
        case copied(HTTPHeaders)
    }

    /// A head whose headers are given: for testing a responder without a server.
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders()) {
        self.method = method
        self.target = target
        fields = .copied(headers)
    }

    init(method: HTTPMethod, target: String, connection: Connection) {
        self.method = method
        self.target = target
        fields = .connection(connection)
    }

    /// The first value of the header `name` (case-insensitive), or nil. Names are literals, so
    /// libmicrohttpd is asked with their bytes as they are.
    public subscript(header name: StaticString) -> String? {
        switch fields {
        case .connection(let connection): connection.requestHeader(name)
        case .copied(let headers): headers[name.description]
        }
    }

    /// Whether the first value of the header `name` is one of `values`: cheaper than reading
    /// it, since no string is made of it.
    public func header(_ name: StaticString, isOneOf values: [String]) -> Bool {
        switch fields {
        case .connection(let connection): connection.requestHeader(name, isOneOf: values)
        case .copied(let headers): headers[name.description].map(values.contains) ?? false
        }
    }
}
