/// A server-sent event as parsed from the stream.
public struct SSEEvent: Sendable, Equatable {
    public var event: String?
    public var id: String?
    public var data: String

    public init(event: String? = nil, id: String? = nil, data: String) {
        self.event = event
        self.id = id
        self.data = data
    }
}

/// One thing read from an event stream.
public enum SSEItem: Sendable, Equatable {
    case event(SSEEvent)
    /// A `:` line, without the colon and one leading space.
    case comment(String)
    /// A `retry:` field.
    case retry(Int)
}

/// A client of one event stream: connects, checks the response head, then reads items.
public final class SSEClient {
    public let connection: HTTPTestConnection
    public let status: Int
    public let headers: [(name: String, value: String)]
    private let chunked: Bool
    private var pending: [UInt8] = []
    private var ended = false
    private var lines = SSELineParser()

    /// Opens `path` with `Accept: text/event-stream` plus `headers` (e.g. `Last-Event-ID`).
    public convenience init(
        host: String = "127.0.0.1", port: Int, path: String, headers: [(String, String)] = [],
        timeout: Duration = defaultWait
    ) throws {
        let connection = try HTTPTestConnection(host: host, port: port)
        try connection.send("GET", path, headers: [("Accept", "text/event-stream")] + headers)
        try self.init(connection: connection, timeout: timeout)
    }

    /// Reads the response head of a stream request already sent on `connection`.
    public init(connection: HTTPTestConnection, timeout: Duration = defaultWait) throws {
        self.connection = connection
        (status, headers) = try connection.readHead(until: .now + timeout)
        chunked = headers.contains { $0.name.lowercased() == "transfer-encoding" && $0.value.lowercased() == "chunked" }
    }

    /// Opens `count` streams at once: every request is sent before any response is read.
    public static func connect(
        count: Int, host: String = "127.0.0.1", port: Int, path: String,
        headers: [(String, String)] = [], timeout: Duration = .seconds(10)
    ) throws -> [SSEClient] {
        var connections: [HTTPTestConnection] = []
        for _ in 0..<count {
            let connection = try HTTPTestConnection(host: host, port: port)
            try connection.send("GET", path, headers: [("Accept", "text/event-stream")] + headers)
            connections.append(connection)
        }
        return try connections.map { try SSEClient(connection: $0, timeout: timeout) }
    }

    /// The next item, or nil once the stream has ended. Throws `TestClientError.timeout` if
    /// nothing complete arrives in time.
    public func next(timeout: Duration = defaultWait) throws -> SSEItem? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let item = lines.next() { return item }
            if ended { return nil }
            let bytes = try readBody(until: deadline)
            if bytes.isEmpty {
                ended = true
            } else {
                lines.append(bytes)
            }
        }
    }

    /// The next event, skipping comments and `retry:`; nil once the stream has ended.
    public func nextEvent(timeout: Duration = defaultWait) throws -> SSEEvent? {
        let deadline = ContinuousClock.now + timeout
        while let item = try next(timeout: ContinuousClock.now.duration(to: deadline)) {
            if case .event(let event) = item { return event }
        }
        return nil
    }

    /// True if the stream ends (cleanly or by close) before `timeout`; items are discarded.
    public func waitForEnd(timeout: Duration = defaultWait) -> Bool {
        let deadline = ContinuousClock.now + timeout
        do {
            while try next(timeout: ContinuousClock.now.duration(to: deadline)) != nil {}
            return true
        } catch {
            return error as? TestClientError == .closed
        }
    }

    public func close() {
        connection.close()
    }

    /// The next decoded body bytes; empty at the end of the body.
    private func readBody(until deadline: ContinuousClock.Instant) throws -> [UInt8] {
        guard chunked else { return try connection.socket.readSome(until: deadline) }
        return try connection.readChunk(until: deadline) ?? []
    }
}
