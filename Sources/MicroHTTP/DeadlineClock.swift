import Synchronization

/// The clock arrival deadlines are kept on: the number of checks `RequestDeadlines` has made,
/// one per `RequestDeadlines.tick`, `ticksPerLimit` of them (rounded up) per limit.
final class DeadlineClock: Sendable {
    let ticksPerLimit: Int
    private let elapsed = Atomic(0)

    init(ticksPerLimit: Int) {
        self.ticksPerLimit = ticksPerLimit
    }

    /// The tick by which a request starting now must have arrived: a whole limit away even if
    /// the next tick is about to come, so it is cut off between one limit and one tick late.
    var due: Int {
        elapsed.load(ordering: .relaxed) + ticksPerLimit + 1
    }

    /// Counts a check; returns the tick it is.
    func advance() -> Int {
        elapsed.add(1, ordering: .relaxed).newValue
    }
}
