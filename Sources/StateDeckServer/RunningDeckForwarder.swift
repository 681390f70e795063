import MicroHTTP

/// Sends a request to the server that runs the deck while this one does not (its host runs it
/// elsewhere), with the caller of its context, and answers with what came back: the answer of
/// the process running the deck, signed there with that caller, or the host's when none does.
/// While this server runs the deck the request goes on to its route.
struct RunningDeckForwarder: RouteMiddleware {
    let host: any DeckHost

    func handle(_ request: HTTPRequest, context: RequestContext,
                next: (HTTPRequest, RequestContext) async throws -> HTTPResponse) async throws -> HTTPResponse {
        guard !host.isRunningDeck else { return try await next(request, context) }
        let action = ForwardedAction(method: request.method.rawValue, target: request.target, body: request.body,
                                     caller: context.caller)
        return await host.forward(action).response
    }
}
