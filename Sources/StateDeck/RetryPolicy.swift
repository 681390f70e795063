/// How a load is retried automatically before its error is shown.
///
/// Delays double from ``initialDelay`` up to ``maximumDelay``, then vary by ±``jitter`` so that
/// panels failing together do not retry in lockstep.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included; 1 means no automatic retry.
    public var attempts: Int
    /// The wait after the first failed attempt.
    public var initialDelay: Duration
    /// The cap of the doubling delay (before jitter), and the longest `Retry-After` waited for
    /// within one load: a longer one ends the load and defers the next one instead.
    public var maximumDelay: Duration
    /// The fraction a delay varies by, either way.
    public var jitter: Double

    /// 3 attempts, 1 s doubling to 30 s, ±30 %.
    public init(
        attempts: Int = 3,
        initialDelay: Duration = .seconds(1),
        maximumDelay: Duration = .seconds(30),
        jitter: Double = 0.3
    ) {
        self.attempts = max(1, attempts)
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.jitter = jitter
    }

    /// No automatic retry: the first failure is shown.
    public static let none = RetryPolicy(attempts: 1)

    /// The wait before the attempt after `attempt` failed with `error`, or nil when the error is to
    /// be shown now: attempts used up, a kind not worth retrying, or a `Retry-After` beyond the cap.
    ///
    /// - Parameter random: a number in `0..<1` that places the delay within its jitter.
    public func delay(after attempt: Int, failedWith error: PanelError, random: () -> Double) -> Duration? {
        guard attempt < attempts, error.kind.isRetryable else { return nil }
        if let retryAfter = error.retryAfter {
            return retryAfter <= maximumDelay ? retryAfter : nil
        }
        return backoff(after: attempt) * (1 + jitter * (2 * random() - 1))
    }

    /// The delay after `attempt` before jitter: ``initialDelay`` doubled per attempt, capped.
    public func backoff(after attempt: Int) -> Duration {
        let doublings = min(attempt - 1, 30)
        return min(initialDelay * Double(1 << doublings), maximumDelay)
    }
}
