#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An address of a stream socket as `getaddrinfo` gives it: the address the HTTP server binds,
/// and those a tcp probe connects to.
///
/// Here, below both, because both resolve a host and port the same way and hand the result to a
/// C call that takes a `sockaddr`; the lookup blocks, which is what a `DetachedThread` is for.
public struct SocketAddress: Sendable {
    /// `AF_INET` or `AF_INET6`.
    public let family: Int32
    /// The `sockaddr_in` or `sockaddr_in6`, as many bytes as `getaddrinfo` gave.
    public let bytes: [UInt8]

    public var isIPv6: Bool { family == AF_INET6 }

    /// Why a host has no address: `getaddrinfo`'s message.
    public struct ResolveError: Error, Sendable {
        public let message: String
    }

    /// The stream addresses of `host`, in the resolver's order of preference (`getaddrinfo`).
    /// Blocks for as long as the system's resolver takes: seconds when a DNS server does not answer.
    public static func resolve(host: String, port: Int) -> Result<[SocketAddress], ResolveError> {
        lookUp(host: host, port: port, flags: 0).mapError { ResolveError(message: String(cString: gai_strerror($0.code))) }
    }

    /// The addresses of `host` when it is written as a number (`AI_NUMERICHOST`), nil for a name:
    /// never looks anything up, so it never blocks.
    public static func numeric(host: String, port: Int) -> Result<[SocketAddress], ResolveError>? {
        switch lookUp(host: host, port: port, flags: AI_NUMERICHOST) {
        case .success(let addresses): .success(addresses)
        case .failure(let failure) where failure.code == EAI_NONAME: nil
        case .failure(let failure): .failure(ResolveError(message: String(cString: gai_strerror(failure.code))))
        }
    }

    /// A `getaddrinfo` error code.
    private struct LookupFailure: Error {
        let code: Int32
    }

    private static func lookUp(host: String, port: Int, flags: Int32) -> Result<[SocketAddress], LookupFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        // The port is a number: no services database to read.
        hints.ai_flags = flags | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0 else { return .failure(LookupFailure(code: code)) }
        guard let first = list else { return .success([]) }
        defer { freeaddrinfo(first) }
        return .success(sequence(first: first) { $0.pointee.ai_next }.compactMap { entry in
            guard let address = entry.pointee.ai_addr else { return nil }
            return SocketAddress(family: entry.pointee.ai_family, bytes: Array(UnsafeRawBufferPointer(
                start: address, count: Int(entry.pointee.ai_addrlen))))
        })
    }

    /// Runs `body` with a `sockaddr` pointer, valid for the call only, and its length. The bytes
    /// are copied into a `sockaddr_storage` first, which is aligned for any address.
    public func withSockaddr<Value>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Value) -> Value {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { storage in
            bytes.withUnsafeBytes { storage.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(storage.count))) }
        }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(bytes.count)) }
        }
    }
}

extension SocketAddress {
    /// An address a system call wrote (a `sockaddr_in` or `sockaddr_in6`); nil for another
    /// family, such as the `AF_UNSPEC` of an error that names no sender.
    public init?(sockaddr bytes: [UInt8]) {
        guard bytes.count >= 2 else { return nil }
        let family = Int32(bytes.withUnsafeBytes { $0.loadUnaligned(as: sa_family_t.self) })
        guard family == AF_INET || family == AF_INET6 else { return nil }
        self.family = family
        self.bytes = bytes
    }

    /// The address in numbers, such as `127.0.0.1` or `::1` (`getnameinfo`, `NI_NUMERICHOST`).
    public var numericHost: String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let code = withSockaddr { getnameinfo($0, $1, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) }
        guard code == 0 else { return "?" }
        return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
