/// Keeps the first value offered and hands it to the one task that waits for it; later offers
/// are ignored. The meeting point of a race: an operation and its deadline, a transfer and its
/// cancellation.
public final class FirstResult<Value: Sendable>: Sendable {
    private enum State {
        case pending(CheckedContinuation<Value, Never>?)
        case settled(Value)
    }

    private let state = Locked(State.pending(nil))

    public init() {}

    /// Settles on `value` unless a value came first.
    public func offer(_ value: Value) {
        let waiter: CheckedContinuation<Value, Never>? = state.withLock { state in
            guard case .pending(let waiter) = state else { return nil }
            state = .settled(value)
            return waiter
        }
        waiter?.resume(returning: value)
    }

    /// Whether a value came.
    public var isSettled: Bool {
        state.withLock { if case .settled = $0 { true } else { false } }
    }

    /// Waits for the first value, on the caller's executor; call it once.
    public nonisolated(nonsending) func value() async -> Value {
        await withCheckedContinuation { continuation in
            let settled: Value? = state.withLock { state in
                guard case .settled(let value) = state else {
                    state = .pending(continuation)
                    return nil
                }
                return value
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }
}
