/// The answer to a manual retry.
public struct RetryResult: Sendable, Equatable, Encodable {
    /// A load was already in flight: the retry joined it instead of starting another.
    public var coalesced: Bool

    public init(coalesced: Bool) {
        self.coalesced = coalesced
    }
}
