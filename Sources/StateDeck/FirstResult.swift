import Locking

/// Keeps the first result offered and hands it to the one task that waits for it; later offers
/// are ignored. The meeting point of a race between an operation and its deadline.
final class FirstResult<Value: Sendable>: Sendable {
    private enum State {
        case pending(CheckedContinuation<Value, any Error>?)
        case settled(Result<Value, any Error>)
    }

    private let state = Locked(State.pending(nil))

    func offer(_ result: Result<Value, any Error>) {
        let waiter: CheckedContinuation<Value, any Error>? = state.withLock { state in
            guard case .pending(let waiter) = state else { return nil }
            state = .settled(result)
            return waiter
        }
        waiter?.resume(with: result)
    }

    /// Waits for the first result; call it once.
    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let settled: Result<Value, any Error>? = state.withLock { state in
                guard case .settled(let result) = state else {
                    state = .pending(continuation)
                    return nil
                }
                return result
            }
            if let settled { continuation.resume(with: settled) }
        }
    }
}
