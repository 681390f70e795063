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

    /// An `errno` of a connection attempt.
    struct ConnectError: Error {
        let code: Int32
    }
}
