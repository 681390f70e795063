import SQLite
import StateDeckHistory

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The history file of a folder and its companions (SQLite's `-wal`, `-shm` and `-journal`):
/// the checks that they are the folder's own before SQLite opens them, and how the file is opened.
struct HistoryFile: Sendable {
    static let name = "history.sqlite3"
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    let folder: String
    /// The file as messages name it: in the folder as given.
    let path: String
    /// The same file in the folder's real path, as SQLite opens it: told not to follow links,
    /// SQLite refuses a link anywhere in the path, and a folder may well be reached through one.
    private let realPath: String
    private let maximumSize: Int?

    /// The file in `folder`, which exists; `maximumSize` bounds its size in bytes.
    init(folder: String, maximumSize: Int?) {
        self.folder = folder
        path = folder + "/" + Self.name
        self.maximumSize = maximumSize
        let resolved = realpath(folder, nil)
        defer { free(resolved) }
        realPath = (resolved.map { String(cString: $0) } ?? folder) + "/" + Self.name
    }

    /// The file and its companions.
    private var paths: [String] { [path] + Self.companionSuffixes.map { path + $0 } }

    /// Refuses a file or companion that is a symbolic link, or has more than one hard link:
    /// either way another folder may hold the same database, and with a link SQLite would put
    /// the log beside the file it points to.
    func refuseLinks() throws(HistoryOpenError) {
        for name in paths {
            var status = stat()
            guard lstat(name, &status) == 0 else { continue }
            if status.st_mode & S_IFMT == S_IFLNK {
                throw .symbolicLink(path: name, target: FileIdentity.linkTarget(of: name))
            }
            if status.st_mode & S_IFMT == S_IFREG, status.st_nlink > 1 {
                throw .hardLinks(path: name, count: Int(status.st_nlink))
            }
        }
    }

    /// Opens the history, making a new one where there is none: checks that the file is the
    /// folder's own and a history this StateDeck reads, then sets the log's pragmas and migrates.
    /// Gives the connection and the file it has open. The file and its companions are its owner's
    /// alone (``DataFolderFile``): SQLite gives the companions the file's mode.
    func open() throws(HistoryOpenError) -> (database: Database, file: FileIdentity) {
        try refuseLinks()
        try HistorySchema.inspect(path: path)
        try restrict()
        let database: Database
        do {
            database = try Database(path: realPath, mode: .readWrite(create: true), followingLinks: false)
        } catch {
            // SQLite refuses a link made since the check; the check says which.
            try refuseLinks()
            throw .cannotCreate(path: path, reason: error.description)
        }
        let version = try HistorySchema.version(of: database, at: path)
        do {
            // The log is folded into the file every 1,000 pages; past 4 MiB its file is cut back.
            try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 4194304")
            if let maximumSize {
                try database.execute("PRAGMA max_page_count = \(max(1, maximumSize / 4096))")
            }
            try HistorySchema.migrate(database, from: version)
        } catch {
            throw openError(error)
        }
        guard case .file(let identity) = FileIdentity.at(path) else {
            throw .unreadable(path: path, reason: "it was gone as soon as it was opened")
        }
        return (database, identity)
    }

    /// Makes the file mode 0600 where there is none, and narrows it and its companions to 0600.
    private func restrict() throws(HistoryOpenError) {
        if let reason = DataFolderFile.create(path: path) { throw .cannotCreate(path: path, reason: reason) }
        for name in paths {
            if let reason = DataFolderFile.restrict(path: name) {
                throw .unreadable(path: name, reason: "its mode cannot be made 0600 (\(reason))")
            }
        }
    }

    /// A second connection to the file `open()` opened, for reads: in WAL mode it reads the
    /// newest commit without waiting for one under way. It never writes (`query_only`).
    func openReader() throws(HistoryOpenError) -> Database {
        do {
            let database = try Database(path: realPath, mode: .readWrite(create: false), followingLinks: false)
            try database.execute("PRAGMA query_only = 1")
            return database
        } catch {
            throw openError(error)
        }
    }

    /// Why a file just opened could not be read or written.
    func openError(_ error: SQLiteError) -> HistoryOpenError {
        error.isDamagedFile
            ? .notHistory(path: path, reason: "it is damaged (\(error.message))")
            : .cannotCreate(path: path, reason: error.description)
    }

    /// Removes the companions of a file deleted while it was open, so that a new file is not
    /// read with the old one's log.
    func removeCompanions() {
        for suffix in Self.companionSuffixes { unlink(path + suffix) }
    }

    /// Removes a file made in vain and its companions.
    func remove() {
        for name in paths { unlink(name) }
    }
}
