/// The address a request came from: the IPv4 or IPv6 address of the connection's peer. An
/// IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a dual-stack socket reports for IPv4) is
/// its IPv4 address, so one client is one address whichever socket it reached.
public struct ClientAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6), in network order.
    public let bytes: [UInt8]

    /// `bytes` as an address; nil unless they are 4 or 16.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        let isMapped = bytes.count == 16 && bytes[..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        self.bytes = isMapped ? Array(bytes.suffix(4)) : bytes
    }

    public var isIPv6: Bool { bytes.count == 16 }

    /// `192.0.2.1`, or an IPv6 address as eight hex groups with the longest run of two or more
    /// zero groups written `::` (RFC 5952).
    public var description: String {
        guard isIPv6 else { return bytes.map(String.init).joined(separator: ".") }
        let groups = stride(from: 0, to: 16, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
        var longest = (start: 0, count: 0), current = (start: 0, count: 0)
        for (index, group) in groups.enumerated() {
            current = group == 0 ? (current.count == 0 ? (index, 1) : (current.start, current.count + 1)) : (0, 0)
            if current.count > longest.count { longest = current }
        }
        let text = groups.map { String($0, radix: 16) }
        guard longest.count >= 2 else { return text.joined(separator: ":") }
        return text[..<longest.start].joined(separator: ":") + "::"
            + text[(longest.start + longest.count)...].joined(separator: ":")
    }
}
