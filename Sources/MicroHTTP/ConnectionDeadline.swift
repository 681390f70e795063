import Locking

/// One connection's arrival deadline: set and cleared by the libmicrohttpd thread serving the
/// connection, enforced by `RequestDeadlines`' timer. Its own lock, so requests on different
/// connections never wait for each other; the server-wide list is touched only when a
/// connection opens or closes.
final class ConnectionDeadline: Sendable {
    let socket: Int32
    /// Nil while the connection is exempt (a request is being answered).
    private let deadline: Locked<ContinuousClock.Instant?>
    private let limit: Duration

    init(socket: Int32, limit: Duration) {
        self.socket = socket
        self.limit = limit
        deadline = Locked(ContinuousClock.now + limit)
    }

    /// The request arrived whole (or was answered early): stop timing it.
    func arrived() {
        deadline.withLock { $0 = nil }
    }

    /// The request is over: the next one is timed from now.
    func answered() {
        let next = ContinuousClock.now + limit
        deadline.withLock { $0 = next }
    }

    /// True, once, when the deadline has passed; the connection is then exempt.
    func expire(at now: ContinuousClock.Instant) -> Bool {
        deadline.withLock { deadline in
            guard let due = deadline, due <= now else { return false }
            deadline = nil
            return true
        }
    }
}
