import MicroHTTP

/// Answers an action the route took with the host's refusal while what it changed may not outlive
/// this server (``DeckHost/settled()``): answered as done, it might be lost. An action the route
/// refused by throwing changed nothing, and its error is answered.
struct SettledCheck: RouteMiddleware {
    let host: any DeckHost

    func handle(_ request: HTTPRequest, context: RequestContext,
                next: (HTTPRequest, RequestContext) async throws -> HTTPResponse) async throws -> HTTPResponse {
        let response = try await next(request, context)
        if let refusal = await host.settled() { return refusal.response }
        return response
    }
}
