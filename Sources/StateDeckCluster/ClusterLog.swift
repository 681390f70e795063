import Dispatch
import Locking
import StateDeckServer
import Threading

/// The leader's events on their way to the store: the deck's mirror relays each one here, and
/// the leader's thread takes them in batches, in order.
final class ClusterLog: EventRelay {
    struct Entry: Sendable {
        var event: String
        var data: String
        var panel: String?
    }

    private struct Queue {
        var entries: [Entry] = []
        /// Only while this server leads: a deck stopping after it lost the lead says nothing more.
        var accepting = false
        /// Entries ever taken.
        var appended: UInt64 = 0
    }

    private let queue = Locked(Queue())
    /// Entries written or dropped, of those taken.
    private let settledCount = Watermark()
    private let arrived = DispatchSemaphore(value: 0)

    func relay(event: String, data: @autoclosure () -> String, panel: String?) {
        // A replica makes its own snapshot document from the panels the batch exports.
        let data = event == "snapshot" ? "" : data()
        let first = queue.withLock { queue -> Bool in
            guard queue.accepting else { return false }
            queue.entries.append(Entry(event: event, data: data, panel: panel))
            queue.appended += 1
            return queue.entries.count == 1
        }
        if first { arrived.signal() }
    }

    /// Starts or stops taking events; stopping drops what waits.
    func setAccepting(_ accepting: Bool) {
        let dropped = queue.withLock { queue -> UInt64? in
            queue.accepting = accepting
            guard !accepting else { return nil }
            queue.entries = []
            return queue.appended
        }
        if let dropped { settledCount.raise(to: dropped) }
    }

    /// Up to `limit` of the oldest entries, after waiting up to `timeout` for one.
    func take(upTo limit: Int, waiting timeout: Duration) -> [Entry] {
        if queue.withLock({ $0.entries.isEmpty }) {
            _ = arrived.wait(timeout: .now() + .nanoseconds(Int(timeout / .nanoseconds(1))))
        }
        return queue.withLock { queue in
            let batch = Array(queue.entries.prefix(limit))
            queue.entries.removeFirst(batch.count)
            return batch
        }
    }

    /// Counts `count` entries taken as written (or given up).
    func settle(_ count: Int) {
        settledCount.raise(by: UInt64(count))
    }

    /// Returns once every entry taken so far is written or dropped, or after `limit`.
    func settled(within limit: Duration) async {
        _ = await settledCount.wait(for: queue.withLock { $0.appended }, within: limit)
    }

    /// Wakes a `take` that waits.
    func wake() {
        arrived.signal()
    }
}
