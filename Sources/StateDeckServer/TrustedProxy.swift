#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MicroHTTP
import StateDeck

/// A reverse proxy in front of the server whose `X-Forwarded-For` is believed
/// (`--trusted-proxy 10.0.0.5`, `--trusted-proxy 10.0.0.0/8`): one address, or a range of them as
/// an address and a prefix length, IPv4 or IPv6. Behind a proxy every request comes from the
/// proxy's address, so the wrong tokens of one user would count against all; the address the
/// proxy saw counts instead. From anyone else the header is ignored: a client writes what it likes.
public struct TrustedProxy: Sendable, Equatable, CustomStringConvertible {
    /// The range's first address: 4 bytes or 16, the bits past `prefixLength` zero.
    let network: [UInt8]
    let prefixLength: Int
    public let description: String

    public init(parsing text: String) throws(Invalid) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = Self.address(parts[0]) else {
            throw Invalid(text: text, reason: "give an IPv4 or IPv6 address, or one with a prefix length (10.0.0.0/8, fd00::/8)")
        }
        let width = address.bytes.count * 8
        let length = parts.count == 2 ? Int(parts[1]) : width
        let digits = parts.count == 1 || parts[1].utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard let length, digits, (0...width).contains(length) else {
            throw Invalid(text: text, reason: "its prefix length must be a number from 0 to \(width)")
        }
        prefixLength = length
        network = Self.masked(address.bytes, to: length)
        description = text
    }

    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public let text: String
        public let reason: String
        public var description: String { "--trusted-proxy \(text): \(reason)" }
    }

    /// Whether `address` is in the range (an IPv4 range holds no IPv6 address, nor the reverse).
    func contains(_ address: ClientAddress) -> Bool {
        address.bytes.count == network.count && Self.masked(address.bytes, to: prefixLength) == network
    }

    /// Who a request comes from: its connection's peer, or when the peer is one of `proxies`, the
    /// right-most address of `X-Forwarded-For` (`forwardedFor`, its fields in order) that is not one
    /// of them. Each proxy appends the address it saw, so what lies left of the first address no
    /// trusted proxy wrote is the client's to invent. An entry that is not an address ends the walk
    /// at the proxy that wrote it; a chain of trusted proxies alone gives its left-most.
    static func client(peer: ClientAddress?, forwardedFor: [String], proxies: [TrustedProxy]) -> ClientAddress? {
        guard var client = peer, !proxies.isEmpty else { return peer }
        let entries = forwardedFor.flatMap { $0.split(separator: ",") }
        for entry in entries.reversed() {
            guard proxies.contains(where: { $0.contains(client) }) else { return client }
            guard let forwarded = address(entry.trimmed()) else { return client }
            client = forwarded
        }
        return client
    }

    /// `192.0.2.1` or `2001:db8::1` (in brackets or not) as an address; nil for anything else.
    static func address<Text: StringProtocol>(_ text: Text) -> ClientAddress? {
        var text = String(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var v4 = [UInt8](repeating: 0, count: 4)
        if inet_pton(AF_INET, text, &v4) == 1 { return ClientAddress(bytes: v4) }
        var v6 = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET6, text, &v6) == 1 { return ClientAddress(bytes: v6) }
        return nil
    }

    /// `bytes` with every bit past the first `length` cleared.
    private static func masked(_ bytes: [UInt8], to length: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let kept = min(8, max(0, length - index * 8))
            return kept == 8 ? byte : byte & ~(0xFF >> kept)
        }
    }
}
