#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one address the daemon binds, resolved from the configured host and port.
struct SocketAddress {
    private var storage = sockaddr_storage()
    private(set) var length: socklen_t = 0

    var isIPv6: Bool { Int32(storage.ss_family) == AF_INET6 }

    /// Resolves `host` with `getaddrinfo` (literals need no lookup) and keeps the first answer.
    init(host: String, port: Int) throws(HTTPServerError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        defer { freeaddrinfo(results) }
        guard status == 0, let first = results, let address = first.pointee.ai_addr else {
            throw .cannotResolve(host: host, reason: String(cString: gai_strerror(status)))
        }
        length = first.pointee.ai_addrlen
        withUnsafeMutableBytes(of: &storage) {
            $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(first.pointee.ai_addrlen)))
        }
    }

    /// Runs `body` with a `sockaddr` pointer valid for the call only.
    func withSockaddr<Result>(_ body: (UnsafeMutablePointer<sockaddr>) -> Result) -> Result {
        var copy = storage
        return withUnsafeMutablePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
        }
    }
}
