/// Matches method + path pattern to a handler; answers 404 / 405 in the JSON error shape.
///
/// Patterns are literal segments and `{name}` segments (one non-empty decoded segment), e.g.
/// `/api/panels/{id}/retry`; `{name}.svg` takes a segment ending in `.svg`, without it, as `name`.
/// Routes are tried in registration order; HEAD is served by GET routes.
public struct Router: HTTPResponder {
    public typealias Handler = @Sendable (HTTPRequest, RouteParameters) -> HTTPReply

    private struct Route {
        let method: HTTPMethod
        /// The pattern as registered, such as `/api/panels/{id}`.
        let path: String
        let pattern: RoutePattern
        let handler: Handler
    }

    /// Routes by the number of path segments they match (the index), each list in registration
    /// order: a request is tried only against routes of its own length.
    private var routesBySegmentCount: [[Route]] = []
    private let fallback: Handler?

    /// `fallback` answers paths no route matches (static files); without it they get 404.
    public init(fallback: Handler? = nil) {
        self.fallback = fallback
    }

    /// Adds a route. `pattern` must start with `/`.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        let route = Route(method: method, path: pattern, pattern: RoutePattern(pattern), handler: handler)
        let count = route.pattern.segmentCount
        if routesBySegmentCount.count <= count {
            routesBySegmentCount += Array(repeating: [], count: count + 1 - routesBySegmentCount.count)
        }
        routesBySegmentCount[count].append(route)
    }

    /// Every route's method and pattern as registered (`GET /api/panels/{id}`), shortest patterns
    /// first: what a description of the API must list.
    public var routes: [(method: HTTPMethod, pattern: String)] {
        routesBySegmentCount.joined().map { ($0.method, $0.path) }
    }

    /// Whether some route's pattern matches `pathSegments`, whatever its method: the paths that
    /// never reach the fallback.
    public func hasRoute(for pathSegments: [String]) -> Bool {
        let count = pathSegments.count
        return count < routesBySegmentCount.count && routesBySegmentCount[count].contains { $0.pattern.match(pathSegments) != nil }
    }

    public func respond(to request: HTTPRequest) -> HTTPReply {
        var allowed: [HTTPMethod] = []
        let count = request.pathSegments.count
        for route in count < routesBySegmentCount.count ? routesBySegmentCount[count] : [] {
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
