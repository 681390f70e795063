import Locking

extension DetachedThread {
    /// Runs `body` on a thread of its own and returns its result, or throws `CancellationError`
    /// as soon as the calling task is cancelled: a call stuck in the kernel (an `open` of a FIFO,
    /// a name lookup) then costs only its own thread, which finishes alone whenever it can.
    public static func value<Value: Sendable>(
        _ body: @escaping @Sendable () -> Value
    ) async throws(CancellationError) -> Value {
        let waiter = Locked<(continuation: CheckedContinuation<Value?, Never>?, done: Bool)>((nil, false))
        /// Resumes the waiter once, with the result or nil for a cancellation.
        @Sendable func finish(_ value: Value?) {
            let continuation = waiter.withLock { state -> CheckedContinuation<Value?, Never>? in
                guard !state.done else { return nil }
                state.done = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume(returning: value)
        }
        let value = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let finished = waiter.withLock { state in
                    state.continuation = continuation
                    return state.done
                }
                if finished {
                    continuation.resume(returning: nil)
                } else {
                    run { finish(body()) }
                }
            }
        } onCancel: {
            finish(nil)
        }
        guard let value else { throw CancellationError() }
        return value
    }
}
