import SQLite

/// A connection to the history file and its statements, each prepared once.
struct SQLiteConnection {
    let database: Database
    private var statements: [String: Statement] = [:]

    init(_ database: Database) {
        self.database = database
    }

    /// The statement of `sql`, prepared once.
    mutating func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try database.prepare(sql, persistent: true)
        statements[sql] = statement
        return statement
    }
}
