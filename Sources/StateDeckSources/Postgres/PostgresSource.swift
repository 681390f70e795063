import StateDeck
import Threading

/// Runs a query on a PostgreSQL server: connects, authenticates, runs it in a read-only
/// transaction, and judges its first row, its number of rows and its time against the
/// conditions. The info names the server's version; the first row's columns are its fields, or
/// its readings for numbers and times.
public struct PostgresSource: Sendable, Hashable {
    /// `postgres://user:password@host:port/database?sslmode=require`; the query's pairs are
    /// libpq's settings.
    public var url: DatabaseURL
    public var query: String
    /// The whole check's limit, name resolution aside; the server's `statement_timeout` too.
    public var timeout: Duration
    /// What the query's result must show, all of it.
    public var conditions: [QueryCondition]

    public static let defaultPort = 5432

    public init(url: DatabaseURL, query: String = "select 1", timeout: Duration = .seconds(10), conditions: [QueryCondition] = []) {
        self.url = url
        self.query = query
        self.timeout = timeout
        self.conditions = conditions
    }

    /// One check; throws a `PanelError`, or `CancellationError` at once when the task is
    /// cancelled, its session then closed.
    ///
    /// The host's name is looked up on one of a few resolver threads (`NameResolver`); libpq
    /// then connects to its addresses (`hostaddr`, so that libpq looks up nothing itself) and
    /// runs the query on the probe loop's one thread, shared by every probe. Its conditions are
    /// judged off Swift's shared pool (``ConditionEvaluation``).
    public func load() async throws -> Info {
        try await DatabaseCheck(url: url, request: query, timeout: timeout).query(by: { addresses in
            PostgresConversation(settings: settings(addresses: addresses), query: query, timeout: timeout)
        }, conditions: conditions)
    }

    /// libpq's keywords: the URL's parts and settings, each address (`hostaddr`) beside the name
    /// it was found for (`host`, which TLS checks the certificate against), and the session's
    /// own: every transaction read-only, and the query ended by the server at the check's limit.
    func settings(addresses: [SocketAddress]) -> [(String, String)] {
        let milliseconds = Int(timeout / .milliseconds(1))
        var settings: [(String, String)] = [
            ("host", Array(repeating: url.host, count: addresses.count).joined(separator: ",")),
            ("hostaddr", addresses.map(\.numericHost).joined(separator: ",")),
            ("port", String(url.port)),
            ("application_name", "statedeck"),
        ]
        if let user = url.user { settings.append(("user", user)) }
        if let password = url.password { settings.append(("password", password)) }
        if let database = url.database { settings.append(("dbname", database)) }
        settings += url.parameters.map { ($0.name, $0.value) }
        settings.append(("options", "-c default_transaction_read_only=on -c statement_timeout=\(milliseconds)"))
        return settings
    }
}
