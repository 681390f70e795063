extension EventHub {
    /// A registered client, as returned by `subscribe`; pass it to `unsubscribe`.
    public struct Subscription: Hashable, Sendable {
        let token: UInt64
    }
}
