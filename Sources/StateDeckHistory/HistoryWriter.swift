import Dispatch
import FoundationEssentials
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
    private let lastTrouble = Locked<PanelError?>(nil)

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

    public func trackEventIDs(_ newest: @escaping @Sendable () -> UInt64) {
        eventIDs.withLock { $0 = newest }
    }

    /// The server's newest event id, when a server tracks them.
    public var newestEventID: UInt64? { eventIDs.current?() }

    /// Why the last save failed; while saving works, the history's standing notice or nil.
    public var trouble: PanelError? { lastTrouble.current }

    public func observeTrouble(_ observer: @escaping @Sendable (PanelError?) -> Void) {
        troubleObservers.withLock { $0.append(observer) }
    }

    /// One save, under `state`'s lock: takes the queue into its history with time counted to
    /// `clock`'s now, then saves it all with the server's newest event id. The observers hear of
    /// the trouble when it changed.
    public func save<State: HistoryStoreState>(_ state: Locked<State>, clock: HistoryClock, unsavedLimit: Int) {
        let eventID = newestEventID
        let (before, after) = state.withLock { state in
            let before = state.history.trouble
            // Read under the lock, so that counts made by queries and saves follow the clock in order.
            let reading = clock.read()
            state.history.absorb(takeQueued(), at: reading, unsavedLimit: unsavedLimit)
            state.save(eventID: eventID, now: reading.wall)
            return (before, state.history.trouble)
        }
        guard before != after else { return }
        lastTrouble.withLock { $0 = after }
        for observer in troubleObservers.current { observer(after) }
    }
}
