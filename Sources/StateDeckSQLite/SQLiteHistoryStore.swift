import FoundationEssentials
import SQLite
import StateDeck
import StateDeckHistory

/// The embedded history store: one SQLite file (`history.sqlite3`, WAL mode) in a folder that
/// this process locks, kept by a ``HistoryKeeper``.
///
/// A `kill -9` loses at most the last `flushInterval` (1 s); a power loss may lose the last commits
/// too (`synchronous = NORMAL`). When saving fails (a full disk, a folder made read-only) the changes
/// stay in memory, `trouble` says why, and saving resumes by itself once it can. Each commit first
/// checks that the path still names the file open: one deleted while serving is made anew (and
/// `trouble` says so for the rest of the run), so that changes never go to a file no one will read.
public final class SQLiteHistoryStore: KeptHistoryStore {
    /// How the store saves and what it keeps: the keeper's settings, and the file's.
    @dynamicMemberLookup
    public struct Configuration: Sendable {
        public var keeping = HistoryKeeper.Configuration()
        /// The largest the file may grow, in bytes (SQLite's `max_page_count`); nil for no limit
        /// but the disk's.
        public var maximumSize: Int?

        public init() {}

        public subscript<Value>(dynamicMember setting: WritableKeyPath<HistoryKeeper.Configuration, Value>) -> Value {
            get { keeping[keyPath: setting] }
            set { keeping[keyPath: setting] = newValue }
        }
    }

    public static let fileName = HistoryFile.name
    public let folder: String
    public let path: String
    public let keeper: HistoryKeeper

    /// Opens (or makes) the history in `folder`.
    ///
    /// - Throws: ``HistoryOpenError`` when the folder is another process's, or its file cannot
    ///   be read, is not a StateDeck history, is of a newer schema, or is not the folder's own
    ///   (a symbolic link, or a file with other names). The file is left as it was.
    public init(folder: String, configuration: Configuration = Configuration()) throws(HistoryOpenError) {
        let database = try Self.database(in: folder, configuration: configuration)
        self.folder = folder
        path = database.file.path
        do {
            keeper = try HistoryKeeper(database: database, configuration: configuration.keeping)
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
    }

    /// The history file in `folder`, opened (or made) as a database, the folder locked for it.
    static func database(in folder: String, configuration: Configuration) throws(HistoryOpenError) -> SQLiteHistoryDatabase {
        let lock = try DataFolderLock(folder: folder)
        let file = HistoryFile(folder: folder, maximumSize: configuration.maximumSize)
        let opened = try file.open()
        let writing: SQLiteHistoryWriting
        do {
            writing = try SQLiteHistoryWriting(file: file, database: opened.database, openFile: opened.file, lock: lock,
                                               clock: configuration.now)
        } catch {
            throw file.openError(error)
        }
        return SQLiteHistoryDatabase(writing: writing, reader: try file.openReader())
    }
}
