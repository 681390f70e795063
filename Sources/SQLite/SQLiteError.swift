import CSQLite

/// An SQLite result code other than OK, with SQLite's message.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_IOERR_WRITE`, say).
    public let code: Int32
    public let message: String

    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The primary result code: the low byte of the extended one.
    public var primary: Int32 { code & 0xFF }

    /// The disk is full (`SQLITE_FULL`, or an I/O error the kernel reported as `ENOSPC`).
    public var isDiskFull: Bool { primary == SQLITE_FULL }

    /// The file is not a database, or a damaged one (`SQLITE_NOTADB`, `SQLITE_CORRUPT`).
    public var isDamagedFile: Bool { primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT }

    /// The file or its folder cannot be written (`SQLITE_READONLY`, `SQLITE_PERM`, `SQLITE_CANTOPEN`).
    public var isNotWritable: Bool {
        primary == SQLITE_READONLY || primary == SQLITE_PERM || primary == SQLITE_CANTOPEN
    }

    public var description: String { "\(message) (SQLite error \(code))" }
}
