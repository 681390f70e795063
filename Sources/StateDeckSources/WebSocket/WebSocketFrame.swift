/// A WebSocket frame (RFC 6455, section 5): what a client sends, masked, and what it reads of a
/// server's, unmasked.
struct WebSocketFrame: Equatable {
    enum Opcode: UInt8 {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA
    }

    var isFinal: Bool
    var opcode: Opcode
    var payload: [UInt8]

    /// A server's frames are at most this long: an answer longer is not waited for.
    static let payloadLimit = 1 << 20

    /// The frame as a client sends it: final, its payload masked with `mask` (4 bytes a client
    /// draws for each frame).
    func written(mask: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [(isFinal ? 0x80 : 0) | opcode.rawValue]
        switch payload.count {
        case ..<126: bytes.append(0x80 | UInt8(payload.count))
        case ..<65_536: bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: bytes += [0x80 | 127] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
        }
        bytes += mask
        bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return bytes
    }

    /// Why a server's frame cannot be read.
    enum ReadError: Error, Equatable {
        /// Masked, with an opcode RFC 6455 does not define, or with reserved bits set.
        case malformed(String)
        /// Longer than `payloadLimit`.
        case tooLong(Int)
    }

    /// The first frame of `buffer`, which it then drops; nil until the buffer holds a whole one.
    static func read(from buffer: inout [UInt8]) throws(ReadError) -> WebSocketFrame? {
        guard buffer.count >= 2 else { return nil }
        guard buffer[0] & 0x70 == 0 else { throw .malformed("reserved bits set, with no extension agreed") }
        guard let opcode = Opcode(rawValue: buffer[0] & 0x0F) else { throw .malformed("opcode \(buffer[0] & 0x0F)") }
        guard buffer[1] & 0x80 == 0 else { throw .malformed("a server's frame is masked") }
        var length = Int(buffer[1] & 0x7F)
        var start = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            start = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            let value = buffer[2..<10].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard value <= UInt64(payloadLimit) else { throw .tooLong(Int(clamping: value)) }
            length = Int(value)
            start = 10
        }
        guard length <= payloadLimit else { throw .tooLong(length) }
        guard buffer.count >= start + length else { return nil }
        let frame = WebSocketFrame(isFinal: buffer[0] & 0x80 != 0, opcode: opcode, payload: Array(buffer[start..<start + length]))
        buffer.removeFirst(start + length)
        return frame
    }
}
