/// The injected clock with its instant type erased: instants are durations since the deck was
/// created, so deadlines can be computed on the actor and handed to tasks as plain values.
///
/// Sleeping until a deadline rather than for a duration keeps timing exact under a test clock:
/// a task that starts to sleep late still wakes at the deadline its actor computed.
struct DeckClock: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    init(_ clock: any Clock<Duration>) {
        (elapsed, sleeper) = Self.erase(clock)
    }

    private static func erase<C: Clock<Duration>>(
        _ clock: C
    ) -> (@Sendable () -> Duration, @Sendable (Duration) async throws -> Void) {
        let origin = clock.now
        return (
            { origin.duration(to: clock.now) },
            { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
        )
    }

    /// Time since the deck was created.
    var now: Duration { elapsed() }

    /// Sleeps until `deadline` (a time since the deck was created); throws when cancelled.
    func sleep(until deadline: Duration) async throws {
        try await sleeper(deadline)
    }
}
