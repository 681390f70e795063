import Glibc

/// Listening unix sockets for the tests' own servers: an engine's API, such as Docker's, as
/// clients reach it over its socket file.
public enum UnixSocketListener {
    /// A socket listening at `path`; a file already there is replaced.
    public static func listen(at path: String, backlog: Int32 = 64) throws -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw TestClientError.cannotConnect("\(path) is too long for a unix socket")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        unlink(path)
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let listening = socket >= 0 && withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        } && Glibc.listen(socket, backlog) == 0
        guard listening else {
            if socket >= 0 { close(socket) }
            throw TestClientError.cannotConnect("cannot listen at \(path)")
        }
        return socket
    }
}
