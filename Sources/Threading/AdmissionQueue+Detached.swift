import Locking

extension AdmissionQueue {
    /// Runs `body` on a thread of its own once `key` has a turn, and keeps the turn until `body`
    /// returns: the limit then counts the threads that really run, however their callers fare. A
    /// cancelled caller returns at once, waiting or not; its `body` finishes alone.
    ///
    /// For blocking calls with a time limit of their own (a name lookup, a DNS query): a few
    /// threads at once, where one per call could start hundreds.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    public func runDetached<Value: Sendable>(
        _ key: Key, waiting: @Sendable (Bool) async -> Void = { _ in }, _ body: @escaping @Sendable () -> Value
    ) async throws(CancellationError) -> Value {
        try await enter(key, waiting: waiting)
        let result = FirstResult<Value?>()
        DetachedThread.run {
            defer { self.leave(key) }
            result.offer(body())
        }
        let value = await withTaskCancellationHandler {
            await result.value()
        } onCancel: {
            result.offer(nil)
        }
        guard let value else { throw CancellationError() }
        return value
    }
}
