/// Whether a broadcast sends on the publisher's threads or leaves the sending to the transport.
///
/// A sink's `write` may send at once on the calling thread (MicroHTTP's `ResponseStream` does for
/// a caught-up client): the event reaches every client soonest, but the next publish waits for
/// all of it, about 13 µs per client here. Its `enqueue` only queues, and the transport's own
/// threads send, batching what piles up for each client. So the hub writes only when its
/// previous broadcast began at least 1.5 times its last write's duration ago: events that far
/// apart keep writing under two thirds of its time. A lone change goes out at once; a steady
/// stream of events closer than that is enqueued throughout, since the choice depends on how far
/// apart events come, not on the previous choice (docs/PERFORMANCE-FINDINGS.md, finding g).
struct BroadcastPacing {
    private var lastStart: ContinuousClock.Instant?
    private var lastWriteDuration: Duration = .zero

    /// True if a broadcast starting `now` should write rather than enqueue.
    func writes(at now: ContinuousClock.Instant) -> Bool {
        guard let lastStart else { return true }
        return now - lastStart >= lastWriteDuration * 3 / 2
    }

    /// Records a broadcast that ran from `start` to `end`, written or enqueued.
    mutating func record(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant, wrote: Bool) {
        lastStart = start
        if wrote {
            lastWriteDuration = end - start
        }
    }
}
