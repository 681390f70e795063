/// What a database server answered a check's query: its version, the first row, how many rows
/// came, and how long the query took.
struct QueryResult: Equatable {
    /// One column of the first row.
    struct Column: Equatable {
        let name: String
        /// As the server writes it; nil for NULL.
        let value: String?
        /// A number or a time: a measurement, shown among the panel's readings, not its fields.
        let isMeasurement: Bool
    }

    /// The server's product and version: "PostgreSQL 15.18", "MariaDB 10.11.19".
    let version: String
    /// The first row's columns, in order; none when no row came.
    let columns: [Column]
    let rowCount: Int
    /// From sending the query to its whole result.
    let time: Duration
}
