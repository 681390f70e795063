import MicroHTTP

/// The middlewares a kind of route runs through, outermost first: what the server's host needs
/// of its actions and reads, which a server alone goes without (an empty chain).
struct MiddlewareChain: Sendable {
    let middlewares: [any RouteMiddleware]

    init(_ middlewares: [any RouteMiddleware] = []) {
        self.middlewares = middlewares
    }

    /// The answer to `request`: the first middleware's, which the route's may be.
    func respond(to request: HTTPRequest, context: RequestContext,
                 route: (HTTPRequest, RequestContext) async throws -> HTTPResponse) async throws -> HTTPResponse {
        try await respond(to: request, context: context, from: middlewares[...], route: route)
    }

    private func respond(to request: HTTPRequest, context: RequestContext, from rest: ArraySlice<any RouteMiddleware>,
                         route: (HTTPRequest, RequestContext) async throws -> HTTPResponse) async throws -> HTTPResponse {
        guard let middleware = rest.first else { return try await route(request, context) }
        return try await middleware.handle(request, context: context) { request, context in
            try await respond(to: request, context: context, from: rest.dropFirst(), route: route)
        }
    }
}
