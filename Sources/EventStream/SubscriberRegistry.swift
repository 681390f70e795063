/// The sinks an `EventHub` writes to, keyed by a token that never repeats.
///
/// Kept in a dictionary so that taking a copy for a broadcast costs one reference count
/// (copy-on-write), and adding or removing one subscriber among thousands is O(1).
struct SubscriberRegistry {
    private(set) var sinks: [UInt64: any EventSink] = [:]
    private(set) var isClosed = false
    private var nextToken: UInt64 = 0

    /// Registers `sink`, or returns nil once the registry is closed.
    mutating func add(_ sink: any EventSink) -> UInt64? {
        guard !isClosed else { return nil }
        nextToken += 1
        sinks[nextToken] = sink
        return nextToken
    }

    /// Removes the sink of `token`, returning it when it was still registered.
    mutating func remove(_ token: UInt64) -> (any EventSink)? {
        sinks.removeValue(forKey: token)
    }

    /// Refuses later registrations and hands back every sink, removed.
    mutating func close() -> [any EventSink] {
        isClosed = true
        defer { sinks = [:] }
        return Array(sinks.values)
    }
}
