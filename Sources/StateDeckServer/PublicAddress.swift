/// An address people open the dashboard at that is not the server's own: a load balancer or
/// reverse proxy in front of it (`--public-url https://status.example`). The gate then accepts its
/// `Host` and its page's `Origin` as the server's own.
public struct PublicAddress: Sendable, Equatable {
    /// `Host` as a browser sends it: the port left out when it is the scheme's default.
    public let host: String
    /// `Origin` as a browser sends it.
    public let origin: String

    /// Reads `url`, `http://` or `https://` with a host, an optional port and nothing else.
    public init(parsing url: String) throws(Invalid) {
        let lowered = url.lowercased()
        let scheme: String
        let defaultPort: String
        if lowered.hasPrefix("http://") {
            (scheme, defaultPort) = ("http", "80")
        } else if lowered.hasPrefix("https://") {
            (scheme, defaultPort) = ("https", "443")
        } else {
            throw Invalid(url: url, reason: "it must start with http:// or https://")
        }
        var authority = String(lowered.dropFirst(scheme.count + 3))
        if authority.hasSuffix("/") { authority.removeLast() }
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ ".contains($0) }) else {
            throw Invalid(url: url, reason: "give only the scheme, the host and a port, as a browser's address bar shows them")
        }
        let portStart = authority.lastIndex(of: ":").flatMap { authority.hasSuffix("]") ? nil : $0 }
        if let portStart {
            let port = authority[authority.index(after: portStart)...]
            guard let number = Int(port), (1...65_535).contains(number) else {
                throw Invalid(url: url, reason: "its port must be a number from 1 to 65535")
            }
            if port == defaultPort { authority = String(authority[..<portStart]) }
        }
        host = authority
        origin = "\(scheme)://\(authority)"
    }

    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public let url: String
        public let reason: String
        public var description: String { "--public-url \(url): \(reason)" }
    }
}
