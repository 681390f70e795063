import Glibc

/// Listening sockets on 127.0.0.1 for the tests' own servers (the client side is ``TestSocket``).
public enum LoopbackListener {
    /// A listening socket and its port, picked by the system.
    public static func listen(backlog: Int32 = 64) throws -> (socket: Int32, port: UInt16) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && Glibc.listen(socket, backlog) == 0
                    && getsockname(socket, pointer, &length) == 0
            }
        }
        guard socket >= 0, bound else { throw TestClientError.cannotConnect("cannot listen on 127.0.0.1") }
        return (socket, UInt16(bigEndian: address.sin_port))
    }

    /// A port where nothing listens: bound, then closed.
    public static func closedPort() throws -> UInt16 {
        let (socket, port) = try listen()
        close(socket)
        return port
    }

    /// Reads a request from `client` up to the blank line after its headers.
    public static func readHead(_ client: Int32) -> String {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while head.count < 65_536, recv(client, &byte, 1, 0) == 1 {
            head.append(byte)
            if head.suffix(4) == Array("\r\n\r\n".utf8) { break }
        }
        return String(decoding: head, as: UTF8.self)
    }

    static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}
