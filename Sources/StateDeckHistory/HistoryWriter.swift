import Dispatch
import FoundationEssentials
import Locking
import StateDeck
import Threading

/// The queue in front of a history's database: `record(_:)` only queues a change, and one thread
/// of its own (named `history-writer`) calls the keeper's save every `flushInterval` or as soon as
/// `batchSize` changes wait, so neither a request nor the deck's event path ever waits for the
/// database.
public final class HistoryWriter: Sendable {
    public let flushInterval: Duration
    public let batchSize: Int
    private let queue = Locked(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let writerDone = DispatchSemaphore(value: 0)

    private struct Queue {
        var changes: [PanelChange] = []
        var save: (@Sendable () -> Void)?
        var threaded = false
        var closing = false
    }

    public init(flushInterval: Duration, batchSize: Int) {
        self.flushInterval = flushInterval
        self.batchSize = batchSize
    }

    /// Saves with `save` from now on: on the writer's own thread until `close()`, once more after
    /// it; with `threaded` off only when the store is told to (tests on a virtual clock), and
    /// once at `close()`.
    public func start(threaded: Bool, _ save: @escaping @Sendable () -> Void) {
        queue.withLock { queue in
            queue.save = save
            queue.threaded = threaded
        }
        guard threaded else { return }
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

    /// The queued changes, in order, left in the queue.
    public var queued: [PanelChange] { queue.withLock { $0.changes } }

    /// The queued changes, in order, taken out of the queue.
    public func takeQueued() -> [PanelChange] {
        queue.withLock { queue in
            defer { queue.changes = [] }
            return queue.changes
        }
    }

    /// Saves what waits and stops saving: waits for the thread's last save, at most `limit`.
    /// Returns false when the writer was closed before (nothing is done then).
    @discardableResult
    public func close(waitingAtMost limit: Duration? = nil) -> Bool {
        let (first, threaded, save) = queue.withLock { queue in
            defer {
                queue.closing = true
                // The save refers to the store, which holds this writer.
                queue.save = nil
            }
            return (!queue.closing, queue.threaded, queue.save)
        }
        guard first else { return false }
        guard threaded else {
            save?()
            return true
        }
        wake.signal()
        if let limit {
            _ = writerDone.wait(timeout: .now() + .nanoseconds(Int(limit / .nanoseconds(1))))
        } else {
            writerDone.wait()
        }
        return true
    }
}
