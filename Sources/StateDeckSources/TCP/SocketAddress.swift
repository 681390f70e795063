#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A resolved address to connect a stream socket to.
struct SocketAddress: Sendable {
    let family: Int32
    let bytes: [UInt8]

    /// The stream addresses of `host`, in the resolver's order of preference (`getaddrinfo`).
    /// With `numericOnly`, a name is not looked up (`AI_NUMERICHOST`): nil is returned at once,
    /// and the call never blocks.
    static func resolve(host: String, port: Int, numericOnly: Bool = false) -> Result<[SocketAddress], TCPProbe.Failure>? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        if numericOnly { hints.ai_flags = AI_NUMERICHOST }
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        if numericOnly, code == EAI_NONAME { return nil }
        guard code == 0, let first = list else { return .failure(.unresolved(String(cString: gai_strerror(code)))) }
        defer { freeaddrinfo(first) }
        return .success(sequence(first: first) { $0.pointee.ai_next }.map { entry in
            SocketAddress(family: entry.pointee.ai_family, bytes: Array(UnsafeRawBufferPointer(
                start: entry.pointee.ai_addr, count: Int(entry.pointee.ai_addrlen))))
        })
    }

    /// Starts a non-blocking connection: the socket, connected or with its connection under way
    /// (`EINPROGRESS`), or the `errno` of a failure (the socket then closed).
    func startConnecting() -> Result<(socket: Int32, connected: Bool), ConnectError> {
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .failure(ConnectError(code: errno)) }
        let started = bytes.withUnsafeBytes {
            Glibc.connect(descriptor, $0.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
        }
        if started == 0 { return .success((descriptor, true)) }
        let code = errno
        guard code == EINPROGRESS else {
            close(descriptor)
            return .failure(ConnectError(code: code))
        }
        return .success((descriptor, false))
    }

    /// An `errno` of a connection attempt.
    struct ConnectError: Error {
        let code: Int32
    }
}
