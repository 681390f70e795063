import Dispatch
import Locking

/// A count that only rises, and tasks waiting for it to reach a mark: each waiter is resumed by
/// the raise that reaches its mark, or by an alarm at its deadline, whichever comes first, so
/// nothing polls. What a catch-up waits on: events written, events served, a deck loaded.
public final class Watermark: Sendable {
    private struct State {
        var level: UInt64
        /// Each waiter's mark, and what resumes it.
        var waiters: [Int: (mark: UInt64, resume: @Sendable () -> Void)] = [:]
        var nextWaiter = 0
    }

    private let state: Locked<State>

    public init(level: UInt64 = 0) {
        state = Locked(State(level: level))
    }

    /// The count now.
    public var level: UInt64 { state.withLock { $0.level } }

    /// Raises the count to `level` (a lower one changes nothing), resuming the waiters it reaches.
    public func raise(to level: UInt64) {
        raise { $0 = max($0, level) }
    }

    /// Raises the count by `count`.
    public func raise(by count: UInt64) {
        raise { $0 += count }
    }

    private func raise(_ change: (inout UInt64) -> Void) {
        let reached = state.withLock { state -> [@Sendable () -> Void] in
            change(&state.level)
            // Raised at every event a hub publishes: most raises find nobody waiting.
            guard !state.waiters.isEmpty else { return [] }
            let reached = state.waiters.filter { $0.value.mark <= state.level }
            for id in reached.keys { state.waiters[id] = nil }
            return reached.values.map(\.resume)
        }
        for resume in reached { resume() }
    }

    /// Waits until the count reaches `mark` (true), or `limit` passes (false).
    public func wait(for mark: UInt64, within limit: Duration) async -> Bool {
        let reached = FirstResult<Bool>()
        guard let waiter = register(mark, { reached.offer(true) }) else { return true }
        let alarm = AlarmThread.shared.schedule(at: .now + limit) { reached.offer(false) }
        let result = await reached.value()
        AlarmThread.shared.cancel(alarm)
        forget(waiter)
        return result
    }

    /// As ``wait(for:within:)``, blocking the calling thread (one of a store's own).
    public func waitBlocking(for mark: UInt64, within limit: Duration) -> Bool {
        let reached = DispatchSemaphore(value: 0)
        guard let waiter = register(mark, { reached.signal() }) else { return true }
        let result = reached.wait(timeout: .now() + .nanoseconds(Int(limit / .nanoseconds(1)))) == .success
        forget(waiter)
        return result
    }

    /// Keeps `resume` for when the count reaches `mark`; nil when it has already.
    private func register(_ mark: UInt64, _ resume: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state in
            guard state.level < mark else { return nil }
            defer { state.nextWaiter += 1 }
            state.waiters[state.nextWaiter] = (mark, resume)
            return state.nextWaiter
        }
    }

    private func forget(_ waiter: Int) {
        state.withLock { _ = $0.waiters.removeValue(forKey: waiter) }
    }
}
