import FoundationEssentials

/// Automatic retries in progress: attempt `attempt` of `of` runs at `nextAt`.
///
/// Published from the first failed attempt until the load ends; during the first attempt and once
/// the load is over it is nil.
public struct RetryStatus: Sendable, Hashable, Codable {
    /// The attempt that runs next (or runs now, once `nextAt` has passed), from 2.
    public var attempt: Int
    /// How many attempts the retry policy allows.
    public var of: Int
    /// When that attempt starts, for the page's countdown.
    public var nextAt: Date

    public init(attempt: Int, of: Int, nextAt: Date) {
        self.attempt = attempt
        self.of = of
        self.nextAt = nextAt
    }
}
