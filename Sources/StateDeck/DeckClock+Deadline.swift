import Locking

extension DeckClock {
    /// Runs `operation` until `deadline`. Past it, the operation is cancelled and `expired` is
    /// thrown at once: a loader that ignores cancellation must not hold its panel in `loading`.
    ///
    /// The countdown stands still while the operation waits for its turn: it reports that through
    /// ``LoadProgress``, whose reports `waiting` hears too.
    ///
    /// It runs on the caller's executor (the deck's actor), and so does the wait for the outcome:
    /// the answer comes back to the deck in one hand-off, not through the global executor first.
    nonisolated(nonsending) func run<Value: Sendable>(
        until deadline: Duration,
        orThrow expired: some Error & Sendable,
        waiting: @escaping @Sendable (Bool) async -> Void,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let outcome = FirstResult<Result<Value, any Error>>()
        let countdown = PausableDeadline(clock: self, deadline: deadline) { outcome.offer(.failure(expired)) }
        let reporter = LoadProgress.Reporter { isWaiting in
            if isWaiting { countdown.hold() } else { countdown.release() }
            await waiting(isWaiting)
        }
        let work = Task {
            await LoadProgress.$reporter.withValue(reporter) {
                outcome.offer(await Result { try await operation() })
            }
        }
        defer {
            work.cancel()
            countdown.cancel()
        }
        return try await withTaskCancellationHandler {
            try await outcome.value().get()
        } onCancel: {
            outcome.offer(.failure(CancellationError()))
            // Now, not in the `defer`: that runs only once this task is scheduled again, and a
            // process exiting right after `Deck.stop()` must not leave a command behind.
            work.cancel()
        }
    }
}
