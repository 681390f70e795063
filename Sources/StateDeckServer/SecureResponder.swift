import MicroHTTP

/// Puts the `RequestGate` in front of the routes. The security headers (``SecurityHeaders``) go on
/// every answer through the transport (`HTTPServer.Configuration.standardHeaders`), so its own
/// refusals carry them too.
///
/// A static file is answered from the request's head when the gate has nothing to check but
/// `Host`: the same answer, without the request's headers copied or its target parsed and
/// routed, which is most of what a request costs (docs/PERFORMANCE-FINDINGS.md, finding f).
struct SecureResponder: HTTPResponder {
    let gate: RequestGate
    let routes: Router
    /// The files `routes` falls back to, minus the paths a route or the gate claims: answered
    /// on the fast path when the gate has only `Host` to check.
    private let headFiles: StaticFiles

    /// `files` must be what `routes` falls back to.
    init(gate: RequestGate, routes: Router, files: StaticFiles) {
        self.gate = gate
        self.routes = routes
        // Only a path the full way would take to the files may skip it.
        headFiles = files.answeringHeads { routes.hasRoute(for: $0) || RequestGate.holdsLiveState($0) }
    }

    func respond(to request: HTTPRequest) -> HTTPReply {
        if let answer = gate.intercept(request) {
            return .response(answer)
        }
        return routes.respond(to: request)
    }

    func respond(toHead head: RequestHead) -> HTTPResponse? {
        // The file first: most requests that are not for a file are turned away by its lookup alone.
        guard let answer = headFiles.respond(toHead: head), gate.admitsOnHost(head) else { return nil }
        return answer
    }
}
