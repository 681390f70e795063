import Dispatch

extension Duration {
    /// The duration in seconds, for APIs that take a `TimeInterval`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in whole milliseconds, rounded down.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The duration for scheduling work with Dispatch.
    var dispatchInterval: DispatchTimeInterval {
        .milliseconds(Int(clamping: milliseconds))
    }
}
