/// Why `HTTPServer.start()` failed.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A configuration value out of range, named in the message.
    case invalidConfiguration(String)
    /// `getaddrinfo` could not resolve the host.
    case cannotResolve(host: String, reason: String)
    /// libmicrohttpd could not start, e.g. the port is taken; `reason` is the errno text.
    case cannotStart(host: String, port: Int, reason: String)
    /// `start()` was already called on this server.
    case alreadyStarted

    public var description: String {
        switch self {
        case .invalidConfiguration(let message):
            "invalid HTTP server configuration: \(message)"
        case .cannotResolve(let host, let reason):
            "cannot resolve host \(host): \(reason)"
        case .cannotStart(let host, let port, let reason):
            "cannot listen on \(host.contains(":") ? "[\(host)]" : host):\(port): \(reason)"
        case .alreadyStarted:
            "the HTTP server was already started"
        }
    }
}
