import Glibc

/// How one raw exchange ended.
enum RawOutcome: Sendable, Equatable, CustomStringConvertible {
    /// A response head arrived: its status, and whether its whole body followed.
    case answered(status: Int, complete: Bool)
    /// The server closed (or reset) the connection without a response.
    case closed
    /// Neither an answer nor a close before the deadline.
    case timedOut
    /// The connection could not be made.
    case refused

    var status: Int? {
        if case .answered(let status, _) = self { return status }
        return nil
    }

    var description: String {
        switch self {
        case .answered(let status, let complete): "answered \(status)\(complete ? "" : " (incomplete)")"
        case .closed: "closed without answer"
        case .timedOut: "timed out"
        case .refused: "refused"
        }
    }
}

/// A bare client socket for malformed requests: sends any bytes, can half-close (so the server
/// sees the end of the request), and reads whatever comes back with a deadline.
final class RawClient {
    private var descriptor: Int32 = -1
    private(set) var received: [UInt8] = []

    init(port: Int, host: String = "127.0.0.1") throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawClientError.cannotConnect(errno) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close()
            throw RawClientError.cannotConnect(code)
        }
    }

    deinit {
        close()
    }

    /// Sends every byte it can; false once the server has stopped taking them.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    /// Tells the server no more bytes will come (`shutdown(SHUT_WR)`).
    func finishSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Reads until one whole response has arrived, the server closes, or `timeout` passes.
    func readOutcome(timeout: Duration) -> RawOutcome {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let (status, complete) = Self.parse(received), complete {
                return .answered(status: status, complete: true)
            }
            switch fill(until: deadline) {
            case .some(true):
                continue
            case .some(false):
                if let (status, complete) = Self.parse(received) {
                    return .answered(status: status, complete: complete)
                }
                return .closed
            case nil:
                if let (status, _) = Self.parse(received) {
                    return .answered(status: status, complete: false)
                }
                return .timedOut
            }
        }
    }

    /// True once the server closes the connection before `timeout`.
    func waitForClose(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            switch fill(until: deadline) {
            case .some(true): continue
            case .some(false): return true
            case nil: return false
            }
        }
    }

    /// More bytes arrived (true), the connection ended (false), or the deadline passed (nil).
    private func fill(until deadline: ContinuousClock.Instant) -> Bool? {
        guard descriptor >= 0 else { return false }
        var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return nil }
            let milliseconds = Int32(remaining.components.seconds * 1000
                + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&pollDescriptor, 1, milliseconds)
            if ready > 0 { break }
            if ready < 0, errno != EINTR { return false }
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        received += chunk[..<count]
        return true
    }

    /// The status of the response in `bytes`, and whether all of it (head and body) is there.
    static func parse(_ bytes: [UInt8]) -> (status: Int, complete: Bool)? {
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

enum RawClientError: Error {
    case cannotConnect(Int32)
}

extension RawClient {
    /// One exchange on a fresh connection: `bytes`, then the end of sending, then the outcome.
    static func exchange(_ bytes: [UInt8], port: Int, timeout: Duration = .seconds(3)) -> RawOutcome {
        guard let client = try? RawClient(port: port) else { return .refused }
        defer { client.close() }
        client.send(bytes)
        client.finishSending()
        return client.readOutcome(timeout: timeout)
    }
}
