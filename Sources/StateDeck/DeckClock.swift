import Threading

/// The injected clock with its instant type erased: instants are durations since the deck was
/// created, so deadlines can be computed on the actor and handed to tasks as plain values.
///
/// Sleeping until a deadline rather than for a duration keeps timing exact under a test clock:
/// a task that starts to sleep late still wakes at the deadline its actor computed.
struct DeckClock: Sendable {
    /// A deadline set with ``DeckClock/alarm(at:_:)``, to cancel it.
    struct Alarm: Sendable {
        let cancel: @Sendable () -> Void
    }

    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void
    private let alarms: @Sendable (Duration, @escaping @Sendable () async -> Void) -> Alarm
    /// Whether deadlines may ring on a grid: only on the alarm clock, so a test's clock keeps
    /// exact times.
    private let ringsOnGrid: Bool

    init(_ clock: any Clock<Duration>) {
        (elapsed, sleeper, alarms) = Self.erase(clock)
        ringsOnGrid = clock is AlarmClock
    }

    private static func erase<C: Clock<Duration>>(
        _ clock: C
    ) -> (
        @Sendable () -> Duration,
        @Sendable (Duration) async throws -> Void,
        @Sendable (Duration, @escaping @Sendable () async -> Void) -> Alarm
    ) {
        let origin = clock.now
        let sleeper: @Sendable (Duration) async throws -> Void = {
            try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil)
        }
        // On the alarm clock an alarm is one entry on its thread; on any other clock (a test's),
        // a task that sleeps, whose timing is then that clock's.
        let alarms: @Sendable (Duration, @escaping @Sendable () async -> Void) -> Alarm =
            if clock is AlarmClock, let alarmOrigin = origin as? AlarmClock.Instant {
                { deadline, action in
                    let alarm = AlarmThread.shared.schedule(at: alarmOrigin.advanced(by: deadline)) {
                        Task { await action() }
                    }
                    return Alarm { AlarmThread.shared.cancel(alarm) }
                }
            } else {
                { deadline, action in
                    let task = Task {
                        guard (try? await sleeper(deadline)) != nil else { return }
                        await action()
                    }
                    return Alarm { task.cancel() }
                }
            }
        return ({ origin.duration(to: clock.now) }, sleeper, alarms)
    }

    /// Time since the deck was created.
    var now: Duration { elapsed() }

    /// Sleeps until `deadline` (a time since the deck was created); throws when cancelled.
    ///
    /// A deadline already passed returns at once, on the caller's executor: a quiet load's answer,
    /// held until its start, does not leave the deck's actor to learn that.
    nonisolated(nonsending) func sleep(until deadline: Duration) async throws {
        guard deadline > now else { return try Task.checkCancellation() }
        try await sleeper(deadline)
    }

    /// Runs `action` in a task once `deadline` (a time since the deck was created) has passed,
    /// unless the alarm is cancelled first. On the alarm clock, cheaper than a task that sleeps
    /// for the deadlines set and cancelled with every load: no task exists until it rings.
    func alarm(at deadline: Duration, _ action: @escaping @Sendable () async -> Void) -> Alarm {
        alarms(deadline, action)
    }

    /// When work due at `deadline` may run, up to `leeway` later: on the alarm clock the next
    /// multiple of `leeway`, so that deadlines falling close together ring together and the work
    /// they start runs in one wakeup of the threads instead of one each; on any other clock (a
    /// test's), `deadline` itself.
    func ringTime(for deadline: Duration, leeway: Duration) -> Duration {
        guard ringsOnGrid, leeway > .zero else { return deadline }
        return leeway * (deadline / leeway).rounded(.up)
    }
}
