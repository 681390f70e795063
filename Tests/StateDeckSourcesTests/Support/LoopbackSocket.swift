import Foundation

/// Raw sockets on 127.0.0.1 for the tests' servers and listeners.
enum LoopbackSocket {
    /// A listening socket and its port, picked by the system.
    static func listen(backlog: Int32 = 64) throws -> (socket: Int32, port: UInt16) {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && Foundation.listen(socket, backlog) == 0
                    && getsockname(socket, pointer, &length) == 0
            }
        }
        guard socket >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return (socket, UInt16(bigEndian: address.sin_port))
    }

    /// A port where nothing listens: bound, then closed.
    static func closedPort() throws -> UInt16 {
        let (socket, port) = try listen()
        close(socket)
        return port
    }

    /// A non-blocking socket connecting to `port`, left to connect.
    static func startConnecting(to port: UInt16) -> Int32 {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        _ = fcntl(socket, F_SETFL, O_NONBLOCK)
        var address = loopback(port: port)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return socket
    }

    /// Reads a request up to the blank line after its headers.
    static func readHead(_ client: Int32) -> String {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while head.count < 65_536, recv(client, &byte, 1, 0) == 1 {
            head.append(byte)
            if head.suffix(4) == Array("\r\n\r\n".utf8) { break }
        }
        return String(decoding: head, as: UTF8.self)
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }
}
