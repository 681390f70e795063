import CSQLite

/// One connection to an SQLite database file (`sqlite3_open_v2`), used from one thread at a time.
///
/// Opened with SQLite's "no mutex" threading mode: the owner serializes every use, so SQLite's own
/// locks would only cost time.
public final class Database {
    /// How a database is opened.
    public enum Mode: Sendable {
        /// Read and write; `create` makes the file when it is missing.
        case readWrite(create: Bool)
        case readOnly

        var flags: Int32 {
            let base = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
            switch self {
            case .readWrite(let create): return base | SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
            case .readOnly: return base | SQLITE_OPEN_READONLY
            }
        }
    }

    let handle: OpaquePointer
    public let path: String

    /// Opens `path` (`sqlite3_open_v2`); waits up to `busyTimeout` for another connection's lock
    /// (`sqlite3_busy_timeout`). Without `followingLinks`, a path that is or passes through a
    /// symbolic link fails (`SQLITE_OPEN_NOFOLLOW`, `SQLITE_CANTOPEN_SYMLINK`).
    public init(path: String, mode: Mode, busyTimeout: Duration = .seconds(2), followingLinks: Bool = true) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, mode.flags | (followingLinks ? 0 : SQLITE_OPEN_NOFOLLOW), nil)
        guard let handle else { throw SQLiteError(code: code, message: "out of memory") }
        guard code == SQLITE_OK else {
            let error = SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.path = path
        sqlite3_busy_timeout(handle, Int32(busyTimeout / .milliseconds(1)))
    }

    /// Closes the connection (`sqlite3_close_v2`) once its statements are finalized.
    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs `sql`, one or more statements without parameters (`sqlite3_exec`).
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            throw SQLiteError(code: code, message: message.map { String(cString: $0) } ?? lastMessage)
        }
    }

    /// A prepared statement of `sql` (`sqlite3_prepare_v3`, persistent when it is reused).
    public func prepare(_ sql: String, persistent: Bool = false) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code) }
        return Statement(handle: statement, database: self)
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`, so a writer waits for the lock up front
    /// instead of failing halfway), committed when it returns and rolled back when it throws.
    public func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The first column of the first row of `sql`, as an integer (`PRAGMA user_version`, say).
    public func integer(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.integer(0) : nil
    }

    /// Rows changed by the newest statement (`sqlite3_changes64`).
    public var changes: Int64 { sqlite3_changes64(handle) }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: lastMessage)
    }
}
