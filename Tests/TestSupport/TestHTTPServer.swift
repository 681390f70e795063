import Foundation

/// A tiny HTTP/1.1 server on 127.0.0.1 for the tests: each path answers a canned response, on a
/// thread per connection, then closes the connection.
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
    nonisolated(unsafe) private var counts: [String: Int] = [:]

    public init(routes: [String: Response]) throws {
        self.routes = routes
        (listener, port) = try LoopbackListener.listen()
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
        let path = head.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let (response, count) = lock.withLock {
            heads.append(head)
            counts[path, default: 0] += 1
            return (routes[path] ?? Response(status: 404, body: "no route"), counts[path, default: 0])
        }
        Thread.sleep(forTimeInterval: Double(response.delay.components.seconds)
            + Double(response.delay.components.attoseconds) / 1e18)
        let body = Array((response.numbered ? "\(response.body) \(count)" : response.body).utf8)
        var text = "HTTP/1.1 \(response.status) Test\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        let bytes = Array((text + "\r\n").utf8) + body
        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
