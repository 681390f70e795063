import Glibc

/// The tests' one raw client socket: blocking, with a read buffer; every read takes a deadline.
/// It sends any bytes (malformed requests included), can half-close, and reports how an exchange
/// ended (``readOutcome(timeout:)``).
public final class TestSocket {
    private var descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host` (an IP literal or a name) and `port`. A small `receiveBufferSize`
    /// (set before connecting) makes a client that stops reading fill up quickly.
    public init(host: String = "127.0.0.1", port: Int, receiveBufferSize: Int? = nil) throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &results) == 0, let address = results else {
            throw TestClientError.cannotConnect("cannot resolve \(host)")
        }
        defer { freeaddrinfo(results) }
        descriptor = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestClientError.cannotConnect(String(cString: strerror(errno))) }
        if var size = receiveBufferSize.map(Int32.init) {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        guard connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            // Through `close()`, which forgets the number: `deinit` runs after a throwing init
            // too, and closing the number again could close another thread's new socket.
            close()
            throw TestClientError.cannotConnect("\(host):\(port): \(reason)")
        }
    }

    /// A non-blocking socket left connecting to `port` on 127.0.0.1: one that fills a listener's
    /// accept queue without waiting for it.
    public static func connectingWithoutWaiting(to port: Int) -> TestSocket {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
        var address = LoopbackListener.address(port: port)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return TestSocket(descriptor: descriptor)
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    /// Sends every byte (no SIGPIPE if the server has gone).
    public func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { throw TestClientError.closed }
            sent += count
        }
    }

    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Tells the server no more bytes will come (`shutdown(SHUT_WR)`), so it sees the request end.
    public func finishSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Closes the socket; later reads report the end.
    public func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// One line without its CRLF (or LF).
    func readLine(until deadline: ContinuousClock.Instant) throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill(until: deadline) else { throw TestClientError.closed }
        }
    }

    /// Exactly `count` bytes.
    func read(count: Int, until deadline: ContinuousClock.Instant) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill(until: deadline) else { throw TestClientError.closed }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// Whatever is buffered or arrives next: empty at the end of the stream.
    func readSome(until deadline: ContinuousClock.Instant) throws -> [UInt8] {
        if buffer.isEmpty, try !fill(until: deadline) { return [] }
        defer { buffer = [] }
        return buffer
    }

    /// Every byte until the server closes.
    func readToEnd(until deadline: ContinuousClock.Instant) throws -> [UInt8] {
        while try fill(until: deadline) {}
        defer { buffer = [] }
        return buffer
    }

    /// True once the server has closed the connection (or reset it) before `deadline`;
    /// any bytes that arrive first are discarded.
    public func waitForClose(timeout: Duration = defaultWait) -> Bool {
        let deadline = ContinuousClock.now + timeout
        do {
            while try fill(until: deadline) { buffer = [] }
            return true
        } catch {
            return error as? TestClientError == .closed
        }
    }

    /// Reads until one whole response has arrived, the server closes, or `timeout` passes.
    public func readOutcome(timeout: Duration) -> RawOutcome {
        let deadline = ContinuousClock.now + timeout
        while true {
            let response = RawOutcome.response(in: buffer)
            if let response, response.complete { return .answered(status: response.status, complete: true) }
            let more: Bool
            do {
                more = try fill(until: deadline)
            } catch TestClientError.timeout {
                return response.map { .answered(status: $0.status, complete: false) } ?? .timedOut
            } catch {
                more = false
            }
            if !more {
                return response.map { .answered(status: $0.status, complete: $0.complete) } ?? .closed
            }
        }
    }

    /// One exchange on a fresh connection: `bytes`, then the end of sending, then the outcome.
    public static func exchange(_ bytes: [UInt8], port: Int, timeout: Duration = .seconds(3)) -> RawOutcome {
        guard let client = try? TestSocket(port: port) else { return .refused }
        defer { client.close() }
        try? client.send(bytes)
        client.finishSending()
        return client.readOutcome(timeout: timeout)
    }

    /// Reads what is available into the buffer; false at end of stream or on reset.
    private func fill(until deadline: ContinuousClock.Instant) throws -> Bool {
        guard descriptor >= 0 else { return false }
        var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw TestClientError.timeout }
            let milliseconds = Int32(min(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            let ready = poll(&pollDescriptor, 1, milliseconds)
            if ready > 0 { break }
            if ready < 0, errno != EINTR { throw TestClientError.closed }
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            if count < 0, errno != ECONNRESET { throw TestClientError.closed }
            return false
        }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }
}
