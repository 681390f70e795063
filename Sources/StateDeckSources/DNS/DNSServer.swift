import Threading

/// The server a dns source asks, written `address` or `address:port` (`[address]:port` for IPv6):
/// an IP address, since finding a server by name would need DNS itself.
public struct DNSServer: Sendable, Hashable, CustomStringConvertible {
    /// The address as written, brackets removed.
    public let host: String
    public let port: Int
    public let isIPv6: Bool

    /// DNS's port.
    public static let standardPort = 53

    /// The server `text` names, or nil when it is not an IP address with an optional port.
    public init?(_ text: String) {
        let host: Substring, port: Substring?
        if text.hasPrefix("["), let end = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<end]
            let rest = text[text.index(after: end)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return nil }
            port = rest.isEmpty ? nil : rest.dropFirst()
        } else if text.count(where: { $0 == ":" }) == 1, let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        } else {
            host = text[...]
            port = nil
        }
        guard let number = port.map({ Int($0) }) ?? Self.standardPort, (1...65_535).contains(number),
              case .success(let addresses)? = SocketAddress.numeric(host: String(host), port: number),
              let address = addresses.first else { return nil }
        self.host = String(host)
        self.port = number
        isIPv6 = address.isIPv6
    }

    /// `203.0.113.53:53`, `[2001:db8::53]:53`: also how c-ares is told the server.
    public var description: String {
        isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
