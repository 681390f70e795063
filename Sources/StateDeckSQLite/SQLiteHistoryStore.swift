import FoundationEssentials
import Locking
import SQLite
import StateDeck
import StateDeckHistory

/// The embedded history store: one SQLite file (`history.sqlite3`, WAL mode) in a folder that
/// this process locks.
///
/// `record(_:)` only queues a change. One thread of the store's own (``HistoryWriter``) saves the
/// queue in a single transaction every `flushInterval` (1 s) or as soon as `batchSize` changes
/// wait, so neither a request nor the deck's event path ever waits for the disk, and a `kill -9`
/// loses at most the last second. When saving fails (a full disk, a folder made read-only) the changes stay queued,
/// `trouble` says why, and saving resumes by itself once it can. Each save first checks that the
/// path still names the file open: one deleted while serving is made anew (and `trouble` says
/// so for the rest of the run), so that changes never go to a file no one will read.
public final class SQLiteHistoryStore: WriterBackedHistoryStore {
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
        /// The clocks buckets end and uptimes are counted by.
        public var clock = HistoryClock.system
        /// The wall clock alone, trusted to go forward only as time passes (a test's virtual clock).
        public var now: @Sendable () -> Date {
            get { clock.wall }
            set { clock = HistoryClock(wall: newValue) }
        }
        /// Whether the store's own thread saves; off, only `flush()` does (tests on a virtual
        /// clock).
        public var startsWriter = true

        public init() {}
    }

    public static let fileName = HistoryFile.name
    public let folder: String
    public let path: String
    public let configuration: Configuration
    let state: Locked<StoreState>
    public let writer: HistoryWriter
    public let lastEventID: UInt64

    /// Opens (or makes) the history in `folder`.
    ///
    /// - Throws: ``HistoryOpenError`` when the folder is another process's, or its file cannot
    ///   be read, is not a StateDeck history, is of a newer schema, or is not the folder's own
    ///   (a symbolic link, or a file with other names). The file is left as it was.
    public init(folder: String, configuration: Configuration = Configuration()) throws(HistoryOpenError) {
        let lock = try DataFolderLock(folder: folder)
        let file = HistoryFile(folder: folder, maximumSize: configuration.maximumSize)
        self.folder = folder
        path = file.path
        self.configuration = configuration
        writer = HistoryWriter(flushInterval: configuration.flushInterval, batchSize: configuration.batchSize)
        let opened = try file.open()
        do {
            state = Locked(try StoreState(file: file, database: opened.database, openFile: opened.file, lock: lock,
                                          retention: configuration.retention, clock: configuration.now))
        } catch {
            throw file.openError(error)
        }
        lastEventID = state.withLock { $0.history.storedEventID }
        writer.start(threaded: configuration.startsWriter) { [self] in flush() }
    }

    /// Saves what waits, then stops the writer. Later changes are dropped.
    public func close() {
        guard writer.close() else { return }
        // Folded into the file, so a copy of the file alone is the whole history.
        state.withLock { try? $0.database.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Saves the queued changes and the buckets that ended by now, in one transaction.
    public func flush() {
        writer.save(state, clock: configuration.clock, unsavedLimit: configuration.unsavedLimit)
    }

    /// Moves the queued changes into `state`, so that a query answers with them too: taken with
    /// the state's lock held, so two callers cannot apply a later batch before an earlier one.
    private func absorbQueue(into state: inout StoreState) {
        state.history.absorb(writer.takeQueued(), at: configuration.clock.read(), unsavedLimit: configuration.unsavedLimit)
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
