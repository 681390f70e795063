import Locking

/// An attempt's deadline that stands still while its load waits for its turn
/// (``LoadProgress``): `hold()` stops the countdown, `release()` resumes it with the time that
/// was left, and `expired` runs once the time is used up.
final class PausableDeadline: Sendable {
    private struct State {
        /// When it expires while counting; nil while held.
        var deadline: Duration?
        /// The time left while held.
        var remaining: Duration
        var alarm: DeckClock.Alarm?
        var cancelled = false
    }

    private let clock: DeckClock
    private let expired: @Sendable () -> Void
    private let state: Locked<State>

    /// Counts down to `deadline` (a time on `clock`) at once.
    init(clock: DeckClock, deadline: Duration, expired: @escaping @Sendable () -> Void) {
        self.clock = clock
        self.expired = expired
        state = Locked(State(deadline: nil, remaining: deadline - clock.now))
        release()
    }

    /// Stops the countdown, keeping the time left; does nothing while held.
    func hold() {
        state.withLock { state in
            guard let deadline = state.deadline else { return }
            state.remaining = deadline - clock.now
            state.deadline = nil
            state.alarm?.cancel()
        }
    }

    /// Counts down the time left from now; does nothing while counting or once cancelled.
    func release() {
        state.withLock { state in
            guard state.deadline == nil, !state.cancelled else { return }
            let deadline = clock.now + state.remaining
            state.deadline = deadline
            state.alarm = clock.alarm(at: deadline, expired)
        }
    }

    /// Stops for good: the attempt ended.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.alarm?.cancel()
        }
    }
}
