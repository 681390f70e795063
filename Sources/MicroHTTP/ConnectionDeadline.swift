import Synchronization

/// One connection's arrival deadline, in ticks of its server's `DeadlineClock`: set and cleared
/// by the libmicrohttpd thread serving the connection, enforced by `RequestDeadlines` on each
/// tick. An atomic rather than a lock, and ticks rather than clock readings, since it is set
/// twice per request.
final class ConnectionDeadline: Sendable {
    let socket: Int32
    private let clock: DeadlineClock
    /// The tick at which the request being received is due; `exempt` while one is answered.
    private let dueTick: Atomic<Int>

    private static let exempt = Int.max

    init(socket: Int32, clock: DeadlineClock) {
        self.socket = socket
        self.clock = clock
        dueTick = Atomic(clock.due)
    }

    /// The request arrived whole (or was answered early): stop timing it.
    func arrived() {
        dueTick.store(Self.exempt, ordering: .relaxed)
    }

    /// The request is over: the next one is timed from now.
    func answered() {
        dueTick.store(clock.due, ordering: .relaxed)
    }

    /// True, once, when the deadline has passed by `tick`; the connection is then exempt.
    func expire(atTick tick: Int) -> Bool {
        let due = dueTick.load(ordering: .relaxed)
        guard due <= tick else { return false }
        return dueTick.compareExchange(expected: due, desired: Self.exempt, ordering: .relaxed).exchanged
    }
}
