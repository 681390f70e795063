import Foundation

/// An HTTP/1.1 server on 127.0.0.1 that keeps connections open and answers every request on
/// them `200 ok` after `delay`, counting the connections it accepted and (in `held`, which
/// several servers may share) the most requests held at once: what shows a client's connection
/// reuse and limits.
public final class KeepAliveServer: Sendable {
    /// Requests received and not yet answered, now and at most.
    public final class HeldRequests: Sendable {
        private let lock = NSLock()
        nonisolated(unsafe) private var now = 0
        nonisolated(unsafe) private var most = 0

        public init() {}

        /// The most requests held at one time.
        public var mostAtOnce: Int { lock.withLock { most } }

        func hold(for delay: Duration) {
            lock.withLock {
                now += 1
                most = max(most, now)
            }
            Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
            lock.withLock { now -= 1 }
        }
    }

    public let port: UInt16
    public let held: HeldRequests
    private let listener: Int32
    private let delay: Duration
    private let lock = NSLock()
    nonisolated(unsafe) private var accepted = 0
    nonisolated(unsafe) private var clients: [Int32] = []

    public init(delay: Duration = .zero, held: HeldRequests = HeldRequests()) throws {
        self.delay = delay
        self.held = held
        (listener, port) = try LoopbackListener.listen(backlog: 1024)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for client in clients { shutdown(client, Int32(SHUT_RDWR)) }
    }

    public var url: String { "http://127.0.0.1:\(port)/" }
    /// Connections accepted so far.
    public var connections: Int { lock.withLock { accepted } }
    /// The most requests held (received, not yet answered) at one time.
    public var mostAtOnce: Int { held.mostAtOnce }

    private func acceptLoop() {
        while case let client = accept(listener, nil, nil), client >= 0 {
            lock.withLock {
                accepted += 1
                clients.append(client)
            }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        while case let head = LoopbackListener.readHead(client), !head.isEmpty {
            held.hold(for: delay)
            let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)
            guard send(client, answer, answer.count, Int32(MSG_NOSIGNAL)) == answer.count else { break }
        }
    }
}
