/// How one raw exchange ended (``TestSocket/readOutcome(timeout:)``).
public enum RawOutcome: Sendable, Equatable, CustomStringConvertible {
    /// A response head arrived: its status, and whether its whole body followed.
    case answered(status: Int, complete: Bool)
    /// The server closed (or reset) the connection without a response.
    case closed
    /// Neither an answer nor a close before the deadline.
    case timedOut
    /// The connection could not be made.
    case refused

    public var status: Int? {
        if case .answered(let status, _) = self { return status }
        return nil
    }

    public var description: String {
        switch self {
        case .answered(let status, let complete): "answered \(status)\(complete ? "" : " (incomplete)")"
        case .closed: "closed without answer"
        case .timedOut: "timed out"
        case .refused: "refused"
        }
    }

    /// The status of the response in `bytes`, and whether all of it (head and body) is there.
    static func response(in bytes: [UInt8]) -> (status: Int, complete: Bool)? {
        guard let headEnd = find([13, 10, 13, 10], in: bytes) else { return nil }
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            return nil
        }
        var length: Int?
        var chunked = false
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].lowercased()
            let value = parts[1].trimmingPrefix(" ")
            if name == "content-length" { length = Int(value) }
            if name == "transfer-encoding", value.lowercased() == "chunked" { chunked = true }
        }
        let body = bytes.count - (headEnd + 4)
        if chunked {
            return (status, find([48, 13, 10, 13, 10], in: Array(bytes[(headEnd + 4)...])) != nil)
        }
        return (status, body >= (length ?? 0))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }
}
