#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Threading

extension SocketAddress {
    /// Starts a non-blocking connection: the socket, connected or with its connection under way
    /// (`EINPROGRESS`), or the `errno` of a failure (the socket then closed).
    func startConnecting() -> Result<(socket: Int32, connected: Bool), ConnectError> {
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .failure(ConnectError(code: errno)) }
        let started = withSockaddr { Glibc.connect(descriptor, $0, $1) }
        if started == 0 { return .success((descriptor, true)) }
        let code = errno
        guard code == EINPROGRESS else {
            close(descriptor)
            return .failure(ConnectError(code: code))
        }
        return .success((descriptor, false))
    }

    /// The result of a connection started by ``startConnecting()`` (`SO_ERROR`), once its
    /// socket is writable: 0 when connected.
    static func connectionError(of socket: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }

    /// An `errno` of a connection attempt.
    struct ConnectError: Error {
        let code: Int32
    }
}
