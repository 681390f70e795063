import FoundationEssentials

/// The headers on every answer of the server, its transport's own refusals included
/// (`HTTPServer.Configuration.standardHeaders`). Stated here once: the server sends these, and the
/// tests compare what it sends with these.
enum SecurityHeaders {
    /// A strict policy the page is written for: its own scripts and styles only, no inline code,
    /// nothing loaded across origins, no framing, no form sent anywhere (the page has none). The
    /// page carries no policy of its own: a second copy in a `<meta>` tag, which the browser
    /// would enforce beside this one, could only drift from it, and `frame-ancestors` works in
    /// the header alone.
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
        "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'none'",
        "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// The status page's own policy, as strict: its own script and style, no inline code, images
    /// from itself and the page's logo's origin alone (`logo`, an https URL), nothing else loaded,
    /// no framing, no form.
    static func statusPolicy(logo: String?) -> String {
        let logoOrigin = logo.flatMap(URL.init(string:)).flatMap { url in
            url.host.map { host in "https://\(host)" + (url.port.map { ":\($0)" } ?? "") }
        }
        return [
            "default-src 'none'", "script-src 'self'", "style-src 'self'",
            "img-src 'self' data:" + (logoOrigin.map { " " + $0 } ?? ""), "connect-src 'self'",
            "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    /// Every header with its value: the policy, and no sniffing, no referrer, no framing and no
    /// reading of the answers from another origin.
    static let all: [(name: String, value: String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]
}
