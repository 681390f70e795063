import StateDeck

/// Runs a query on a MariaDB or MySQL server: connects, authenticates, runs it with every
/// transaction of the session read-only, and judges its first row, its number of rows and its
/// time against the conditions. The info names the server's version; the first row's columns
/// are its fields, or its readings for numbers and times.
public struct MySQLSource: Sendable, Hashable {
    /// `mysql://user:password@host:port/database` (or `mariadb://`).
    public var url: DatabaseURL
    public var query: String
    /// The whole check's limit, name resolution aside.
    public var timeout: Duration
    /// What the query's result must show, all of it.
    public var conditions: [QueryCondition]

    public static let defaultPort = 3306

    public init(url: DatabaseURL, query: String = "select 1", timeout: Duration = .seconds(10), conditions: [QueryCondition] = []) {
        self.url = url
        self.query = query
        self.timeout = timeout
        self.conditions = conditions
    }

    /// One check; throws a `PanelError`, or `CancellationError` at once when the task is
    /// cancelled, its connection then closed.
    ///
    /// The host's name is looked up on one of a few resolver threads (`NameResolver`); MariaDB
    /// Connector/C then connects to its addresses and runs the query on the probe loop's one
    /// thread, shared by every probe. Its conditions are judged off Swift's shared pool
    /// (``ConditionEvaluation``).
    public func load() async throws -> Info {
        try await DatabaseCheck(url: url, request: query, timeout: timeout).query(by: { addresses in
            MySQLConversation(url: url, addresses: addresses, query: query, timeout: timeout)
        }, conditions: conditions)
    }
}
