#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A resolved address to connect a stream socket to.
struct SocketAddress {
    let family: Int32
    let bytes: [UInt8]

    /// The stream addresses of `host`, in the resolver's order of preference.
    static func resolve(host: String, port: Int) throws(TCPProbe.Failure) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0, let first = list else { throw .unresolved(String(cString: gai_strerror(code))) }
        defer { freeaddrinfo(first) }
        return sequence(first: first) { $0.pointee.ai_next }.map { entry in
            SocketAddress(family: entry.pointee.ai_family, bytes: Array(UnsafeRawBufferPointer(
                start: entry.pointee.ai_addr, count: Int(entry.pointee.ai_addrlen))))
        }
    }

    /// Connects and closes at once; 0 on success, else the `errno` (`ETIMEDOUT` past `timeout`).
    func connect(within timeout: Duration) -> Int32 {
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        let started = bytes.withUnsafeBytes {
            Glibc.connect(descriptor, $0.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
        }
        if started == 0 { return 0 }
        guard errno == EINPROGRESS else { return errno }
        var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&request, 1, Int32(clamping: max(1, timeout.milliseconds)))
        guard ready > 0 else { return ready == 0 ? ETIMEDOUT : errno }
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length)
        return code
    }
}
