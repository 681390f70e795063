#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The socket of a connection that waits suspended, written without waking libmicrohttpd.
///
/// Resuming a suspended connection costs libmicrohttpd a mutex, an eventfd write and a walk of
/// every suspended connection, then a poll round before the bytes leave: at 18,600 streams that
/// is most of a publish (docs/PERFORMANCE-FINDINGS.md, finding g). Meanwhile the socket is the stream's own:
/// libmicrohttpd neither polls nor writes a suspended connection, and its write buffer is empty
/// (the reader only runs once it is sent). So a small chunk can go straight to the socket,
/// framed as libmicrohttpd frames the reader's bytes: `<hex size>\r\n<bytes>\r\n`.
struct ChunkSocket {
    let descriptor: Int32

    enum SendResult: Equatable {
        case sent
        /// Nothing sent: the chunk is empty or large, or the kernel still holds bytes for the
        /// client (one behind goes through the stream's queue, which `capacity` bounds).
        case refused
        /// The kernel took part of the chunk: the body is torn mid-chunk and cannot go on.
        case torn
    }

    /// Half the kernel's default TCP send buffer (`tcp_wmem`): a chunk this size fits an empty
    /// send queue whole, so a torn chunk means memory pressure, not a slow client.
    static let sizeLimit = 8 * 1024

    /// Sends `bytes` as one chunk if it is at most `sizeLimit` and the send queue is empty.
    func send(_ bytes: [UInt8]) -> SendResult {
        guard !bytes.isEmpty, bytes.count <= Self.sizeLimit, unsentBytes == 0 else { return .refused }
        let header = Array((String(bytes.count, radix: 16) + "\r\n").utf8)
        let sent = send(header, bytes)
        if sent == header.count + bytes.count + Self.chunkEnd.count { return .sent }
        return sent > 0 ? .torn : .refused
    }

    private static let chunkEnd: [UInt8] = Array("\r\n".utf8)

    /// Bytes the kernel holds for the socket, not sent or not acknowledged (`SIOCOUTQ`, which is
    /// `TIOCOUTQ`); -1 on error, which refuses the send.
    var unsentBytes: Int32 {
        var count: Int32 = 0
        return ioctl(descriptor, UInt(TIOCOUTQ), &count) == 0 ? count : -1
    }

    /// One `sendmsg` of the chunk's three parts, never blocking and never raising `SIGPIPE`:
    /// the count of bytes sent, or -1.
    private func send(_ header: [UInt8], _ bytes: [UInt8]) -> Int {
        header.withUnsafeBytes { header in
            bytes.withUnsafeBytes { bytes in
                Self.chunkEnd.withUnsafeBytes { end in
                    var parts = (iovec(header), iovec(bytes), iovec(end))
                    return withUnsafeMutableBytes(of: &parts) { parts in
                        var message = msghdr()
                        message.msg_iov = parts.baseAddress!.assumingMemoryBound(to: iovec.self)
                        message.msg_iovlen = 3
                        return sendmsg(descriptor, &message, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                    }
                }
            }
        }
    }
}

extension iovec {
    /// The vector of `buffer`, which `sendmsg` only reads.
    init(_ buffer: UnsafeRawBufferPointer) {
        self.init(iov_base: UnsafeMutableRawPointer(mutating: buffer.baseAddress), iov_len: buffer.count)
    }
}
