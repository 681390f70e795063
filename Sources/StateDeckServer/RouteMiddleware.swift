import MicroHTTP

/// A step between a request and its route, as Hummingbird 2's `RouterMiddleware`: it answers for
/// the route, or hands the request on to `next` (the rest of the chain, then the route) and may
/// answer otherwise once `next` has. What it throws, or lets through from `next`, becomes the
/// error's JSON answer.
protocol RouteMiddleware: Sendable {
    func handle(_ request: HTTPRequest, context: RequestContext,
                next: (HTTPRequest, RequestContext) async throws -> HTTPResponse) async throws -> HTTPResponse
}
