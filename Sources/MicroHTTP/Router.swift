/// Matches method + path pattern to a handler; answers 404 / 405 in the JSON error shape.
///
/// Patterns are literal segments and `{name}` segments (one non-empty decoded segment), e.g.
/// `/api/panels/{id}/retry`. Routes are tried in registration order; HEAD is served by GET routes.
public struct Router: HTTPResponder {
    public typealias Handler = @Sendable (HTTPRequest, RouteParameters) -> HTTPReply

    private struct Route {
        let method: HTTPMethod
        let pattern: RoutePattern
        let handler: Handler
    }

    private var routes: [Route] = []
    private let fallback: Handler?

    /// `fallback` answers paths no route matches (static files); without it they get 404.
    public init(fallback: Handler? = nil) {
        self.fallback = fallback
    }

    /// Adds a route. `pattern` must start with `/`.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method, pattern: RoutePattern(pattern), handler: handler))
    }

    public func respond(to request: HTTPRequest) -> HTTPReply {
        var allowed: [HTTPMethod] = []
        for route in routes {
            guard let parameters = route.pattern.match(request.pathSegments) else { continue }
            if route.method == request.method || (request.method == .head && route.method == .get) {
                return route.handler(request, parameters)
            }
            let methods = route.method == .get ? [HTTPMethod.get, .head] : [route.method]
            allowed += methods.filter { !allowed.contains($0) }
        }
        if !allowed.isEmpty {
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            var response = HTTPResponse.error(
                .methodNotAllowed, code: "method_not_allowed",
                message: "\(request.method) is not allowed on \(request.path); allowed: \(list)")
            response.headers.set("Allow", list)
            return .response(response)
        }
        if let fallback {
            return fallback(request, RouteParameters())
        }
        return .response(.error(.notFound, code: "not_found", message: "nothing at \(request.path)"))
    }
}
