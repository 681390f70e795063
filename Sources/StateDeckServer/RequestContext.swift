import MicroHTTP

/// What the deck's routes and their middlewares know of a request beyond the request itself,
/// made once as it is routed (Hummingbird 2's request context): who asks.
struct RequestContext: Sendable {
    /// Who asks, and whom an action is signed by: the caller another server of the deck vouched
    /// for when it let the request in (``ForwardedAction/performedFor``: a forwarded request carries
    /// no credentials), else the one this server's gate identified, else ``Caller/unknown``.
    let caller: Caller

    /// The context of `request` as `gate` sees it.
    init(_ request: HTTPRequest, gate: RequestGate) {
        caller = ForwardedAction.performedFor ?? gate.caller(of: request) ?? .unknown
    }
}
