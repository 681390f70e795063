@testable import MicroHTTP
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

@Suite("Chunks sent straight to a socket")
struct ChunkSocketTests {
    /// A connected pair of local stream sockets: the server's end and the client's.
    private final class SocketPair {
        let server: Int32
        let client: Int32

        init(sendBufferSize: Int32? = nil) throws {
            var ends: [Int32] = [0, 0]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
            (server, client) = (ends[0], ends[1])
            if var size = sendBufferSize {
                setsockopt(server, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
        }

        deinit {
            close(server)
            close(client)
        }

        /// Everything the client can read without waiting.
        func received() -> [UInt8] {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while case let count = recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT)), count > 0 {
                bytes += buffer.prefix(count)
            }
            return bytes
        }
    }

    @Test func sendsOneChunkFramedAsLibmicrohttpdFramesIt() throws {
        let pair = try SocketPair()
        let event = Array("data: hello\n\n".utf8)
        #expect(ChunkSocket(descriptor: pair.server).send(event) == .sent)
        #expect(pair.received() == Array("d\r\ndata: hello\n\n\r\n".utf8))
    }

    @Test func refusesWhileTheClientHasNotTakenEarlierBytes() throws {
        let pair = try SocketPair()
        let socket = ChunkSocket(descriptor: pair.server)
        #expect(socket.send([0x61]) == .sent)
        #expect(socket.unsentBytes > 0)
        #expect(socket.send([0x62]) == .refused)
        #expect(pair.received() == Array("1\r\na\r\n".utf8))
        #expect(socket.send([0x63]) == .sent)
    }

    @Test func refusesEmptyAndLargeChunks() throws {
        let pair = try SocketPair()
        let socket = ChunkSocket(descriptor: pair.server)
        #expect(socket.send([]) == .refused)
        #expect(socket.send([UInt8](repeating: 0x61, count: ChunkSocket.sizeLimit + 1)) == .refused)
        #expect(pair.received().isEmpty)
        #expect(socket.send([UInt8](repeating: 0x61, count: ChunkSocket.sizeLimit)) == .sent)
        #expect(pair.received().count == ChunkSocket.sizeLimit + "2000\r\n\r\n".utf8.count)
    }

    @Test func reportsAChunkTheKernelTookOnlyPartOf() throws {
        // Far below the kernel's default send buffer: it takes the chunk only in part.
        let pair = try SocketPair(sendBufferSize: 2048)
        let sent = ChunkSocket(descriptor: pair.server).send([UInt8](repeating: 0x61, count: ChunkSocket.sizeLimit))
        #expect(sent == .torn)
        let received = pair.received()
        #expect(received.starts(with: Array("2000\r\n".utf8)))
        #expect(received.count < ChunkSocket.sizeLimit)
    }

    @Test func refusesAClosedSocket() {
        #expect(ChunkSocket(descriptor: -1).send([0x61]) == .refused)
    }
}
