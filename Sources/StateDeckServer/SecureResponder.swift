import MicroHTTP

/// Puts the `RequestGate` in front of the routes and the security headers on every answer.
struct SecureResponder: HTTPResponder {
    let gate: RequestGate
    let routes: any HTTPResponder

    func respond(to request: HTTPRequest) -> HTTPReply {
        if let answer = gate.intercept(request) {
            return .response(Self.hardened(answer))
        }
        switch routes.respond(to: request) {
        case .response(let response):
            return .response(Self.hardened(response))
        case .deferred(let work):
            return .deferred { Self.hardened(await work()) }
        }
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

    static func hardened(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        for header in headers {
            response.headers.set(header.name, header.value)
        }
        return response
    }
}
