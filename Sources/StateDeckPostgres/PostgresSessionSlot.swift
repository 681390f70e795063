import Postgres

/// A session to the server that may be lost: made anew when it is needed and its wait is over,
/// waiting longer after each failed attempt.
struct PostgresSessionSlot {
    private(set) var session: PostgresConnection?
    /// Why the session was lost or the last attempt to make one failed.
    private(set) var failure = ""
    private var attempts = 0
    private var nextAttempt = ContinuousClock.now
    private let delays: ClosedRange<Duration>

    init(_ session: PostgresConnection?, delays: ClosedRange<Duration>) {
        self.session = session
        self.delays = delays
    }

    /// The session, made anew with `connect` when there is none and the wait is over.
    mutating func connected(_ connect: () throws(PostgresError) -> PostgresConnection) throws(PostgresError) -> PostgresConnection {
        if let session { return session }
        guard ContinuousClock.now >= nextAttempt else { throw PostgresError(kind: .connection, message: failure) }
        do {
            let session = try connect()
            self.session = session
            attempts = 0
            return session
        } catch {
            failure = error.message
            nextAttempt = .now + min(delays.upperBound, delays.lowerBound * (1 << min(attempts, 20)))
            attempts += 1
            throw error
        }
    }

    /// Drops the session when `error` broke it, for the next use to make a new one at once.
    mutating func failed(_ error: PostgresError) {
        guard error.kind == .connection || session?.isConnected == false else { return }
        session = nil
        failure = error.message
        nextAttempt = .now
    }
}
