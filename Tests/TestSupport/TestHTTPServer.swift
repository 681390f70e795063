import Foundation

/// A tiny HTTP/1.1 server on 127.0.0.1 for the tests: each path answers a canned response, on a
/// thread per connection, then closes the connection. It keeps each request's head and body.
public final class TestHTTPServer: Sendable {
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: String
        /// Waits this long before answering.
        public var delay: Duration
        /// Ends the body with a space and the path's count of requests so far: each answer differs,
        /// so each load of a panel is a change the deck sends.
        public var numbered: Bool

        public init(status: Int, headers: [String: String] = [:], body: String = "", delay: Duration = .zero,
                    numbered: Bool = false) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.numbered = numbered
        }
    }

    public let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    nonisolated(unsafe) private var routes: [String: Response]
    nonisolated(unsafe) private var heads: [String] = []
    nonisolated(unsafe) private var received: [[UInt8]] = []
    nonisolated(unsafe) private var counts: [String: Int] = [:]

    public init(routes: [String: Response]) throws {
        self.routes = routes
        (listener, port) = try LoopbackListener.listen()
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// The same server on a unix socket at `socketPath` (its `port` is 0), as an engine such as
    /// Docker's answers on its socket file.
    public init(routes: [String: Response], socketPath: String) throws {
        self.routes = routes
        listener = try UnixSocketListener.listen(at: socketPath)
        port = 0
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The request heads received so far (request line and headers).
    public var requests: [String] {
        lock.withLock { heads }
    }

    /// The request bodies received so far, as many bytes as each head's `Content-Length` said.
    public var bodies: [[UInt8]] {
        lock.withLock { received }
    }

    /// Requests received for `path` so far.
    public func requestCount(_ path: String) -> Int {
        lock.withLock { counts[path, default: 0] }
    }

    /// From now on `path` answers `response`.
    public func answer(_ path: String, with response: Response) {
        lock.withLock { routes[path] = response }
    }

    private func acceptLoop() {
        while case let client = accept(listener, nil, nil), client >= 0 {
            Thread.detachNewThread { [self] in answer(client) }
        }
    }

    private func answer(_ client: Int32) {
        defer { close(client) }
        let head = LoopbackListener.readHead(client)
        let body = readBody(client, after: head)
        let path = head.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let (response, count) = lock.withLock {
            heads.append(head)
            received.append(body)
            counts[path, default: 0] += 1
            return (routes[path] ?? Response(status: 404, body: "no route"), counts[path, default: 0])
        }
        Thread.sleep(forTimeInterval: Double(response.delay.components.seconds)
            + Double(response.delay.components.attoseconds) / 1e18)
        let answer = Array((response.numbered ? "\(response.body) \(count)" : response.body).utf8)
        var text = "HTTP/1.1 \(response.status) Test\r\nContent-Length: \(answer.count)\r\nConnection: close\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        let bytes = Array((text + "\r\n").utf8) + answer
        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The body that follows `head`, of its `Content-Length`; a client that waits to be told to
    /// send it (`Expect: 100-continue`) is told at once.
    private func readBody(_ client: Int32, after head: String) -> [UInt8] {
        let fields = head.lowercased().split(separator: "\r\n")
        let declared = fields.first { $0.hasPrefix("content-length:") }?.dropFirst("content-length:".count)
        guard let length = declared.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), length > 0 else {
            return []
        }
        if fields.contains(where: { $0.hasPrefix("expect:") && $0.contains("100-continue") }) {
            _ = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        var body = [UInt8](repeating: 0, count: length)
        var filled = 0
        while filled < length {
            let got = body.withUnsafeMutableBytes { recv(client, $0.baseAddress! + filled, length - filled, 0) }
            guard got > 0 else { break }
            filled += got
        }
        return Array(body.prefix(filled))
    }
}
