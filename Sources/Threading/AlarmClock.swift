import Locking

/// `ContinuousClock`'s time, with sleeps that are alarms on ``AlarmThread/shared`` instead of
/// Dispatch timers: the clock for code that sets and cancels thousands of deadlines a second.
public struct AlarmClock: Clock {
    public typealias Instant = ContinuousClock.Instant

    public init() {}

    public var now: Instant { .now }

    public var minimumResolution: Duration { ContinuousClock().minimumResolution }

    /// Sleeps until `deadline`; returns at once when it has passed. `tolerance` is ignored: an
    /// alarm rings as soon as its deadline has passed.
    ///
    /// - Throws: `CancellationError` when the task is cancelled, before or while it sleeps.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        guard deadline > .now else { return }
        let rang = FirstResult<Bool>()
        let alarm = AlarmThread.shared.schedule(at: deadline) { rang.offer(true) }
        let cancelled = await withTaskCancellationHandler {
            await !rang.value()
        } onCancel: {
            AlarmThread.shared.cancel(alarm)
            rang.offer(false)
        }
        if cancelled { throw CancellationError() }
    }
}
