import CPostgres

/// The rows a statement returned (`PGresult`), in text form, read while the value lives.
public final class PostgresRows {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) {
        self.result = result
    }

    /// Frees the result (`PQclear`).
    deinit {
        PQclear(result)
    }

    /// The number of rows (`PQntuples`).
    public var count: Int { Int(PQntuples(result)) }

    /// The rows an `UPDATE`, `INSERT` or `DELETE` touched (`PQcmdTuples`), 0 for others.
    public var affected: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }

    /// The text of column `column` of row `row`, nil for SQL NULL (`PQgetvalue`, `PQgetisnull`).
    public subscript(row: Int, column: Int) -> String? {
        guard row < count, column < Int(PQnfields(result)),
              PQgetisnull(result, Int32(row), Int32(column)) == 0 else { return nil }
        return String(cString: PQgetvalue(result, Int32(row), Int32(column)))
    }

    /// Column `column` of row `row` as an integer, nil for NULL or text that is not one.
    public func integer(_ row: Int, _ column: Int) -> Int64? {
        self[row, column].flatMap { Int64($0) }
    }

    /// Column `column` of row `row` as a boolean (`t` or `f`), nil for NULL.
    public func boolean(_ row: Int, _ column: Int) -> Bool? {
        self[row, column].map { $0 == "t" }
    }
}
