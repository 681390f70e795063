import Dispatch
import FoundationEssentials
import Locking
import SQLite
import StateDeck
import StateDeckHistory
import Threading

/// The embedded history store: one SQLite file (`history.sqlite3`, WAL mode) in a folder that
/// this process locks.
///
/// `record(_:)` only queues a change. One thread of the store's own saves the queue in a single
/// transaction every `flushInterval` (1 s) or as soon as `batchSize` changes wait, so neither a
/// request nor the deck's event path ever waits for the disk, and a `kill -9` loses at most the
/// last second. When saving fails (a full disk, a folder made read-only) the changes stay queued,
/// `trouble` says why, and saving resumes by itself once it can.
public final class SQLiteHistoryStore: HistoryStore {
    /// How the store saves and what it keeps.
    public struct Configuration: Sendable {
        public var retention = HistoryRetention()
        /// The longest a change waits to be saved.
        public var flushInterval: Duration = .seconds(1)
        /// Changes that make the writer save at once.
        public var batchSize = 1_000
        /// The most changes and tallies kept in memory while saving fails; the oldest go first.
        public var unsavedLimit = 100_000
        /// The largest the file may grow, in bytes (SQLite's `max_page_count`); nil for no limit
        /// but the disk's.
        public var maximumSize: Int?
        /// The wall time at which buckets end and uptimes are counted.
        public var now: @Sendable () -> Date = { Date() }
        /// Whether the store's own thread saves; off, only `flush()` does (tests on a virtual
        /// clock).
        public var startsWriter = true

        public init() {}
    }

    public static let fileName = "history.sqlite3"
    public let folder: String
    public let path: String
    public let configuration: Configuration
    let state: Locked<StoreState>
    let queue = Locked(ChangeQueue())
    private let wake = DispatchSemaphore(value: 0)
    private let writerDone = DispatchSemaphore(value: 0)
    private let lock: DataFolderLock
    private let troubleObservers = Locked<[@Sendable (PanelError?) -> Void]>([])
    private let eventIDs = Locked<(@Sendable () -> UInt64)?>(nil)
    public let lastEventID: UInt64

    /// Changes waiting for the writer.
    struct ChangeQueue {
        var changes: [PanelChange] = []
        var closing = false
    }

    /// Opens (or makes) the history in `folder`.
    ///
    /// - Throws: ``HistoryOpenError`` when the folder is another process's, or its file cannot
    ///   be read, is not a StateDeck history, or is of a newer schema. The file is left as it was.
    public init(folder: String, configuration: Configuration = Configuration()) throws(HistoryOpenError) {
        lock = try DataFolderLock(folder: folder)
        self.folder = folder
        path = folder + "/" + Self.fileName
        self.configuration = configuration
        try HistorySchema.inspect(path: path)
        let database: Database
        do {
            database = try Database(path: path, mode: .readWrite(create: true))
        } catch {
            throw .cannotCreate(path: path, reason: error.description)
        }
        let version = try HistorySchema.version(of: database)
        do {
            // The log is folded into the file every 1,000 pages; past 4 MiB its file is cut back.
            try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 4194304")
            if let maximumSize = configuration.maximumSize {
                try database.execute("PRAGMA max_page_count = \(max(1, maximumSize / 4096))")
            }
            try HistorySchema.migrate(database, from: version)
            state = Locked(try StoreState(database: database, retention: configuration.retention,
                                          now: configuration.now()))
        } catch {
            throw error.isDamagedFile
                ? .notHistory(path: path, reason: "it is damaged (\(error.message))")
                : .cannotCreate(path: path, reason: error.description)
        }
        lastEventID = state.withLock { $0.storedEventID }
        if configuration.startsWriter {
            DetachedThread.run { [self] in runWriter() }
        } else {
            writerDone.signal()
        }
    }

    public func record(_ change: PanelChange) {
        let count = queue.withLock { queue in
            queue.changes.append(change)
            return queue.changes.count
        }
        if count == configuration.batchSize { wake.signal() }
    }

    public func trackEventIDs(_ newest: @escaping @Sendable () -> UInt64) {
        eventIDs.withLock { $0 = newest }
    }

    public var trouble: PanelError? {
        state.withLock { $0.trouble }
    }

    public func observeTrouble(_ observer: @escaping @Sendable (PanelError?) -> Void) {
        troubleObservers.withLock { $0.append(observer) }
    }

    /// Saves what waits, then stops the writer. Later changes are dropped.
    public func close() {
        let first = queue.withLock { queue in
            defer { queue.closing = true }
            return !queue.closing
        }
        guard first else { return }
        wake.signal()
        writerDone.wait()
        if !configuration.startsWriter { flush() }
        // Folded into the file, so a copy of the file alone is the whole history.
        state.withLock { try? $0.database.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Saves the queued changes and the buckets that ended by now, in one transaction.
    public func flush() {
        let newestEventID = eventIDs.current?()
        let (before, after) = state.withLock { state in
            let before = state.trouble
            absorbQueue(into: &state)
            state.save(eventID: newestEventID, now: configuration.now(), folder: folder)
            return (before, state.trouble)
        }
        if before != after {
            for observer in troubleObservers.current { observer(after) }
        }
    }

    /// Moves the queued changes into `state`, in order: taken with the state's lock held, so two
    /// callers cannot apply a later batch before an earlier one.
    private func absorbQueue(into state: inout StoreState) {
        let changes = queue.withLock { queue in
            defer { queue.changes = [] }
            return queue.changes
        }
        state.absorb(changes, now: configuration.now(), unsavedLimit: configuration.unsavedLimit)
    }

    private func runWriter() {
        // Named, so `top -H` and the benchmark can tell what saving the history costs.
        DetachedThread.nameCurrentThread("history-writer")
        while true {
            _ = wake.wait(timeout: .now() + .nanoseconds(Int(configuration.flushInterval / .nanoseconds(1))))
            let closing = queue.withLock { $0.closing }
            flush()
            if closing { break }
        }
        writerDone.signal()
    }
}

// MARK: - Reading

extension SQLiteHistoryStore {
    public func memories(of panelIds: [String]) -> [String: PanelMemory] {
        state.withLock { state in
            var memories: [String: PanelMemory] = [:]
            for id in panelIds {
                if let memory = try? state.memory(of: id) { memories[id] = memory }
            }
            return memories
        }
    }

    public func changes(of panel: String, _ query: HistoryQuery) throws(HistoryStoreError) -> HistoryPage {
        do {
            return try state.withLock { state throws(SQLiteError) in
                absorbQueue(into: &state)
                return try state.changes(of: panel, query)
            }
        } catch {
            throw .unreadable("\(error)")
        }
    }

    public func uptime(of panel: String, _ query: TimelineQuery) throws(HistoryStoreError) -> UptimeReport {
        do {
            return try state.withLock { state throws(SQLiteError) in
                absorbQueue(into: &state)
                return try state.uptime(of: panel, query, now: configuration.now())
            }
        } catch {
            throw .unreadable("\(error)")
        }
    }
}
