/// The bytes kept of one output stream: its beginning (standard output, which carries the data) or
/// its end (standard error, where the reason of a failure usually is), never more than `limit`.
struct OutputBuffer: Sendable {
    enum Keep: Sendable { case head, tail }

    let keep: Keep
    let limit: Int
    private(set) var bytes: [UInt8] = []
    private(set) var truncated = false

    init(keep: Keep, limit: Int) {
        self.keep = keep
        self.limit = limit
    }

    mutating func append(_ chunk: some Collection<UInt8>) {
        switch keep {
        case .head:
            let room = limit - bytes.count
            bytes.append(contentsOf: chunk.prefix(room))
            truncated = truncated || chunk.count > room
        case .tail:
            bytes.append(contentsOf: chunk)
            guard bytes.count > limit else { return }
            truncated = true
            bytes.removeFirst(bytes.count - limit)
        }
    }

    /// The kept bytes as text; a cut multi-byte character becomes U+FFFD.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
