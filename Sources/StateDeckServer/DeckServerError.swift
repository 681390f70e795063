/// Why a ``DeckServer`` refuses a configuration before binding anything.
public enum DeckServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The dashboard would be reachable from other machines with no token to guard it.
    case tokenRequired(host: String)

    public var description: String {
        switch self {
        case .tokenRequired(let host):
            "serving on \(host) exposes the dashboard to the network, so it needs a token: set "
                + "ServerConfiguration.token (AccessToken.generate(), or AccessToken.read(from:) for a file "
                + "of mode 0600) or ServerConfiguration.access (an AccessList), or serve on 127.0.0.1"
        }
    }
}
