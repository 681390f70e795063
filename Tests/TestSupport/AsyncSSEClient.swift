/// An `SSEClient` whose blocking reads run off the cooperative pool (see `offPool`).
///
/// Unchecked: the wrapped client is used by one caller at a time, each call awaited in turn.
public final class AsyncSSEClient: @unchecked Sendable {
    private let client: SSEClient

    public init(_ client: SSEClient) {
        self.client = client
    }

    /// Opens `path` with `Accept: text/event-stream` plus `headers` (e.g. `Last-Event-ID`).
    public static func open(
        host: String = "127.0.0.1", port: Int, path: String, headers: [(String, String)] = []
    ) async throws -> AsyncSSEClient {
        try await offPool { AsyncSSEClient(try SSEClient(host: host, port: port, path: path, headers: headers)) }
    }

    /// Opens `count` streams at once: every request is sent before any response is read.
    public static func open(count: Int, host: String = "127.0.0.1", port: Int, path: String) async throws -> [AsyncSSEClient] {
        try await offPool { try SSEClient.connect(count: count, host: host, port: port, path: path).map(AsyncSSEClient.init) }
    }

    public var status: Int { client.status }

    public func header(_ name: String) -> String? {
        client.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The next item (event, comment or `retry:`); nil once the stream has ended.
    public func next(timeout: Duration = defaultWait) async throws -> SSEItem? {
        try await offPool { try self.client.next(timeout: timeout) }
    }

    /// The next event, skipping comments and `retry:`; nil once the stream has ended.
    public func nextEvent(timeout: Duration = defaultWait) async throws -> SSEEvent? {
        try await offPool { try self.client.nextEvent(timeout: timeout) }
    }

    /// The `retry:` line and the first event, which every stream of the dashboard starts with.
    public func opening(timeout: Duration = defaultWait) async throws -> (retry: SSEItem?, first: SSEEvent?) {
        try await offPool {
            let retry = try self.client.next(timeout: timeout)
            return (retry, try self.client.nextEvent(timeout: timeout))
        }
    }

    /// True if the stream ends before `timeout`.
    public func waitForEnd(timeout: Duration = defaultWait) async -> Bool {
        (try? await offPool { self.client.waitForEnd(timeout: timeout) }) ?? false
    }

    /// The blocking client underneath, for loops over many events or streams in one `offPool`.
    public var blocking: SSEClient { client }

    public func close() {
        client.close()
    }
}

/// An event-stream client that never reads: its small receive buffer fills, then the server's.
///
/// Unchecked: only `waitForClose` and `close` touch the connection, one at a time.
public final class StalledSSEClient: @unchecked Sendable {
    private let connection: HTTPTestConnection

    /// Requests `path` and reads nothing of the answer.
    public init(host: String = "127.0.0.1", port: Int, path: String) throws {
        connection = try HTTPTestConnection(host: host, port: port, receiveBufferSize: 4096)
        try connection.send("GET", path)
    }

    /// True once the server closes the connection before `timeout` (what arrives is dropped).
    public func waitForClose(timeout: Duration = defaultWait) async -> Bool {
        (try? await offPool { self.connection.waitForClose(timeout: timeout) }) ?? false
    }

    public func close() {
        connection.close()
    }
}
