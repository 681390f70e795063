import StateDeck

extension RetryPolicy {
    static let keys = ["attempts", "delay", "maxDelay", "jitter"]

    /// `none`, or this policy with the keys of the mapping `node` applied.
    func overridden(by node: ConfigNode) -> RetryPolicy? {
        if case .scalar("none", _) = node.node.kind { return RetryPolicy.none }
        if case .scalar = node.node.kind {
            node.problem("must be none or a mapping of \(Self.keys.joined(separator: ", "))")
            return nil
        }
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        return RetryPolicy(
            attempts: map["attempts"]?.int(in: 1...20) ?? attempts,
            initialDelay: map["delay"]?.duration() ?? initialDelay,
            maximumDelay: map["maxDelay"]?.duration() ?? maximumDelay,
            jitter: map["jitter"]?.number(in: 0...1) ?? jitter
        )
    }
}
