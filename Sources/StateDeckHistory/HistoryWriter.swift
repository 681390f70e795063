import Dispatch
import Locking
import StateDeck
import Threading

/// What every history store does the same way around its database: `record(_:)` only queues a
/// change, and one thread of the store's own (named `history-writer`) calls the store's save
/// every `flushInterval` or as soon as `batchSize` changes wait, so neither a request nor the
/// deck's event path ever waits for the database. It also keeps the server's event ids source
/// and who hears of trouble.
public final class HistoryWriter: Sendable {
    public let flushInterval: Duration
    public let batchSize: Int
    private let queue = Locked(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let writerDone = DispatchSemaphore(value: 0)
    private let troubleObservers = Locked<[@Sendable (PanelError?) -> Void]>([])
    private let eventIDs = Locked<(@Sendable () -> UInt64)?>(nil)

    private struct Queue {
        var changes: [PanelChange] = []
        var started = false
        var closing = false
    }

    public init(flushInterval: Duration, batchSize: Int) {
        self.flushInterval = flushInterval
        self.batchSize = batchSize
    }

    /// Starts the thread that calls `save` until `close()`, once more after it.
    public func start(_ save: @escaping @Sendable () -> Void) {
        queue.withLock { $0.started = true }
        DetachedThread.run { [self] in
            // Named, so `top -H` and the benchmark can tell what saving the history costs.
            DetachedThread.nameCurrentThread("history-writer")
            while true {
                _ = wake.wait(timeout: .now() + .nanoseconds(Int(flushInterval / .nanoseconds(1))))
                let closing = queue.withLock { $0.closing }
                save()
                if closing { break }
            }
            writerDone.signal()
        }
    }

    /// Queues `change`, waking the thread once a batch waits.
    public func record(_ change: PanelChange) {
        let count = queue.withLock { queue in
            queue.changes.append(change)
            return queue.changes.count
        }
        if count == batchSize { wake.signal() }
    }

    /// The queued changes, in order, taken out of the queue.
    public func takeQueued() -> [PanelChange] {
        queue.withLock { queue in
            defer { queue.changes = [] }
            return queue.changes
        }
    }

    /// Stops the thread after its last save, waiting at most `limit` for it. Returns false when
    /// the writer was closed before (nothing is done then).
    @discardableResult
    public func close(waitingAtMost limit: Duration? = nil) -> Bool {
        let (first, started) = queue.withLock { queue in
            defer { queue.closing = true }
            return (!queue.closing, queue.started)
        }
        guard first else { return false }
        wake.signal()
        if started {
            if let limit {
                _ = writerDone.wait(timeout: .now() + .nanoseconds(Int(limit / .nanoseconds(1))))
            } else {
                writerDone.wait()
            }
        }
        return true
    }

    public func trackEventIDs(_ newest: @escaping @Sendable () -> UInt64) {
        eventIDs.withLock { $0 = newest }
    }

    /// The server's newest event id, when a server tracks them.
    public var newestEventID: UInt64? { eventIDs.current?() }

    public func observeTrouble(_ observer: @escaping @Sendable (PanelError?) -> Void) {
        troubleObservers.withLock { $0.append(observer) }
    }

    /// Tells the observers of the trouble `after` a save when it is not what it was `before`.
    public func report(trouble after: PanelError?, was before: PanelError?) {
        guard before != after else { return }
        for observer in troubleObservers.current { observer(after) }
    }
}
