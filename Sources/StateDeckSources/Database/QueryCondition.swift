/// A condition on a postgres or mysql source's query: a column of its first row, how many rows
/// came, or how long it took. A source's conditions must all hold; without any, a query that
/// runs is enough.
public enum QueryCondition: Sendable, Hashable {
    /// The first row's column of this name passes the test.
    case column(String, ResultTest)
    /// The number of rows passes the test (`equals`, `below` or `above`).
    case rows(ResultTest)
    /// The query's whole result came within this time.
    case under(Duration)

    /// Why `result` fails the condition, or nil when it holds.
    func failure(of result: QueryResult) -> String? {
        switch self {
        case .column(let name, let test):
            guard let column = result.columns.first(where: { $0.name == name }) else {
                guard !result.columns.isEmpty else { return "The query returned no rows, so no column \(name.quoted)." }
                return "The first row has no column \(name.quoted); it has \(result.columns.map(\.name.quoted).joined(separator: ", "))."
            }
            return test.failure(of: column.value, subject: "Column \(name)", null: "NULL")
        case .rows(let test):
            return test.holds(for: Double(result.rowCount)) ? nil
                : "The query returned \(result.rowCount.counted("row")), expected \(test.expectation)."
        case .under(let limit):
            return result.time < limit ? nil : "The query took \(result.time.shortText), expected under \(limit.shortText)."
        }
    }
}
