import MicroHTTP

/// Puts the `RequestGate` in front of the routes. The security headers go on every answer through
/// the transport (`HTTPServer.Configuration.standardHeaders`), so its own refusals carry them too.
struct SecureResponder: HTTPResponder {
    let gate: RequestGate
    let routes: any HTTPResponder

    func respond(to request: HTTPRequest) -> HTTPReply {
        if let answer = gate.intercept(request) {
            return .response(answer)
        }
        return routes.respond(to: request)
    }

    /// A strict policy the page is written for: its own scripts and styles only, no inline
    /// code, no framing, no sniffing, no referrer, nothing loaded across origins.
    static let headers: [(name: String, value: String)] = [
        ("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]
}
