import FoundationEssentials
import MicroHTTP

/// How the dashboard is served. The defaults are the safe ones: loopback only, debug states off.
public struct ServerConfiguration: Sendable {
    /// The address to bind; anything but loopback exposes the dashboard to the network.
    public var host = "127.0.0.1"
    /// The port to bind; 0 picks a free one.
    public var port = 8080
    /// Whether `/api/debug/...` may force panel states.
    public var debug = false
    /// The folder the page is served from, read at start; nil for the page compiled into the binary.
    public var publicDirectory: URL?
    /// How often idle streams get a `: ping` comment (which also frees dead clients).
    public var pingInterval: Duration = .seconds(15)
    /// The secret every request must carry, when the dashboard is reachable by others: one
    /// operator's (``AccessList/init(token:)``). Beyond loopback, this or `access` is required.
    public var token: AccessToken?
    /// Who may reach the dashboard, each with a role (`--access FILE`); when given, `token` is not
    /// asked. Either one lets the server listen beyond loopback.
    public var access: AccessList?
    /// The timeline each panel draws when a history is kept: 90 slots over 24 hours.
    public var timeline = (span: Duration.seconds(86_400), slots: 90)
    /// Bytes a stream client may fall behind by before it is dropped: a few hundred panel changes.
    public var streamCapacity = 256 * 1024
    /// Addresses in front of the server (a load balancer) whose `Host` and `Origin` count as its own.
    public var publicAddresses: [PublicAddress] = []
    /// Reverse proxies in front of the server (`--trusted-proxy`) whose `X-Forwarded-For` names
    /// the client that wrong tokens are counted by.
    public var trustedProxies: [TrustedProxy] = []
    /// The panel that tells about the server itself, if the deck has one: a server whose host runs the deck elsewhere
    /// shows there (and above every panel) that it cannot reach the store.
    public var ownPanelID: String?

    /// Serves on `host:port` the page of `publicDirectory`, or the one compiled into the binary
    /// when nil.
    public init(host: String = "127.0.0.1", port: Int = 8080, publicDirectory: URL? = nil) {
        self.host = host
        self.port = port
        self.publicDirectory = publicDirectory
    }

    /// The transport settings these imply.
    var http: HTTPServer.Configuration {
        var http = HTTPServer.Configuration()
        http.host = host
        http.port = port
        http.standardHeaders = HTTPHeaders(SecurityHeaders.all)
        // On loopback every tab and script shares 127.0.0.1; exposed, one address cannot take
        // every connection.
        if !isLoopback {
            http.perIPConnectionLimit = Self.exposedPerAddressLimit
        }
        return http
    }

    /// Connections one client address may hold when the dashboard is exposed: a few browsers'
    /// tabs and scripts, not the whole connection limit.
    static let exposedPerAddressLimit = 64

    /// The address printed on start, with an IPv6 host in brackets and the token to open it with.
    public func url(port: Int) -> String {
        address(port: port) + (access == nil ? token.map { "?token=\($0)" } ?? "" : "")
    }

    /// Where it serves, with an IPv6 host in brackets and no token: what a ping URL starts with.
    public func address(port: Int) -> String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/"
    }

    /// The tokens the gate asks for: `access`, else `token` as a list of one; nil asks none.
    var accessList: AccessList? {
        access ?? token.map(AccessList.init(token:))
    }

    /// Whether `host` can only be reached from this machine.
    public var isLoopback: Bool {
        Self.isLoopback(host)
    }

    /// Whether `host` names this machine's loopback interface.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
