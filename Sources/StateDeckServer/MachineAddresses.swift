#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// This machine's own addresses, as `Host` names them before `:port`: `192.168.1.20`, an IPv6
/// address in brackets. Link-local IPv6 addresses are left out: a browser reaches them only with
/// a zone, which it does not send in `Host`.
enum MachineAddresses {
    /// Every interface's IPv4 and IPv6 addresses now (`getifaddrs`), each once.
    static func current() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(first) }
        var addresses: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr, let text = text(of: address), !addresses.contains(text) else { continue }
            addresses.append(text)
        }
        return addresses
    }

    /// The text `inet_ntop` wrote into `buffer`, up to its terminating zero.
    private static func text(of buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func text(of address: UnsafeMutablePointer<sockaddr>) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var inet = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            guard inet_ntop(AF_INET, &inet, &buffer, socklen_t(buffer.count)) != nil else { return nil }
            return text(of: buffer)
        case AF_INET6:
            var inet6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            // fe80::/10
            let isLinkLocal = withUnsafeBytes(of: &inet6) { $0[0] == 0xFE && $0[1] & 0xC0 == 0x80 }
            guard !isLinkLocal, inet_ntop(AF_INET6, &inet6, &buffer, socklen_t(buffer.count)) != nil else { return nil }
            return "[\(text(of: buffer))]"
        default:
            return nil
        }
    }
}
