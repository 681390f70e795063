import Locking
import Postgres
import Threading

/// One PostgreSQL session used by one caller at a time, opened when first needed and opened
/// again after it broke; its blocking calls run on threads of their own.
final class StoreSession: Sendable {
    private let url: String
    private let session = Locked<PostgresConnection?>(nil)

    init(url: String) {
        self.url = url
    }

    /// `run(body)` on a thread of its own, off the caller's.
    func blocking<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(PostgresError) -> T
    ) async -> Result<T, PostgresError> {
        let result = try? await DetachedThread.value { [self] in
            Result { () throws(PostgresError) in try run(body) }
        }
        return result ?? .failure(PostgresError(kind: .connection, message: "cancelled"))
    }

    /// Runs `body` on the session, opening it first when there is none; a broken session is
    /// dropped, so the next call opens another.
    func run<T>(_ body: (PostgresConnection) throws(PostgresError) -> T) throws(PostgresError) -> T {
        try session.withLock { session -> Result<T, PostgresError> in
            let current: PostgresConnection
            if let session {
                current = session
            } else {
                do throws(PostgresError) {
                    current = try PostgresConnection(url)
                } catch {
                    return .failure(error)
                }
            }
            session = current
            let result = Result { () throws(PostgresError) in try body(current) }
            if !current.isConnected { session = nil }
            return result
        }.get()
    }
}
