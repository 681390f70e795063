import CSQLite

/// A prepared statement (`sqlite3_stmt`): bind its parameters, step through its rows, reset it
/// to run again. Parameters are numbered from 1, columns from 0, as in SQLite.
public final class Statement {
    let handle: OpaquePointer
    /// Kept so the connection outlives its statements.
    private let database: Database

    init(handle: OpaquePointer, database: Database) {
        self.handle = handle
        self.database = database
    }

    /// `sqlite3_finalize`.
    deinit {
        sqlite3_finalize(handle)
    }

    /// A value a parameter takes.
    public enum Value: Sendable, Equatable {
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])
        case null
    }

    /// Binds `values` to parameters 1, 2, … (`sqlite3_bind_*`), after resetting the statement.
    @discardableResult
    public func bind(_ values: Value...) throws(SQLiteError) -> Statement {
        try bind(values)
    }

    /// Binds `values` to parameters 1, 2, … (`sqlite3_bind_*`), after resetting the statement.
    @discardableResult
    public func bind(_ values: [Value]) throws(SQLiteError) -> Statement {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32 = switch value {
            case .integer(let number): sqlite3_bind_int64(handle, index, number)
            case .real(let number): sqlite3_bind_double(handle, index, number)
            case .text(let text): sqlite3_bind_text(handle, index, text, -1, statedeck_sqlite_transient())
            case .blob(let bytes):
                bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob64(handle, index, buffer.baseAddress, UInt64(buffer.count),
                                        statedeck_sqlite_transient())
                }
            case .null: sqlite3_bind_null(handle, index)
            }
            guard code == SQLITE_OK else { throw database.error(code) }
        }
        return self
    }

    /// Advances to the next row (`sqlite3_step`): true while there is one.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            sqlite3_reset(handle)
            throw database.error(code)
        }
    }

    /// Ends the statement's run (`sqlite3_reset`): a statement left in the middle of its rows
    /// keeps its read transaction open, which holds back every checkpoint of the write-ahead log.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Steps to the end, for a statement that returns no rows.
    public func run() throws(SQLiteError) {
        while try step() {}
    }

    /// Column `index` of the current row is NULL.
    public func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    public func integer(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    public func optionalInteger(_ index: Int32) -> Int64? {
        isNull(index) ? nil : integer(index)
    }

    public func real(_ index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    public func text(_ index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        return String(cString: bytes)
    }

    public func blob(_ index: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}
