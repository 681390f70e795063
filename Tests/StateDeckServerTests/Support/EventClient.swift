import TestSupport

/// An `/events` client whose blocking reads run off the cooperative pool.
///
/// Unchecked: the wrapped client is used by one caller at a time, each call awaited in turn.
final class EventClient: @unchecked Sendable {
    private let client: SSEClient

    init(_ client: SSEClient) {
        self.client = client
    }

    var status: Int { client.status }

    func header(_ name: String) -> String? {
        client.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The next item (event, comment or `retry:`); nil once the stream has ended.
    func next(timeout: Duration = defaultWait) async throws -> SSEItem? {
        try await offPool { try self.client.next(timeout: timeout) }
    }

    /// The next event, skipping comments and `retry:`; nil once the stream has ended.
    func nextEvent(timeout: Duration = defaultWait) async throws -> SSEEvent? {
        try await offPool { try self.client.nextEvent(timeout: timeout) }
    }

    /// The `retry:` line and the first event, which every stream starts with.
    func opening(timeout: Duration = defaultWait) async throws -> (retry: SSEItem?, first: SSEEvent?) {
        try await offPool {
            let retry = try self.client.next(timeout: timeout)
            return (retry, try self.client.nextEvent(timeout: timeout))
        }
    }

    /// True if the stream ends before `timeout`.
    func waitForEnd(timeout: Duration = defaultWait) async -> Bool {
        (try? await offPool { self.client.waitForEnd(timeout: timeout) }) ?? false
    }

    /// Reads nothing more: the blocking client underneath, for loops over many streams.
    var blocking: SSEClient { client }

    func close() {
        client.close()
    }
}

/// An `/events` client that never reads: its small receive buffer fills, then the server's.
///
/// Unchecked: only `waitForClose` and `close` touch the connection, one at a time.
final class StalledClient: @unchecked Sendable {
    private let connection: HTTPTestConnection

    init(port: Int) throws {
        connection = try HTTPTestConnection(port: port, receiveBufferSize: 4096)
        try connection.send("GET", "/events")
    }

    /// True once the server closes the connection before `timeout` (what arrives is dropped).
    func waitForClose(timeout: Duration = defaultWait) async -> Bool {
        (try? await offPool { self.connection.waitForClose(timeout: timeout) }) ?? false
    }

    func close() {
        connection.close()
    }
}
