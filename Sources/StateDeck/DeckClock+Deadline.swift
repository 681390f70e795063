extension DeckClock {
    /// Runs `operation` until `deadline`. Past it, the operation is cancelled and `expired` is
    /// thrown at once: a loader that ignores cancellation must not hold its panel in `loading`.
    func run<Value: Sendable>(
        until deadline: Duration,
        orThrow expired: some Error & Sendable,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let outcome = FirstResult<Value>()
        let work = Task { outcome.offer(await Result { try await operation() }) }
        let timer = Task {
            guard (try? await sleep(until: deadline)) != nil else { return }
            outcome.offer(.failure(expired))
        }
        defer {
            work.cancel()
            timer.cancel()
        }
        return try await withTaskCancellationHandler {
            try await outcome.value()
        } onCancel: {
            outcome.offer(.failure(CancellationError()))
            // Now, not in the `defer`: that runs only once this task is scheduled again, and a
            // process exiting right after `Deck.stop()` must not leave a command behind.
            work.cancel()
        }
    }
}
