/// Whether a broadcast sends on the publisher's threads or leaves the sending to the transport.
///
/// A sink's `write` may send at once on the calling thread (MicroHTTP's `ResponseStream` does for
/// a caught-up client): the event reaches every client soonest, but the next publish waits for
/// all of it, about 13 µs per client here. Its `enqueue` only queues, and the transport's own
/// threads send, batching what piles up for each client. So the hub writes only when it has been
/// idle at least half as long as its last write took, which keeps writing from taking more than
/// two thirds of its time: a lone change goes out at once, while events coming faster are
/// enqueued, and a burst costs the publisher little (BENCHMARKS.md, finding g).
struct BroadcastPacing {
    private var lastEnd: ContinuousClock.Instant?
    private var lastWriteDuration: Duration = .zero

    /// True if a broadcast starting `now` should write rather than enqueue.
    func writes(at now: ContinuousClock.Instant) -> Bool {
        guard let lastEnd else { return true }
        return now - lastEnd >= lastWriteDuration / 2
    }

    /// Records a broadcast that ran from `start` to `end`, written or enqueued.
    mutating func record(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant, wrote: Bool) {
        lastEnd = end
        if wrote {
            lastWriteDuration = end - start
        }
    }
}
